// The declarative request reader (server/request_reader.hpp) and the typed requests of the records
// write routes (server/records_requests.hpp), on their own: each kind of field read, each kind of
// refusal naming its field, the seed's names beside Parley's, and the rules between fields.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <string>

#include "parley/server/records_requests.hpp"
#include "parley/server/request_reader.hpp"

namespace parley::server {
namespace {

boost::json::object body(std::string_view text) { return boost::json::parse(text).as_object(); }

constexpr std::array<std::string_view, 2> kColours{"red", "blue"};

struct sample_request {
  std::string name;
  std::string colour;
  std::optional<std::string> note;
  std::int64_t count = 3;
  std::optional<std::int64_t> at;
  std::vector<std::string> tags;
  boost::json::object extra;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.required_text("name", s.name, 8);
    r.one_of("colour", s.colour, kColours, "red");
    r.text("note", s.note);
    r.integer("count", s.count, 1, 10);
    r.time("at", s.at);
    r.text_list("tags", s.tags, 2);
    r.object("extra", s.extra);
  }
};

// The message of a refusal of `text`, or "" when it was read.
template <class T = sample_request>
std::string refusal(std::string_view text, unknown_fields unknown = unknown_fields::refuse) {
  auto read = read_request<T>(body(text), unknown);
  if (read) return "";
  EXPECT_EQ(read.err().code, errc::invalid_argument);
  return read.err().message;
}

using RequestReader = ::testing::Test;

TEST_F(RequestReader, ReadsEveryKindOfFieldAndAppliesDefaults) {
  auto read = read_request<sample_request>(
      body(R"({"name":"ann","note":"hi","count":7,"at":"2026-11-22T03:14:15Z","tags":["a","b"],"extra":{"k":1}})"));
  ASSERT_TRUE(read) << read.err().message;
  EXPECT_EQ(read->name, "ann");
  EXPECT_EQ(read->colour, "red");  // the fallback
  EXPECT_EQ(read->note, "hi");
  EXPECT_EQ(read->count, 7);
  EXPECT_TRUE(read->at.has_value());
  EXPECT_EQ(read->tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(read->extra.at("k"), 1);
  auto minimal = read_request<sample_request>(body(R"({"name":"bo","note":null})"));
  ASSERT_TRUE(minimal) << minimal.err().message;
  EXPECT_FALSE(minimal->note.has_value());  // null reads as absent
  EXPECT_EQ(minimal->count, 3);             // the struct's default
}

TEST_F(RequestReader, EachRefusalStartsWithTheFieldsName) {
  EXPECT_EQ(refusal("{}"), "name: required, a non-empty string");
  EXPECT_EQ(refusal(R"({"name":""})"), "name: expected a non-empty string");
  EXPECT_EQ(refusal(R"({"name":7})"), "name: expected a non-empty string, got integer");
  EXPECT_EQ(refusal(R"({"name":"far too long"})"), "name: 12 bytes, over the limit of 8");
  EXPECT_EQ(refusal(R"({"name":"a","colour":"green"})"), "colour: expected one of red, blue, got 'green'");
  EXPECT_EQ(refusal(R"({"name":"a","note":[]})"), "note: expected a string, got array");
  EXPECT_EQ(refusal(R"({"name":"a","count":11})"), "count: expected an integer 1..10, got 11");
  EXPECT_EQ(refusal(R"({"name":"a","count":1.5})"), "count: expected an integer 1..10, got 1.5E0");
  EXPECT_EQ(refusal(R"({"name":"a","at":"yesterday"})").rfind("at: expected an RFC 3339 time", 0), 0U);
  EXPECT_EQ(refusal(R"({"name":"a","tags":"x"})"), "tags: expected an array of strings, got string");
  EXPECT_EQ(refusal(R"({"name":"a","tags":["x",2]})"), "tags[1]: expected a non-empty string, got integer");
  EXPECT_EQ(refusal(R"({"name":"a","tags":["x","y","z"]})"), "tags: 3 items, over the limit of 2");
  EXPECT_EQ(refusal(R"({"name":"a","extra":[]})"), "extra: expected an object, got array");
}

TEST_F(RequestReader, AnUnknownFieldIsRefusedFirstUnlessTheRouteIgnoresThem) {
  EXPECT_EQ(refusal(R"({"colour":"green","nmae":"a"})"),
            "nmae: unknown field; expected one of name, colour, note, count, at, tags, extra");
  EXPECT_EQ(refusal(R"({"name":"a","type":"x"})", unknown_fields::ignore), "");
}

TEST_F(RequestReader, StringsMustBeUtf8) {
  boost::json::object bad{{"name", boost::json::string("a\xff")}};
  auto read = read_request<sample_request>(bad);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().message.rfind("name: ", 0), 0U) << read.err().message;
}

TEST_F(RequestReader, TheSeedsTurnNamesStandBesideParleysAndMustAgree) {
  auto seed =
      read_request<open_turn_request>(body(R"({"session_id":"s","initiator":"ai","expected_responder":"human"})"));
  ASSERT_TRUE(seed) << seed.err().message;
  EXPECT_EQ(seed->opened_by(), events::record_role::ai);
  EXPECT_EQ(seed->waits_for(), events::record_role::human);
  EXPECT_EQ(refusal<open_turn_request>(R"({"session_id":"s","initiator":"ai","initiator_role":"human",
                                         "expected_responder":"human"})")
                .rfind("initiator: 'ai' disagrees with initiator_role 'human'", 0),
            0U);
  EXPECT_EQ(refusal<open_turn_request>(R"({"session_id":"s","initiator":"ai"})").rfind("responder_role: required", 0),
            0U);
  EXPECT_EQ(refusal<open_turn_request>(R"({"session_id":"s","initiator":"ai","expected_responder":"human",
                                         "turn_type":"human_query"})"),
            "turn_type: a turn opened by ai is 'ai_prompt', got 'human_query'");
  EXPECT_EQ(refusal<open_turn_request>(R"({"session_id":"s","initiator":"ai","expected_responder":"human",
                                         "expected_window_minutes":0})")
                .rfind("expected_window_minutes: expected an integer 1..", 0),
            0U);
}

TEST_F(RequestReader, AMessageNamesItsTurnOrTheSeedsSessionOrDialogue) {
  EXPECT_EQ(refusal<record_message_request>(R"({"sender_role":"ai","content":"x"})").rfind("turn_id: required", 0), 0U);
  EXPECT_EQ(refusal<record_message_request>(R"({"session_id":"s","sender_role":"ai","content":"x"})"), "");
  EXPECT_EQ(refusal<record_message_request>(R"({"turn_id":"t","sender_role":"ai","content":"x","target":"ai"})"),
            "target: only a system message has an utterance target and notes");
  EXPECT_EQ(refusal<record_message_request>(R"({"turn_id":"t","sender_role":"ai","content":"x","content_meta":{}})"),
            "content_meta: only image and audio messages have one");
  EXPECT_EQ(refusal<record_message_request>(
                R"({"turn_id":"t","sender_role":"ai","content":"x","content_type":"image","content_meta":{"mood":1}})")
                .rfind("content_meta.mood: unknown field", 0),
            0U);
}

TEST_F(RequestReader, SessionsTakeTheSeedsTypesAndTriggers) {
  auto reflection =
      read_request<open_session_request>(body(R"({"dialogue_id":"d","session_type":"reflection","goal":"g"})"));
  ASSERT_TRUE(reflection) << reflection.err().message;
  EXPECT_TRUE(reflection->self_reflection());
  EXPECT_EQ(refusal<open_session_request>(R"({"dialogue_id":"d","session_type":"interaction","goal":"g"})"),
            "goal: only a self_reflection session has it (set session_type)");
  EXPECT_EQ(refusal<open_session_request>(R"({"dialogue_id":"d","triggered_by":"cron"})"),
            "triggered_by: expected one of system, human, ai, schedule, got 'cron'");
  EXPECT_EQ(refusal<close_session_request>(R"({"reason":"bored"})"),
            "reason: expected one of timeout, manual, task_completed, got 'bored'");
  EXPECT_EQ(refusal<close_turn_request>(R"({"status":"expired","closed_by":"system"})"), "");
}

}  // namespace
}  // namespace parley::server
