// The SAX reader of Messages stream events against a full parse: for every event it must find
// what the assembler used to read from the parsed object (type, index and the delta's strings).
#include "parley/llm/anthropic/anthropic_event.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parley/core/json.hpp"
#include "random_json.hpp"

namespace parley::llm::anthropic {
namespace {

std::string string_or_empty(const json::object& obj, std::string_view key) { return json_string_or(obj, key); }

std::string describe(const std::string& type, std::int64_t index, bool has_delta, const std::string& delta_type,
                     const std::string& text, const std::string& thinking, const std::string& signature,
                     const std::string& partial_json) {
  return "type=" + type + " index=" + std::to_string(index) +
         (has_delta ? " delta{" + delta_type + "|" + text + "|" + thinking + "|" + signature + "|" + partial_json + "}"
                    : " no delta");
}

std::string describe(const event_fields& f) {
  return describe(f.type, f.index, f.delta.present, f.delta.type, f.delta.text, f.delta.thinking, f.delta.signature,
                  f.delta.partial_json);
}

// What the assembler read from a parsed event before the reader existed.
std::string through_full_parse(const std::string& text) {
  auto parsed = parse_json(text);
  EXPECT_TRUE(parsed && parsed->is_object()) << text;
  if (!parsed || !parsed->is_object()) return "unparsed";
  const json::object& event = parsed->get_object();
  const json::object* delta = json_object_at(event, "delta");
  const json::object none;
  const json::object& d = delta != nullptr ? *delta : none;
  return describe(string_or_empty(event, "type"), json_int_or(event, "index", 0), delta != nullptr,
                  string_or_empty(d, "type"), string_or_empty(d, "text"), string_or_empty(d, "thinking"),
                  string_or_empty(d, "signature"), string_or_empty(d, "partial_json"));
}

TEST(AnthropicEvent, TheReaderFindsWhatTheFullParseFinds) {
  const std::vector<std::string> events = {
      R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}})",
      R"({"type":"content_block_delta","index":1,"delta":{"type":"thinking_delta","thinking":"hmm"}})",
      R"({"type":"content_block_delta","index":1,"delta":{"type":"signature_delta","signature":"EqQBCgIYAh=="}})",
      R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"key\": \"k"}})",
      R"({"type":"content_block_stop","index":2})",
      R"({"type":"message_stop"})",
      R"({"type": "ping"})",
      R"({"index":0,"delta":{"type":"text_delta","text":"no type: the SSE event name stands"}})",
      R"({"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"usage":{"input_tokens":5,"output_tokens":1}}})",
      R"({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"f","input":{"type":"x","delta":{"text":"no"}}}})",
      R"({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":9}})",
      R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})",
      // The last of repeated keys counts; values of the wrong kind read as absent.
      R"({"type":"content_block_delta","type":"ping","index":3,"index":4})",
      R"({"type":"content_block_stop","index":5,"index":null})",
      R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"delta":{"text":"b"}})",
      R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"},"delta":null})",
      R"({"type":"content_block_delta","index":0,"delta":{"text":"a","text":7}})",
      R"({"type":7,"index":"1","delta":[]})",
      R"({"type":null,"index":2.7,"delta":{"type":{"text":"no"},"text":["no"],"thinking":true}})",
      R"({"type":"content_block_delta","index":-1e300,"delta":{"type":"text_delta","text":"\u4e2d\n\"q\" \ud83d\ude00"}})",
      R"({"typ\u0065":"content_block_delta","index":18446744073709551615,"delta":{"type":"text_delta","text":"x"}})",
      " {\"type\":\"ping\"} \r\n",
      R"({})",
  };
  for (const std::string& text : events) {
    const event_fields* read = read_event_fields(text);
    ASSERT_NE(read, nullptr) << "the reader refused " << text;
    EXPECT_EQ(describe(*read), through_full_parse(text)) << text;
  }
}

TEST(AnthropicEvent, WhatIsNotAJsonObjectIsLeftToTheFullParse) {
  for (const std::string text : {"", "[]", "\"ping\"", "null", "{", R"({"type":"ping"} x)", R"({"type":"ping"}{})"}) {
    EXPECT_EQ(read_event_fields(text), nullptr) << text;
  }
}

TEST(AnthropicEvent, EachReadStartsAfresh) {
  ASSERT_NE(read_event_fields(R"({"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"a"}})"),
            nullptr);
  const event_fields* second = read_event_fields(R"({"type":"content_block_stop"})");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(describe(*second), "type=content_block_stop index=0 no delta");
}

TEST(AnthropicEvent, TheReaderAgreesWithTheFullParseOnRandomDocuments) {
  random_json_objects events(20261126, {"type", "index", "delta", "text", "thinking", "signature", "partial_json",
                                        "content_block", "message", "usage", "error", "other"});
  for (int i = 0; i < 20000; ++i) {
    const std::string text = events.next();
    const event_fields* read = read_event_fields(text);
    ASSERT_NE(read, nullptr) << text;
    ASSERT_EQ(describe(*read), through_full_parse(text)) << text;
  }
}

}  // namespace
}  // namespace parley::llm::anthropic
