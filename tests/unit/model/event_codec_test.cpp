// The typed event codec (model/event_codec.hpp): every type round-trips through its wire object,
// every refusal names the field, types a binary does not know are kept, fields it does not know
// are ignored, and fields added to a type later read as their documented default.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <set>
#include <string>
#include <vector>

#include "parley/model/event_codec.hpp"

namespace parley {
namespace {

namespace ev = events;

// One payload of every type, with every optional field given, so nothing is at a default.
std::vector<ev::event_payload> one_of_each() {
  ev::dialog_created created{"lead",
                             ev::dialog_kind::sub,
                             "parent1",
                             "tasks/a.tsk",
                             "A title",
                             2,
                             ev::call_kind::self_reflect,
                             "desk",
                             {"ann", "ben"},
                             {"alpha", "beta"},
                             ev::reflection_spec{"schedule", "review", "calm"},
                             60000,
                             30000};
  ev::user_message input{3,
                         "hello",
                         "m1",
                         ev::message_origin::tellask,
                         ev::assignment{"caller", "boss", "call1", ev::call_kind::fresh_boots_reasoning, "s", "do it"},
                         "ann",
                         "",
                         ev::attachment{"u1", "/api/uploads/u1", ev::attachment_kind::audio, "audio/wav", "wav", 12,
                                        "a caption", "the words", "scribe", "no describer"}};
  ev::generation_finished finished{2,
                                   5,
                                   "thinking",
                                   "saying",
                                   {{"c1", "read_file", R"({"path":"a"})"}, {"c2", "tellask", "{}"}},
                                   "tool_calls",
                                   "gpt-x",
                                   "alpha",
                                   {100, 20, 30, 4},
                                   true,
                                   true,
                                   "stopped by ann",
                                   "pv-0123456789abcdef"};
  ev::record_session_opened session{
      "s1", "self_reflection", "d", "ai", boost::json::object{{"k", 1.5}}, "schedule", "goal", "calm"};
  ev::record_message written{"m1",
                             "t1",
                             "system",
                             "",
                             "text",
                             "text",
                             boost::json::object{{"a", "b"}},
                             "m0",
                             "human",
                             "notes",
                             boost::json::object{{"caption", "c"}}};
  ev::record_introspection introspection{"t1",    "s1",   "why",    "ctx",  "tool",        "in", "out",
                                         "entry", "mem1", "calmer", "more", 1700000000000, 250,  "lead"};
  return {created,
          input,
          ev::generation_started{1, 2, 3},
          finished,
          ev::generation_progress{1, 2, "th", "sa"},
          ev::prompt_logged{1, "pv-0123456789abcdef", "You lead.", {"read_file", "tellask"}, "gpt-x"},
          ev::generation_discarded{1, 2, "connection reset"},
          ev::tool_result{1, 2, "c1", "read_file", false, "no such file"},
          ev::tool_result{1, 2, "c2", "fs_write", true, "written", std::nullopt, ev::mcp_call{"files", "write", 41}},
          ev::tool_result{1, 2, "c3", "fs_write", false, "interrupted", std::nullopt,
                          ev::mcp_call{"files", "write", {}}, true},
          ev::drive_failed{1, "provider error"},
          ev::status_changed{ev::dialog_status::archived},
          ev::course_started{2, "fresh start"},
          ev::tellask_called{1, 2, "c1", ev::call_kind::tellask, "sub1", "helper", "desk", "please"},
          ev::reply_received{1, "c1", ev::call_kind::tellask_back, true, "sub1", "helper", ev::reply_kind::tellask_back,
                             true, "question?", "back1"},
          ev::answer_delivered{1, "sub1", "back1"},
          ev::question_asked{1, 2, "c1", "q1", "Colour?", "Colour?\nPick one.", "2026-11-26T08:53:09.993Z"},
          ev::question_answered{1, "q1", "c1", "blue", "m9", "ann"},
          ev::reminder_added{"remember"},
          ev::reminder_updated{1, "remember more"},
          ev::reminder_deleted{0},
          ev::taskdoc_changed{ev::taskdoc_section::constraints, "tasks/a.tsk", "h2", "h1"},
          ev::title_changed{"Budget review for Q3", ev::title_source::model},
          ev::context_health{1, 2, ev::health_level::critical, 9000, 10000},
          ev::declared_dead{"stuck"},
          ev::drive_resumed{},
          ev::event_quarantined{"tool_result", "the payload is not JSON"},
          ev::turn_window_expired{"t1"},
          session,
          ev::record_session_closed{"s1", "summary"},
          ev::record_turn_opened{"t1", "s1", "human", "ai"},
          ev::record_turn_closed{"t1", "unresponded"},
          written,
          introspection,
          ev::record_memory_link{"t1", "mem1"},
          ev::record_message_analyzed{"m1", 3, "analyst", {"travel", "weather"}, "curious", {"旅行"}, "", 2},
          ev::record_message_analyzed{
              "m2",
              4,
              "analyst",
              {"memory"},
              "nostalgic",
              {"海边"},
              "",
              1,
              {ev::analysis_step{"ImageParser", "image", "caption", "done", "eye", "vision-1", "a beach", "", ""},
               ev::analysis_step{"TextParser", "text", "text_analysis", "done", "analyst", "m", "", "", "zh"}}},
          ev::record_message_embedded{"m1", 3, "embed-small", 2, "AACAPwAAAEA=", ""},
          ev::flow_thread_saved{boost::json::object{{"id", "f1"}, {"messages", boost::json::array{}}},
                                ev::flow_input{"m7", "ann", "write me an article"}},
          ev::flow_thread_appended{{{"", {boost::json::object{{"id", "n1"}, {"sender", "user"}, {"text", "hi"}}}}},
                                   boost::json::object{{"briefStatus", boost::json::object{{"phase", "p"}}}},
                                   ev::flow_input{"m8", "", "hi"}},
          ev::flow_message_updated{"n1", std::string("edited"), std::nullopt},
          ev::flow_settings_updated{"messages.0.meta._thread", boost::json::object{{"extra", 1}}},
          ev::dialog_forked{"o1",
                            "o1",
                            4,
                            ev::dialog_created{"lead",
                                               ev::dialog_kind::sub,
                                               "f0",
                                               "",
                                               "",
                                               1,
                                               ev::call_kind::tellask,
                                               "",
                                               {},
                                               {},
                                               std::nullopt,
                                               std::nullopt,
                                               std::nullopt},
                            ev::fork_row{ev::dialog_status::running, 1, "f0", 1, 3, 1, 0, 100, 20, true, false, "", 7},
                            {ev::forked_id{"o1", "f1"}}},
          ev::replay_started{"o1",
                             4,
                             std::string("gpt-4o"),
                             std::string("offline"),
                             std::string("/t/team.yaml"),
                             std::string("0123456789abcdef"),
                             {ev::replay_persona{"lead", "You lead."}},
                             ev::replay_tools::recorded,
                             "/d/replays/f1/workspace"},
          ev::call_replayed{"c2", "read_file", "o1", "c1"},
          ev::unknown_event{"from_a_newer_binary", boost::json::object{{"anything", boost::json::array{1, "two"}}}}};
}

TEST(EventCodec, EveryTypeRoundTripsThroughItsWireObject) {
  std::set<std::size_t> covered;
  for (const auto& payload : one_of_each()) {
    covered.insert(payload.index());
    const auto type = ev::type_of(payload);
    const auto wire = encode_payload(payload);
    // Through text, as the log stores it.
    const auto text = boost::json::serialize(wire);
    const auto parsed = boost::json::parse(text);
    auto back = decode_payload(type, parsed.as_object());
    ASSERT_TRUE(back) << type << ": " << back.err().message;
    EXPECT_EQ(ev::type_of(*back), type);
    EXPECT_TRUE(*back == payload) << type << " changed: " << text << " -> "
                                  << boost::json::serialize(encode_payload(*back));
  }
  EXPECT_EQ(covered.size(), std::variant_size_v<ev::event_payload>) << "a type has no sample in one_of_each()";
}

// Issue 39: the MCP call behind a tool result is an optional object of it, and `interrupted` is
// written only when true, so a result written before either reads as a built-in tool's answer.
TEST(EventCodec, AToolResultCarriesItsMcpCallAndAnOlderResultReadsWithoutOne) {
  const ev::tool_result called{1,    2,         "c2",         "fs_write",
                               true, "written", std::nullopt, ev::mcp_call{"files", "write", 41}};
  const auto wire = encode_payload(called);
  EXPECT_EQ(wire.at("mcp"), (boost::json::object{{"server", "files"}, {"tool", "write"}, {"durationMs", 41}}));
  EXPECT_FALSE(wire.contains("interrupted"));
  const boost::json::object older{{"course", 1}, {"genseq", 2}, {"callId", "c1"}, {"name", "n"}, {"content", "x"}};
  auto back = decode_payload(ev::tool_result::kType, older);
  ASSERT_TRUE(back) << back.err().message;
  const auto& read = std::get<ev::tool_result>(*back);
  EXPECT_FALSE(read.mcp.has_value());
  EXPECT_FALSE(read.interrupted);
  auto refused = decode_payload(ev::tool_result::kType, {{"course", 1},
                                                         {"genseq", 2},
                                                         {"callId", "c1"},
                                                         {"name", "n"},
                                                         {"content", "x"},
                                                         {"mcp", boost::json::object{{"server", "files"}}}});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.err().message.find("mcp.tool"), std::string::npos) << refused.err().message;
}

TEST(EventCodec, FieldsAtTheirDefaultAreNotWrittenAndReadBackAsTheDefault) {
  ev::generation_finished plain{1, 1, "", "hi", {}, "stop", std::nullopt, std::nullopt, {5, 6, 0, 0}, false, false};
  const auto wire = encode_payload(plain);
  EXPECT_FALSE(wire.contains("inputArrived"));
  EXPECT_FALSE(wire.contains("model"));
  EXPECT_FALSE(wire.contains("thinking"));
  EXPECT_FALSE(wire.contains("toolCalls"));
  EXPECT_FALSE(wire.contains("interrupted"));
  EXPECT_EQ(wire.at("saying"), "hi");
  EXPECT_FALSE(wire.contains("memberId"));
  EXPECT_EQ(wire.at("usage"), (boost::json::object{{"inputTokens", 5}, {"outputTokens", 6}}));
  auto back = decode_payload(ev::generation_finished::kType, wire);
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_TRUE(*back == ev::event_payload(plain));
}

// The fields defaulted since schema version 17 (docs/events.md, "Fields at their default"): an
// older log writes each of them; it reads as the same event as the shorter form written now.
TEST(EventCodec, AnOlderLogsFieldsAtTheirDefaultReadTheSameAsTheShortFormWrittenNow) {
  struct shapes {
    std::string_view type;
    const char* older;    // as every version before 17 wrote it
    const char* shorter;  // as it is written now
  };
  const std::vector<shapes> cases = {
      {"generation_finished",
       R"({"course":1,"genseq":2,"thinking":"","saying":"","toolCalls":[],"finishReason":"stop","usage":{"inputTokens":1,"outputTokens":1},"interrupted":false})",
       R"({"course":1,"genseq":2,"finishReason":"stop","usage":{"inputTokens":1,"outputTokens":1}})"},
      {"tool_result", R"({"course":1,"genseq":1,"callId":"c","name":"lookup","ok":true,"content":"v"})",
       R"({"course":1,"genseq":1,"callId":"c","name":"lookup","content":"v"})"},
      {"reply_received",
       R"({"course":1,"callId":"c","name":"tellaskSessionless","awaited":true,"fromDialogId":"d","fromMemberId":"w","kind":"final","ok":true,"content":"done"})",
       R"({"course":1,"callId":"c","name":"tellaskSessionless","fromDialogId":"d","fromMemberId":"w","kind":"final","content":"done"})"},
      {"user_message",
       R"({"course":1,"content":"x","msgId":"m","origin":"tellask","assignment":{"callerId":"p","callerMemberId":"lead","callId":"c","callName":"tellaskSessionless","sessionSlug":"","tellaskContent":"x"}})",
       R"({"course":1,"content":"x","msgId":"m","origin":"tellask","assignment":{"callerId":"p","callerMemberId":"lead","callId":"c","callName":"tellaskSessionless","tellaskContent":"x"}})"},
  };
  for (const auto& c : cases) {
    auto older = decode_payload(c.type, boost::json::parse(c.older).as_object());
    ASSERT_TRUE(older) << c.type << ": " << older.err().message;
    auto shorter = decode_payload(c.type, boost::json::parse(c.shorter).as_object());
    ASSERT_TRUE(shorter) << c.type << ": " << shorter.err().message;
    EXPECT_TRUE(*older == *shorter) << c.type;
    EXPECT_EQ(encode_payload(*older), boost::json::parse(c.shorter).as_object()) << c.type;
  }
  // A value other than the default is written and read as it is.
  auto failed = decode_payload(
      "reply_received",
      boost::json::parse(
          R"({"course":1,"callId":"c","name":"tellaskSessionless","awaited":false,"fromDialogId":"d","fromMemberId":"w","kind":"final","ok":false,"content":"no"})")
          .as_object());
  ASSERT_TRUE(failed) << failed.err().message;
  const auto& reply = std::get<ev::reply_received>(*failed);
  EXPECT_FALSE(reply.awaited);
  EXPECT_FALSE(reply.ok);
  EXPECT_EQ(encode_payload(*failed).at("awaited"), false);
  EXPECT_EQ(encode_payload(*failed).at("ok"), false);
}

struct refusal {
  std::string type;
  std::string payload;  // JSON text
  std::string message;  // what the codec says
};

TEST(EventCodec, StrictDecodingNamesTheFieldAndTheProblem) {
  const std::vector<refusal> cases = {
      {"user_message", R"({"course":1,"content":"hi","origin":"user"})", "msgId: is missing"},
      {"user_message", R"({"course":1,"content":5,"msgId":"m","origin":"user"})",
       "content: is an integer, not a string"},
      {"user_message", R"({"course":"1","content":"hi","msgId":"m","origin":"user"})",
       "course: is a string, not an integer"},
      {"user_message", R"({"course":1,"content":"hi","msgId":"m","origin":"robot"})",
       "origin: is 'robot', not one of user|answer|system|tellask|reply"},
      {"user_message",
       R"({"course":1,"content":"hi","msgId":"m","origin":"user","attachment":{"uploadId":"u","url":"x","kind":"image","mime":"m","format":"png","sizeKb":"1"}})",
       "attachment.sizeKb: is a string, not an integer"},
      {"user_message", R"({"course":1,"content":"hi","msgId":"m","origin":"tellask","assignment":{"callerId":"c"}})",
       "assignment.callerMemberId: is missing"},
      {"generation_finished",
       R"({"course":1,"genseq":1,"thinking":"","saying":"","toolCalls":[],"finishReason":"stop","usage":{"outputTokens":1},"interrupted":false})",
       "usage.inputTokens: is missing"},
      {"generation_finished",
       R"({"course":1,"genseq":1,"thinking":"","saying":"","toolCalls":[{"id":"a","name":"x","arguments":"{}"},{"id":"b","name":3,"arguments":"{}"}],"finishReason":"stop","usage":{"inputTokens":1,"outputTokens":1},"interrupted":false})",
       "toolCalls[1].name: is an integer, not a string"},
      {"generation_finished",
       R"({"course":1,"genseq":1,"thinking":"","saying":"","toolCalls":{},"finishReason":"stop","usage":{"inputTokens":1,"outputTokens":1},"interrupted":false})",
       "toolCalls: is an object, not an array"},
      {"generation_started", R"({"course":1,"genseq":18446744073709551615,"round":1})",
       "genseq: is an integer past the range of int64"},
      {"tool_result", R"({"course":1,"genseq":1,"callId":"c","name":"n","ok":"yes","content":""})",
       "ok: is a string, not a boolean"},
      {"reminder_deleted", R"({"index":1.5})", "index: is a fractional number, not an integer"},
      {"reply_received",
       R"({"course":1,"callId":"","name":"tellask","awaited":false,"fromDialogId":"d","fromMemberId":"m","kind":null,"ok":true,"content":""})",
       "kind: is null, not a string"},
      {"status_changed", R"({"status":"done"})", "status: is 'done', not one of running|completed|archived"},
      {"dialog_created", R"({"memberId":"m","kind":"group","depth":0})", "kind: is 'group', not one of root|sub"},
      {"dialog_created", R"({"memberId":"m","kind":"root","depth":0,"humans":[1]})",
       "humans[0]: is an integer, not a string"},
      {"dialog_created", R"({"memberId":"m","kind":"root","depth":0,"reflection":{"goal":"g"}})",
       "reflection.trigger: is missing"},
      {"context_health", R"({"course":1,"genseq":1,"level":"fine","promptTokens":1,"contextWindow":2})",
       "level: is 'fine', not one of healthy|caution|critical"},
      {"tellask_called",
       R"({"course":1,"genseq":1,"callId":"c","name":"askHuman","subdialogId":"s","targetAgentId":"t","tellaskContent":""})",
       "name: is 'askHuman', not one of tellask|tellaskSessionless|freshBootsReasoning|tellaskBack|selfReflect|tot"},
      {"taskdoc_changed", R"({"selector":"notes","path":"p","hash":"h","previousHash":"g"})",
       "selector: is 'notes', not one of goals|constraints|progress"},
      {"record_message",
       R"({"messageId":"m","turnId":"t","senderRole":"human","senderId":"","content":"","contentType":"text","metadata":[],"replyTo":""})",
       "metadata: is an array, not an object"},
      {"declared_dead", R"({})", "reason: is missing"},
  };
  for (const auto& c : cases) {
    auto decoded = decode_payload(c.type, boost::json::parse(c.payload).as_object());
    ASSERT_FALSE(decoded) << c.type << " " << c.payload << " decoded";
    EXPECT_EQ(decoded.err().code, errc::corrupt);
    EXPECT_EQ(decoded.err().message, c.message) << c.type << " " << c.payload;
  }
}

TEST(EventCodec, ATypeThisBinaryDoesNotKnowIsKeptAsItWasRead) {
  const auto raw = boost::json::parse(R"({"x":[1,{"y":null}]})").as_object();
  auto decoded = decode_payload("tree_of_thoughts_branched", raw);
  ASSERT_TRUE(decoded) << decoded.err().message;
  ASSERT_TRUE(std::holds_alternative<ev::unknown_event>(*decoded));
  EXPECT_EQ(ev::type_of(*decoded), "tree_of_thoughts_branched");
  EXPECT_EQ(encode_payload(*decoded), raw);
  EXPECT_FALSE(is_known_event_type("tree_of_thoughts_branched"));
  EXPECT_TRUE(is_known_event_type("tool_result"));
}

TEST(EventCodec, AFieldThisBinaryDoesNotKnowIsIgnored) {
  auto decoded = decode_payload("declared_dead", boost::json::parse(R"({"reason":"r","since":"v9"})").as_object());
  ASSERT_TRUE(decoded) << decoded.err().message;
  EXPECT_EQ(std::get<ev::declared_dead>(*decoded).reason, "r");
  EXPECT_EQ(encode_payload(*decoded), (boost::json::object{{"reason", "r"}}));
}

TEST(EventCodec, AFieldAddedLaterReadsAsItsDefaultInAnOlderLogAndIsAlwaysWritten) {
  // record_message's target and notes came with the SystemUtteranceLog (461d2c6).
  auto older = decode_payload(
      "record_message",
      boost::json::parse(
          R"({"messageId":"m","turnId":"t","senderRole":"system","senderId":"","content":"c","contentType":"text","metadata":{},"replyTo":""})")
          .as_object());
  ASSERT_TRUE(older) << older.err().message;
  const auto& message = std::get<ev::record_message>(*older);
  EXPECT_EQ(message.target, "all");
  EXPECT_EQ(message.notes, "");
  const auto wire = encode_payload(*older);
  EXPECT_EQ(wire.at("target"), "all");
  EXPECT_EQ(wire.at("notes"), "");
}

TEST(EventCodec, EnumsConvertToTheirWireNamesOnlyThroughTheirTables) {
  EXPECT_EQ(ev::to_wire(ev::call_kind::fresh_boots_reasoning), "freshBootsReasoning");
  EXPECT_EQ(ev::to_wire(ev::reply_kind::final_saying), "final");
  EXPECT_EQ(ev::from_wire<ev::call_kind>("tellaskSessionless"), ev::call_kind::tellask_sessionless);
  EXPECT_EQ(ev::from_wire<ev::health_level>("Critical"), std::nullopt);
}

}  // namespace
}  // namespace parley
