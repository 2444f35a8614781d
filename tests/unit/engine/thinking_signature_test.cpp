// A provider's proof of its thinking (Anthropic's signature, the Responses API's reasoning items)
// goes into the log with the assistant turn and comes back out of it into the next request.
#include <gtest/gtest.h>

#include "parley/engine/context_builder.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/model/projection.hpp"

namespace parley {
namespace {

TEST(ThinkingSignature, IsLoggedWithTheTurnAndSentBackWithItsThinking) {
  events::generation_finished finished;
  finished.course = 1;
  finished.genseq = 1;
  finished.thinking = "Need the file.";
  finished.thinking_signature = R"({"openaiReasoning":[{"id":"rs_1","encryptedContent":"enc","summary":[]}]})";
  finished.tool_calls = {{"call_A", "read_file", R"({"path":"a"})"}};
  finished.finish_reason = "tool_calls";

  const auto wire = encode_payload(finished);
  EXPECT_EQ(wire.at("thinkingSignature").as_string(), finished.thinking_signature);
  auto decoded = decode_payload("generation_finished", wire);
  ASSERT_TRUE(decoded) << decoded.err().message;

  event ev{"d1", "d1", 2, std::move(*decoded), 0};
  dialog_row row;
  row.id = "d1";
  row.last_seq = 1;
  auto step = apply_event(ev, row);
  ASSERT_TRUE(step) << step.err().message;
  ASSERT_TRUE(step->new_message);
  EXPECT_EQ(step->new_message->thinking_signature, finished.thinking_signature);

  const auto message = engine::to_chat_message(*step->new_message, {{"call_A", "read_file", R"({"path":"a"})"}});
  EXPECT_EQ(message.thinking, "Need the file.");
  EXPECT_EQ(message.thinking_signature, finished.thinking_signature);

  // Without one (every provider but two, and logs written before), nothing is written.
  finished.thinking_signature.clear();
  EXPECT_FALSE(encode_payload(finished).contains("thinkingSignature"));
}

}  // namespace
}  // namespace parley
