// The Messages API answer read strictly: a documented field of the wrong type is a provider error
// naming it, where it used to read as a default (a token count of the previous event, block 0).
#include <gtest/gtest.h>

#include "parley/core/json.hpp"
#include "parley/llm/anthropic/anthropic_stream.hpp"
#include "recording_sink.hpp"

namespace parley::llm::anthropic {
namespace {

json::object object_of(std::string_view text) { return parse_json(text).value().as_object(); }

TEST(AnthropicStreamRead, AWholeAnswerReadsItsUsage) {
  testing::recording_sink sink;
  stream_assembler assembler(sink);
  ASSERT_TRUE(assembler.on_message(
      object_of(R"({"type":"message","content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn",)"
                R"("usage":{"input_tokens":5,"cache_read_input_tokens":null,"output_tokens":2}})")));
  auto response = assembler.finish();
  ASSERT_TRUE(response) << response.err().message;
  EXPECT_EQ(response->usage.input_tokens, 5);
  EXPECT_EQ(response->usage.output_tokens, 2);
}

TEST(AnthropicStreamRead, AWrongTypedUsageCountIsAProviderErrorNamingIt) {
  testing::recording_sink sink;
  stream_assembler assembler(sink);
  auto read = assembler.on_message(
      object_of(R"({"type":"message","content":[],"stop_reason":"end_turn","usage":{"output_tokens":"12"}})"));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().code, errc::provider_error);
  EXPECT_EQ(read.err().message, "field 'usage.output_tokens': expected an integer, got a string");
}

TEST(AnthropicStreamRead, ABlockStartWithoutAnIndexIsAProviderErrorNotBlockZero) {
  testing::recording_sink sink;
  stream_assembler assembler(sink);
  auto read = assembler.on_event(
      http::sse_event{"content_block_start",
                      R"({"type":"content_block_start","index":"1","content_block":{"type":"text","text":""}})", ""});
  ASSERT_FALSE(read);
  EXPECT_EQ(read.err().message, "field 'content_block_start.index': expected an integer, got a string");
}

}  // namespace
}  // namespace parley::llm::anthropic
