// Forks (docs/fork.md) on every store: a fork shares its origin's events up to the cut instead of
// copying them, reads as the origin's history with its own ids, and goes on alone; a refused
// point writes nothing.
#include <gtest/gtest.h>

#include <type_traits>
#include <variant>

#include "parley/store/fork_history.hpp"
#include "parley/store/fork_plan.hpp"
#include "store_scenarios.hpp"
#include "support/pg_test_schema.hpp"

namespace parley {
namespace {

namespace json = boost::json;
using test::dialog_script;
using test::temp_dir;

struct fork_memory {
  static std::unique_ptr<store> open(const temp_dir&) { return make_memory_store(); }
};
struct fork_sqlite {
  static std::unique_ptr<store> open(const temp_dir& dir) { return test::open_or_fail(dir); }
};
struct fork_postgres {
  static std::unique_ptr<store> open(const temp_dir&) {
    const std::string url = test::pg_fresh_schema_url();
    if (url.empty()) return nullptr;
    auto opened = open_postgres_store(url);
    EXPECT_TRUE(opened) << opened.err().message;
    return opened ? std::move(*opened) : nullptr;
  }
};

template <class Kind>
class StoreFork : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NE(store_, nullptr); }

  void append_ok(std::vector<event> batch) {
    auto appended = test::append_sync(*store_, std::move(batch));
    ASSERT_TRUE(appended) << appended.err().message;
  }
  // Forks `root` and writes the fork; the fork root's id.
  std::string fork(const std::string& root, fork_point point) {
    auto plan = plan_fork(*store_, root, point, 1'800'000'000'000);
    EXPECT_TRUE(plan) << plan.err().message;
    if (!plan) return {};
    append_ok(std::move(plan->batch));
    return plan->fork_root_id;
  }
  std::vector<event> history(const std::string& id) {
    auto read = read_dialog_history(*store_, id);
    EXPECT_TRUE(read) << read.err().message;
    return read ? *read : std::vector<event>{};
  }
  dialog_row row(const std::string& id) {
    auto read = store_->get_dialog(id);
    EXPECT_TRUE(read && *read) << "no dialog " << id;
    return read && *read ? **read : dialog_row{};
  }
  std::int64_t events_in_log() {
    auto all = store_->read_all_events();
    return all ? static_cast<std::int64_t>(all->size()) : -1;
  }

  temp_dir dir_;
  std::unique_ptr<store> store_ = Kind::open(dir_);
};

using fork_store_kinds = ::testing::Types<fork_memory, fork_sqlite, fork_postgres>;
class fork_kind_names {
 public:
  template <class T>
  static std::string GetName(int) {  // NOLINT(readability-identifier-naming): GoogleTest's hook
    if (std::is_same_v<T, fork_memory>) return "Memory";
    return std::is_same_v<T, fork_sqlite> ? "Sqlite" : "Postgres";
  }
};
TYPED_TEST_SUITE(StoreFork, fork_store_kinds, fork_kind_names);

// realistic_dialog: 1 created, 2 user, 3-4 generation 1 with call c1, 5 its result, 6-7
// generation 2, 8 completed, 9 course 2, 10 a user message.
TYPED_TEST(StoreFork, AForkSharesTheHistoryUpToTheCutAndGoesOnAlone) {
  dialog_script d("r1", "r1");
  this->append_ok(test::realistic_dialog(d));
  const std::string fork = this->fork("r1", fork_point{5, std::nullopt});
  ASSERT_FALSE(fork.empty());

  const auto own = this->store_->read_events(fork);
  ASSERT_TRUE(own);
  ASSERT_EQ(own->size(), 1U) << "the fork keeps one event of its own, not a copy";
  EXPECT_EQ(own->front().seq, 6);
  const auto whole = this->history(fork);
  ASSERT_EQ(whole.size(), 6U);
  for (const auto& ev : whole) {
    EXPECT_EQ(ev.dialog_id, fork);
    EXPECT_EQ(ev.root_id, fork);
  }
  EXPECT_EQ(std::get_if<events::user_message>(&whole[1].payload)->content, "hello");

  const dialog_row forked = this->row(fork);
  EXPECT_EQ(forked.kind, events::dialog_kind::root);
  EXPECT_EQ(forked.member_id, "alice");
  EXPECT_EQ(forked.title, "Plan");
  EXPECT_EQ(forked.last_seq, 6);
  EXPECT_EQ(forked.message_count, 3);
  EXPECT_EQ(forked.input_tokens, 100);
  EXPECT_TRUE(forked.needs_drive) << "a tool result waits for the next generation";
  EXPECT_EQ(forked.status, events::dialog_status::running);

  // It goes on alone: its next event follows the cut, and the origin is untouched.
  dialog_script more(fork, fork, 1'800'000'000'100);
  for (int i = 0; i < 6; ++i) more.skip_seq();
  this->append_ok({more.user("and now?")});
  const auto messages = read_dialog_messages(*this->store_, fork, 1);
  ASSERT_TRUE(messages);
  ASSERT_EQ(messages->size(), 4U);
  EXPECT_EQ(messages->back().content, "and now?");
  EXPECT_EQ(this->row("r1").last_seq, 10);
  EXPECT_EQ(this->row("r1").status, events::dialog_status::completed);

  const auto origin = fork_origin_of(*this->store_, fork);
  ASSERT_TRUE(origin && *origin);
  EXPECT_EQ((*origin)->dialog_id, "r1");
  EXPECT_EQ((*origin)->through_seq, 5);
  dialog_filter roots;
  roots.roots_only = true;
  EXPECT_EQ(this->store_->list_dialogs(roots)->size(), 2U);
}

TYPED_TEST(StoreFork, AForkOfAForkReadsBothSharedPrefixes) {
  dialog_script d("r1", "r1");
  this->append_ok(test::realistic_dialog(d));
  const std::string first = this->fork("r1", fork_point{std::nullopt, 2});
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(this->row(first).last_seq, 6) << "generation 2 starts after event 5";
  dialog_script more(first, first, 1'800'000'000'100);
  for (int i = 0; i < 6; ++i) more.skip_seq();
  this->append_ok({more.user("a different turn")});

  const std::string second = this->fork(first, fork_point{7, std::nullopt});
  ASSERT_FALSE(second.empty());
  const auto whole = this->history(second);
  ASSERT_EQ(whole.size(), 8U);
  EXPECT_EQ(std::get_if<events::user_message>(&whole[1].payload)->content, "hello");
  EXPECT_EQ(std::get_if<events::user_message>(&whole[6].payload)->content, "a different turn");
  for (const auto& ev : whole) EXPECT_EQ(ev.dialog_id, second);
  EXPECT_EQ(this->row(second).message_count, 4);
}

TYPED_TEST(StoreFork, APointInsideAnUnfinishedStepIsRefusedNamingTheNearestValidOnesAndWritesNothing) {
  dialog_script d("r1", "r1");
  this->append_ok(test::realistic_dialog(d));
  const auto before = this->events_in_log();
  auto mid_call = plan_fork(*this->store_, "r1", fork_point{4, std::nullopt}, 1);
  ASSERT_FALSE(mid_call);
  EXPECT_EQ(mid_call.err().code, errc::invalid_argument);
  EXPECT_NE(mid_call.err().message.find("tool call c1 (read_file) has no result yet"), std::string::npos)
      << mid_call.err().message;
  EXPECT_NE(mid_call.err().message.find("--at 2 and --at 5"), std::string::npos) << mid_call.err().message;
  auto mid_generation = plan_fork(*this->store_, "r1", fork_point{6, std::nullopt}, 1);
  ASSERT_FALSE(mid_generation);
  EXPECT_NE(mid_generation.err().message.find("generation 2 is under way"), std::string::npos);

  auto missing = plan_fork(*this->store_, "r1", fork_point{11, std::nullopt}, 1);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().code, errc::not_found);
  EXPECT_NE(missing.err().message.find("its events are 1..10"), std::string::npos) << missing.err().message;
  auto no_generation = plan_fork(*this->store_, "r1", fork_point{std::nullopt, 3}, 1);
  ASSERT_FALSE(no_generation);
  EXPECT_NE(no_generation.err().message.find("its generations are 1..2"), std::string::npos);
  auto unknown = plan_fork(*this->store_, "nope", fork_point{}, 1);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.err().code, errc::not_found);
  EXPECT_EQ(this->events_in_log(), before);
}

// r1 asks s1 (a Tellask) and waits; the fork takes both, with new ids that name each other.
std::vector<event> tree_with_a_subdialog(std::int64_t sub_start_ms) {
  dialog_script root("r1", "r1", 1000);
  dialog_script sub("s1", "r1", sub_start_ms);
  json::array calls{json::object{{"id", "t1"}, {"name", "tellask"}, {"arguments", R"({"targetAgentId":"bob"})"}}};
  std::vector<event> out;
  out.push_back(root.created("alice"));
  out.push_back(root.user("ask bob"));
  out.push_back(root.next(event_type::generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}}));
  out.push_back(root.next(event_type::generation_finished, {{"course", 1},
                                                            {"genseq", 1},
                                                            {"toolCalls", calls},
                                                            {"finishReason", "tool_calls"},
                                                            {"usage", {{"inputTokens", 1}, {"outputTokens", 1}}}}));
  out.push_back(root.next(event_type::tellask_called, {{"course", 1},
                                                       {"genseq", 1},
                                                       {"callId", "t1"},
                                                       {"name", "tellask"},
                                                       {"subdialogId", "s1"},
                                                       {"targetAgentId", "bob"},
                                                       {"tellaskContent", "hi bob"}}));
  out.push_back(sub.created("bob", "r1"));
  out.push_back(sub.next(event_type::user_message, {{"course", 1},
                                                    {"content", "hi bob"},
                                                    {"msgId", "m-s1"},
                                                    {"origin", "tellask"},
                                                    {"assignment",
                                                     {{"callerId", "r1"},
                                                      {"callerMemberId", "alice"},
                                                      {"callId", "t1"},
                                                      {"callName", "tellask"},
                                                      {"tellaskContent", "hi bob"}}}}));
  out.push_back(sub.next(event_type::generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}}));
  return out;
}

TYPED_TEST(StoreFork, ATreeForksWithItsSubdialogsUnderNewIdsThatNameEachOther) {
  this->append_ok(tree_with_a_subdialog(1004));  // s1's events at 1004.., after r1's event 5 at 1004
  const std::string fork = this->fork("r1", fork_point{5, std::nullopt});
  ASSERT_FALSE(fork.empty());
  dialog_filter tree;
  tree.root_id = fork;
  const auto rows = this->store_->list_dialogs(tree);
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 2U);
  const dialog_row& sub = rows->at(0).id == fork ? rows->at(1) : rows->at(0);
  EXPECT_NE(sub.id, "s1");
  EXPECT_EQ(sub.parent_id, fork);
  EXPECT_EQ(sub.member_id, "bob");
  const auto root_history = this->history(fork);
  ASSERT_EQ(root_history.size(), 6U);
  EXPECT_EQ(std::get_if<events::tellask_called>(&root_history[4].payload)->subdialog_id, sub.id);
  const auto sub_history = this->history(sub.id);
  ASSERT_EQ(sub_history.size(), 2U) << "s1's events up to r1's cut: its creation only";
  EXPECT_EQ(std::get_if<events::dialog_created>(&sub_history[0].payload)->parent_id, fork);

  auto of_sub = plan_fork(*this->store_, "s1", fork_point{}, 1);
  ASSERT_FALSE(of_sub);
  EXPECT_NE(of_sub.err().message.find("a tree forks at its root, r1"), std::string::npos);
}

TYPED_TEST(StoreFork, ASubdialogMidGenerationAtTheCutIsRefused) {
  this->append_ok(tree_with_a_subdialog(1001));  // s1 is generating by r1's event 5
  auto plan = plan_fork(*this->store_, "r1", fork_point{5, std::nullopt}, 1);
  ASSERT_FALSE(plan);
  EXPECT_NE(plan.err().message.find("in subdialog s1, generation 1 is under way"), std::string::npos)
      << plan.err().message;
  EXPECT_NE(plan.err().message.find("--at 2"), std::string::npos) << plan.err().message;
}

}  // namespace
}  // namespace parley
