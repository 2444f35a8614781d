// Seed 002's nested loading on its own ("支持嵌套查询与批量载入（e.g., include=messages）", docs/records.md
// "Nested loading"): against a records store that counts its queries, a page of any size costs one
// query per level, never one per parent; the per-parent cap leaves a cursor; the total cap refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "parley/server/records_include.hpp"

namespace parley::server {
namespace {

// Sessions, turns and messages in memory; each list query is counted.
class counting_records final : public records_query {
 public:
  std::vector<record_session> session_rows;
  std::vector<record_turn> turn_rows;
  std::vector<record_message> message_rows;
  int list_queries = 0;

  result<std::optional<record_dialogue>> dialogue(std::string_view) override {
    return std::optional<record_dialogue>{};
  }
  result<std::optional<record_session>> session(std::string_view) override { return std::optional<record_session>{}; }
  result<std::optional<record_turn>> turn(std::string_view) override { return std::optional<record_turn>{}; }
  result<std::optional<record_message>> message(std::string_view) override { return std::optional<record_message>{}; }
  result<records_page<record_session>> sessions(const records_filter& f) override {
    return page_of(session_rows, f.dialogue_ids, &record_session::dialogue_id, f.limit);
  }
  result<records_page<record_turn>> turns(const records_filter& f) override {
    return page_of(turn_rows, f.session_ids, &record_turn::session_id, f.limit);
  }
  result<records_page<record_message>> messages(const records_filter& f) override {
    return page_of(message_rows, f.turn_ids, &record_message::turn_id, f.limit);
  }
  result<records_page<record_dialogue>> dialogues(const records_filter&) override {
    return records_page<record_dialogue>{};
  }
  result<records_page<record_message>> search(std::string_view, const records_filter&) override {
    return records_page<record_message>{};
  }
  result<std::optional<message_embedding>> embedding(std::string_view) override {
    return std::optional<message_embedding>{};
  }
  result<records_page<scored_message>> nearest(std::string_view, std::span<const float>,
                                               const records_filter&) override {
    return records_page<scored_message>{};
  }
  result<records_page<record_introspection>> introspections(const records_filter&) override {
    return records_page<record_introspection>{};
  }
  result<records_page<record_system_utterance>> system_utterances(const records_filter&) override {
    return records_page<record_system_utterance>{};
  }
  result<std::optional<record_memory_entry>> memory_entry(std::string_view) override {
    return std::optional<record_memory_entry>{};
  }
  result<std::vector<record_memory_link>> memory_links(std::string_view) override {
    return std::vector<record_memory_link>{};
  }
  result<std::vector<std::string>> linked_memories(std::string_view) override { return std::vector<std::string>{}; }
  result<std::vector<pending_turn>> pending_turns() override { return std::vector<pending_turn>{}; }
  result<std::optional<pending_turn>> pending_turn_of(std::string_view) override {
    return std::optional<pending_turn>{};
  }

 private:
  template <class Row>
  result<records_page<Row>> page_of(const std::vector<Row>& rows, const std::vector<std::string>& parents,
                                    std::string Row::*parent_of, std::int64_t limit) {
    ++list_queries;
    records_page<Row> page;
    for (const auto& row : rows) {
      if (std::find(parents.begin(), parents.end(), row.*parent_of) == parents.end()) continue;
      ++page.total;
      if (static_cast<std::int64_t>(page.items.size()) < limit) page.items.push_back(row);
    }
    return page;
  }
};

rest_request include_query(std::string include, std::string limit = {}) {
  rest_request request;
  request.query["include"] = std::move(include);
  if (!limit.empty()) request.query["include_limit"] = std::move(limit);
  return request;
}

// `sessions` sessions of dialogue d, each with `turns` turns of `messages` messages.
counting_records records_of_size(int sessions, int turns, int messages) {
  counting_records records;
  for (int s = 0; s < sessions; ++s) {
    record_session session;
    session.id = "s" + std::to_string(s);
    session.dialogue_id = "d";
    records.session_rows.push_back(session);
    for (int t = 0; t < turns; ++t) {
      record_turn turn;
      turn.id = session.id + "t" + std::to_string(t);
      turn.session_id = session.id;
      records.turn_rows.push_back(turn);
      for (int m = 0; m < messages; ++m) {
        record_message message;
        message.id = turn.id + "m" + std::to_string(m);
        message.turn_id = turn.id;
        records.message_rows.push_back(message);
      }
    }
  }
  return records;
}

TEST(NestedLoading, EachLevelIsOneQueryForEveryParentOfThePage) {
  auto records = records_of_size(40, 3, 2);
  auto include = parse_include(include_query("turns.messages"), {"turns", "turns.messages"});
  ASSERT_TRUE(include) << include.err().message;
  std::vector<boost::json::object> sessions(40);
  std::vector<nested_parent> parents;
  for (int s = 0; s < 40; ++s) parents.push_back({"s" + std::to_string(s), &sessions[s]});
  ASSERT_TRUE(load_nested(records, *include, parents));
  EXPECT_EQ(records.list_queries, 2);  // one for the 40 sessions' turns, one for the 120 turns' messages
  const auto& turns = sessions[7].at("turns").as_array();
  ASSERT_EQ(turns.size(), 3U);
  EXPECT_EQ(sessions[7].at("turns_total"), 3);
  EXPECT_TRUE(sessions[7].at("turns_next").is_null());
  EXPECT_EQ(turns[1].at("id"), "s7t1");
  const auto& messages = turns[1].at("messages").as_array();
  ASSERT_EQ(messages.size(), 2U);
  EXPECT_EQ(messages[0].at("id"), "s7t1m0");
  EXPECT_EQ(messages[1].at("id"), "s7t1m1");
}

TEST(NestedLoading, AParentWithMoreThanTheCapCarriesItsFirstRowsAndACursorToTheRest) {
  auto records = records_of_size(1, 5, 3);
  auto include = parse_include(include_query("turns.messages", "2"), {"turns", "turns.messages"});
  ASSERT_TRUE(include) << include.err().message;
  boost::json::object session;
  ASSERT_TRUE(load_nested(records, *include, {{"s0", &session}}));
  ASSERT_EQ(session.at("turns").as_array().size(), 2U);
  EXPECT_EQ(session.at("turns_total"), 5);
  EXPECT_EQ(session.at("turns_next"), "/api/sessions/s0/turns?offset=2&limit=2&include=messages&include_limit=2");
  const auto& turn = session.at("turns").at(0).as_object();
  EXPECT_EQ(turn.at("messages").as_array().size(), 2U);
  EXPECT_EQ(turn.at("messages_total"), 3);
  EXPECT_EQ(turn.at("messages_next"), "/api/turns/s0t0/messages?offset=2&limit=2");
  EXPECT_EQ(records.list_queries, 2);
}

TEST(NestedLoading, MoreNestedRowsThanOneResponseReadsIsRefusedNamingInclude) {
  auto records = records_of_size(1, 1, static_cast<int>(kMaxNestedRows) + 1);
  auto include = parse_include(include_query("messages"), {"messages"});
  ASSERT_TRUE(include);
  boost::json::object turn;
  auto loaded = load_nested(records, *include, {{"s0t0", &turn}});
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.err().code, errc::invalid_argument);
  EXPECT_EQ(loaded.err().message.rfind("include: the 1 turns of this page have 2001 messages in all", 0), 0U)
      << loaded.err().message;
  EXPECT_FALSE(turn.contains("messages"));  // nothing half-attached
}

TEST(NestedLoading, AnUnknownIncludeIsRefusedNamingTheParameterAndTheAllowedValues) {
  auto unknown = parse_include(include_query("everything"), {"turns", "turns.messages"});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.err().message, "include: expected one of turns, turns.messages, got 'everything'");
  rest_request limit_alone;
  limit_alone.query["include_limit"] = "5";
  auto alone = parse_include(limit_alone, {"messages"});
  ASSERT_FALSE(alone);
  EXPECT_EQ(alone.err().message.rfind("include_limit:", 0), 0U);
  auto too_big = parse_include(include_query("messages", "501"), {"messages"});
  ASSERT_FALSE(too_big);
  EXPECT_EQ(too_big.err().message.rfind("include_limit:", 0), 0U) << too_big.err().message;
  auto none = parse_include(rest_request{}, {"messages"});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->chain.empty());
}

}  // namespace
}  // namespace parley::server
