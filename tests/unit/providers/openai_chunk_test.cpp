// The SAX reader of Chat Completions chunks against the full parse it stands in for: for every
// chunk it takes, it must find exactly what the parsed object holds, read as the assembler read it
// before the reader existed (reference_fields).
#include "parley/llm/openai/openai_chunk.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "parley/core/json.hpp"
#include "random_json.hpp"

namespace parley::llm::openai {
namespace {

std::string describe(const chunk_message& m) {
  if (!m.present) return "absent";
  std::string out = "rc=" + m.reasoning_content + "|r=" + m.reasoning + "|c=" + m.content + "|calls[";
  for (std::size_t i = 0; i < m.tool_call_count; ++i) {
    const chunk_tool_call& c = m.tool_calls[i];
    out += "{" + std::to_string(c.index) + "," + c.id + "," +
           (c.has_function ? "f:" + c.name + "," + c.arguments : "-") + "}";
  }
  return out + "]";
}

std::string count(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string("none");
}

// Everything the fields say, in one comparable text (only the entries in use).
std::string describe(const chunk_fields& f) {
  std::string out = "usage:";
  out += f.usage.present ? count(f.usage.prompt_tokens) + "," + count(f.usage.completion_tokens) + "," +
                               count(f.usage.cached_tokens) + "," + count(f.usage.reasoning_tokens)
                         : "absent";
  for (std::size_t i = 0; i < f.choice_count; ++i) {
    const chunk_choice& c = f.choices[i];
    out += "\nchoice " + std::to_string(c.index) + " finish=" + c.finish_reason + " delta=" + describe(c.delta) +
           " message=" + describe(c.message);
  }
  return out;
}

// The fields as the assembler took them from a parsed chunk.
void assign_string_at(const json::object& obj, std::string_view key, std::string& out) {
  const auto* found = obj.if_contains(key);
  if (found != nullptr && found->is_string()) out.assign(found->get_string());
}

std::optional<std::int64_t> count_at(const json::object& obj, std::string_view key) {
  const auto* found = obj.if_contains(key);
  if (found == nullptr || !(found->is_int64() || found->is_uint64() || found->is_double())) return std::nullopt;
  return json_int_or(obj, key);
}

void message_from(const json::object* fields, chunk_message& out) {
  if (fields == nullptr) return;
  out.present = true;
  assign_string_at(*fields, "reasoning_content", out.reasoning_content);
  assign_string_at(*fields, "reasoning", out.reasoning);
  assign_string_at(*fields, "content", out.content);
  const auto* calls = json_array_at(*fields, "tool_calls");
  if (calls == nullptr) return;
  for (const auto& element : *calls) {
    const auto* call_fields = element.if_object();
    if (call_fields == nullptr) continue;
    chunk_tool_call& call = out.add_tool_call();
    call.index = json_int_or(*call_fields, "index", -1);
    assign_string_at(*call_fields, "id", call.id);
    if (const auto* function = json_object_at(*call_fields, "function")) {
      call.has_function = true;
      assign_string_at(*function, "name", call.name);
      assign_string_at(*function, "arguments", call.arguments);
    }
  }
}

void reference_fields(const json::object& chunk, chunk_fields& out) {
  out.clear();
  if (const auto* usage = json_object_at(chunk, "usage")) {
    out.usage.present = true;
    out.usage.prompt_tokens = count_at(*usage, "prompt_tokens");
    out.usage.completion_tokens = count_at(*usage, "completion_tokens");
    if (const auto* prompt = json_object_at(*usage, "prompt_tokens_details")) {
      out.usage.cached_tokens = count_at(*prompt, "cached_tokens");
    }
    if (const auto* completion = json_object_at(*usage, "completion_tokens_details")) {
      out.usage.reasoning_tokens = count_at(*completion, "reasoning_tokens");
    }
  }
  const auto* choices = json_array_at(chunk, "choices");
  if (choices == nullptr) return;
  for (const auto& element : *choices) {
    const auto* fields = element.if_object();
    if (fields == nullptr) continue;
    chunk_choice& choice = out.add_choice();
    choice.index = json_int_or(*fields, "index", 0);
    message_from(json_object_at(*fields, "delta"), choice.delta);
    message_from(json_object_at(*fields, "message"), choice.message);
    assign_string_at(*fields, "finish_reason", choice.finish_reason);
  }
}

std::string through_full_parse(const std::string& text) {
  auto parsed = parse_json(text);
  EXPECT_TRUE(parsed && parsed->is_object()) << text;
  if (!parsed || !parsed->is_object()) return "unparsed";
  chunk_fields fields;
  reference_fields(parsed->get_object(), fields);
  return describe(fields);
}

const std::vector<std::string> kChunksTheReaderTakes = {
    R"({"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})",
    R"({"id":"c1","choices":[{"index":0,"delta":{"content":"Hello"},"logprobs":null,"finish_reason":null}]})",
    R"({"choices":[{"index":0,"delta":{"reasoning_content":"think","content":null}}]})",
    R"({"choices":[{"index":0,"delta":{"reasoning":"other think"}}]})",
    R"({"choices":[{"index":0,"delta":{"reasoning_content":"","reasoning":"fallback"}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"lookup","arguments":""}},{"index":1,"id":"call_b","type":"function","function":{"name":"lookup","arguments":"{\"key\":"}}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\"k2\"}"}}]}}]})",
    R"({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":null})",
    R"({"choices":[],"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,"prompt_tokens_details":{"cached_tokens":64},"completion_tokens_details":{"reasoning_tokens":12}}})",
    R"({"usage":{"prompt_tokens":5,"prompt_tokens_details":null,"completion_tokens_details":{}}})",
    // A whole, non-streamed response: `message`, calls without an index.
    R"({"id":"r","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"y","function":{"name":"g","arguments":"{\"a\":[1,{\"b\":2}]}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":9,"completion_tokens":3}})",
    R"({"choices":[{"index":0,"delta":{"content":"d"},"message":{"content":"m"}}]})",
    R"({"choices":[{"index":0,"delta":null,"message":{"content":"m"}}]})",
    R"({"choices":[{"index":1,"delta":{"content":"second"}},{"delta":{"content":"first"}}]})",
    // The last of repeated keys counts, as in a parsed object.
    R"({"choices":[{"index":0,"delta":{"content":"a","content":"b"}}]})",
    R"({"choices":[{"index":0,"delta":{"content":"a","content":null}}]})",
    R"({"choices":[{"index":0,"delta":{"content":"a"},"delta":{"reasoning":"r"}}]})",
    R"({"choices":[{"index":0,"delta":{"content":"a"},"delta":"x","message":{"content":"m"}}]})",
    R"({"usage":{"prompt_tokens":1},"usage":null,"choices":[{"index":0,"delta":{"content":"x"}}],"choices":"no"})",
    R"({"usage":{"prompt_tokens":1,"prompt_tokens":"many","completion_tokens":2,"completion_tokens":3}})",
    R"({"choices":[{"index":0,"index":2,"delta":{"content":"x"}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"a"},"function":{"arguments":"{}"}}]}}]})",
    R"({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a"}],"tool_calls":[{"index":3,"id":"b"}]}}]})",
    // Values of the wrong kind read as absent.
    R"({"choices":[{"index":"0","delta":{"content":5,"reasoning":true,"tool_calls":{}},"finish_reason":7}]})",
    R"({"choices":[{"index":null,"delta":{"tool_calls":[1,"x",null,[],{"index":"1","id":2,"function":"f"},{"index":2.9,"function":{"name":[],"arguments":{}}}]}}]})",
    R"({"choices":[1,"x",null,[{"index":0}],{"index":-0.5,"delta":{"content":"kept"}}]})",
    R"({"choices":[{"index":1e300,"delta":{"content":"huge"}},{"index":-1e300},{"index":18446744073709551615}]})",
    R"({"usage":{"prompt_tokens":1.5,"completion_tokens":-3,"prompt_tokens_details":{"cached_tokens":"7"},"completion_tokens_details":[]}})",
    R"({"usage":[1,2],"choices":{"0":{}}})",
    R"({"error":null,"choices":[{"index":0,"delta":{"content":"no error"}}]})",
    R"({"error":{"message":"then none"},"error":null,"choices":[{"index":0,"delta":{"content":"x"}}]})",
    // Escapes, text outside ASCII, and strings and keys long enough to arrive in parts.
    R"({"choices":[{"index":0,"delta":{"content":"line\nnext \"q\" \\ \/ \u4e2d\u6587 \ud83d\ude00 é"}}]})",
    R"({"choices":[{"index":0,"delta":{"con\u0074ent":"escaped key","\u0072easoning":"r"}}]})",
    // Fields the assembler does not use, nested deeply.
    R"({"choices":[{"index":0,"logprobs":{"content":[{"token":"x","bytes":[1,2],"top_logprobs":[{"content":"no"}]}]},"delta":{"content":"y","extra":{"content":"no","tool_calls":[{"index":9}]}}}],"system_fingerprint":"fp","extra":[[[{"usage":{"prompt_tokens":99}}]]]})",
    "  \n{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"padded\"}}]}\r\n\t ",
    R"({})",
};

TEST(OpenAiChunk, TheReaderFindsWhatTheFullParseFinds) {
  for (const std::string& text : kChunksTheReaderTakes) {
    const chunk_fields* read = read_chunk_fields(text);
    ASSERT_NE(read, nullptr) << "the reader refused " << text;
    EXPECT_EQ(describe(*read), through_full_parse(text)) << text;
  }
}

TEST(OpenAiChunk, LongEscapedStringsAndKeysArriveWhole) {
  std::string content;
  std::string escaped;
  for (int i = 0; i < 3000; ++i) {
    content += "ab\"\n\xe4\xb8\xad";
    escaped += "ab\\\"\\n\\u4e2d";
  }
  const std::string long_key(5000, 'k');
  const std::string text = "{\"" + long_key +
                           "\":{\"content\":\"no\"},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + escaped +
                           "\"}}],\"" + long_key + "x\":1}";
  const chunk_fields* read = read_chunk_fields(text);
  ASSERT_NE(read, nullptr);
  ASSERT_EQ(read->choice_count, 1U);
  EXPECT_EQ(read->choices[0].delta.content, content);
  EXPECT_EQ(describe(*read), through_full_parse(text));
}

TEST(OpenAiChunk, ErrorsAndWhatIsNotAnObjectAreLeftToTheFullParse) {
  const std::vector<std::string> refused = {
      R"({"error":{"message":"overloaded","type":"server_error"}})",
      R"({"choices":[{"index":0,"delta":{"content":"x"}}],"error":"boom"})",
      R"({"error":1})",
      R"({"error":[]})",
      R"({"error":false})",
      R"({"error":null,"error":"late"})",
      R"([{"choices":[]}])",
      R"("text")",
      "42",
      "null",
      "",
      "{",
      R"({"choices":[{"index":0,"delta":{"content":"x"}}]} trailing)",
      R"({"choices":[{"index":0,"delta":{"content":"x"}}]}{})",
      R"({"choices":[{"index":0,"delta":{"content":"unterminated}}]})",
      "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"bad \xff utf-8\"}}]}",
      R"({"choices":[,]})",
  };
  for (const std::string& text : refused) EXPECT_EQ(read_chunk_fields(text), nullptr) << text;
}

TEST(OpenAiChunk, EachReadStartsAfresh) {
  ASSERT_NE(
      read_chunk_fields(
          R"({"choices":[{"index":0,"delta":{"content":"a","tool_calls":[{"index":0,"id":"x"}]}}],"usage":{"prompt_tokens":3}})"),
      nullptr);
  const chunk_fields* second = read_chunk_fields(R"({"choices":[{"index":0,"delta":{"reasoning":"b"}}]})");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(describe(*second), "usage:absent\nchoice 0 finish= delta=rc=|r=b|c=|calls[] message=absent");
}

TEST(OpenAiChunk, TheReaderAgreesWithTheFullParseOnRandomDocuments) {
  random_json_objects chunks(20261126, {"choices",
                                        "delta",
                                        "message",
                                        "index",
                                        "content",
                                        "reasoning",
                                        "reasoning_content",
                                        "tool_calls",
                                        "id",
                                        "function",
                                        "name",
                                        "arguments",
                                        "usage",
                                        "prompt_tokens",
                                        "completion_tokens",
                                        "prompt_tokens_details",
                                        "completion_tokens_details",
                                        "cached_tokens",
                                        "reasoning_tokens",
                                        "finish_reason",
                                        "error",
                                        "type",
                                        "other"});
  int taken = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::string text = chunks.next();
    auto parsed = parse_json(text);
    ASSERT_TRUE(parsed && parsed->is_object()) << text;
    const auto* error = parsed->get_object().if_contains("error");
    const bool left_to_full_parse = error != nullptr && !error->is_null();
    const chunk_fields* read = read_chunk_fields(text);
    ASSERT_EQ(read == nullptr, left_to_full_parse) << text;
    if (read == nullptr) continue;
    ++taken;
    ASSERT_EQ(describe(*read), through_full_parse(text)) << text;
  }
  EXPECT_GT(taken, 10000);
}

}  // namespace
}  // namespace parley::llm::openai
