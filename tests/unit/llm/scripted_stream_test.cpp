// Streaming: segment order, chunk sizes on UTF-8 boundaries, and stop before / during a stream.
#include <boost/asio/steady_timer.hpp>

#include <gtest/gtest.h>

#include "scripted_test_support.hpp"

namespace parley::llm {
namespace {

using testing::message;
using testing::must_parse;
using testing::recording_sink;
using testing::request_for;
using testing::run_stream;

using events = std::vector<std::string>;

TEST(ScriptedStream, SegmentsAlternateAndNeverOverlap) {
  const auto script = must_parse(R"(
chunk_size: 4
members:
  a:
    - emit:
        - thinking: "Let me think"
        - saying: "Hello world"
        - thinking: "again"
        - tool_call: {name: t, arguments: {}}
        - saying: ""
)");
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  const auto response = run_stream(provider, request_for("a", {message(role::user, "go")}), sink);
  ASSERT_TRUE(response.has_value()) << response.err().message;
  const events expected{
      "thinking_start", "thinking:Let ", "thinking:me t", "thinking:hink",   "thinking_finish",
      "saying_start",   "saying:Hell",   "saying:o wo",   "saying:rld",      "saying_finish",
      "thinking_start", "thinking:agai", "thinking:n",    "thinking_finish", "tool_call:call_1_1:t:{}",
      "saying_start",   "saying_finish"};
  EXPECT_EQ(sink.events, expected);
  EXPECT_EQ(response->thinking, "Let me thinkagain");
  EXPECT_EQ(response->saying, "Hello world");
  EXPECT_EQ(response->finish_reason, "tool_calls");
}

TEST(ScriptedStream, ChunksNeverSplitMultibyteCharacters) {
  const auto script = must_parse("chunk_size: 2\nmembers:\n  a:\n    - emit: [{saying: \"你好，世界a😀b\"}]\n");
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  const auto response = run_stream(provider, request_for("a", {}), sink);
  ASSERT_TRUE(response.has_value());
  const events expected{"saying_start", "saying:你好", "saying:，世", "saying:界a", "saying:😀b", "saying_finish"};
  EXPECT_EQ(sink.events, expected);
  EXPECT_EQ(response->saying, "你好，世界a😀b");
}

TEST(ScriptedStream, DefaultChunkSizeIsSixteenAndZeroSendsWholeText) {
  const std::string text(40, 'x');
  const auto chunked = must_parse("members:\n  a:\n    - emit: [{saying: " + text + "}]\n");
  const auto whole = must_parse("chunk_size: 0\nmembers:\n  a:\n    - emit: [{saying: " + text + "}]\n");
  ASSERT_TRUE(chunked && whole);
  scripted_provider chunked_provider(chunked);
  scripted_provider whole_provider(whole);
  recording_sink chunked_sink;
  recording_sink whole_sink;
  ASSERT_TRUE(run_stream(chunked_provider, request_for("a", {}), chunked_sink).has_value());
  ASSERT_TRUE(run_stream(whole_provider, request_for("a", {}), whole_sink).has_value());
  const events expected_chunked{"saying_start", "saying:" + text.substr(0, 16), "saying:" + text.substr(16, 16),
                                "saying:" + text.substr(32), "saying_finish"};
  EXPECT_EQ(chunked_sink.events, expected_chunked);
  const events expected_whole{"saying_start", "saying:" + text, "saying_finish"};
  EXPECT_EQ(whole_sink.events, expected_whole);
}

TEST(ScriptedStream, DelayedStreamCompletesWhenNotStopped) {
  const auto script = must_parse("chunk_size: 3\ndelay_ms: 1\nmembers:\n  a:\n    - emit: [{saying: abcdefg}]\n");
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  boost::asio::io_context io;
  generation_control control;
  const auto response = run_stream(io, provider, request_for("a", {}), sink, control);
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->saying, "abcdefg");
  EXPECT_EQ(response->finish_reason, "stop");
  // Stopping after the stream ended must not touch the timer the provider used.
  control.stop();
  EXPECT_TRUE(control.stopped());
}

TEST(ScriptedStream, StopBeforeTheStreamYieldsAnEmptyInterruptedResponse) {
  const auto script = must_parse(R"(
delay_ms: 5
members:
  a:
    - emit: [{thinking: "hm"}, {saying: "hello"}, {tool_call: {name: t}}]
)");
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  boost::asio::io_context io;
  generation_control control;
  control.stop();
  const auto response = run_stream(io, provider, request_for("a", {}), sink, control);
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->finish_reason, "interrupted");
  EXPECT_TRUE(response->thinking.empty());
  EXPECT_TRUE(response->saying.empty());
  EXPECT_TRUE(response->tool_calls.empty());
  EXPECT_TRUE(sink.events.empty());
}

// Stops the stream from a timer on the same io_context once the sink has seen `chunks` chunks.
// The delay is long enough that the stream cannot finish on its own before the stop lands.
TEST(ScriptedStream, StopMidStreamKeepsWhatWasProducedAndFinishesTheSegment) {
  const auto script = must_parse(R"(
chunk_size: 2
delay_ms: 20
members:
  a:
    - emit:
        - tool_call: {name: early}
        - saying: "abcdefghijklmnopqrstuvwxyz"
        - tool_call: {name: late}
)");
  ASSERT_TRUE(script);
  scripted_provider provider(script);

  class stopping_sink final : public stream_sink {
   public:
    stopping_sink(boost::asio::io_context& io, generation_control& control) : io_(io), control_(control) {}
    void on_saying_start() override { inner.on_saying_start(); }
    void on_saying_finish() override { inner.on_saying_finish(); }
    void on_tool_call(const tool_call& call) override { inner.on_tool_call(call); }
    void on_saying_chunk(std::string_view text) override {
      inner.on_saying_chunk(text);
      if (++chunks_ == 2) {
        // Stop from a separately posted handler while the provider waits for the next chunk.
        timer_.emplace(io_, std::chrono::milliseconds(1));
        timer_->async_wait([this](boost::system::error_code) { control_.stop(); });
      }
    }
    recording_sink inner;

   private:
    boost::asio::io_context& io_;
    generation_control& control_;
    int chunks_ = 0;
    std::optional<boost::asio::steady_timer> timer_;
  };

  boost::asio::io_context io;
  generation_control control;
  stopping_sink sink(io, control);
  const auto response = run_stream(io, provider, request_for("a", {}), sink, control);
  ASSERT_TRUE(response.has_value()) << response.err().message;
  EXPECT_EQ(response->finish_reason, "interrupted");
  EXPECT_EQ(response->saying, "abcd");
  ASSERT_EQ(response->tool_calls.size(), 1U);
  EXPECT_EQ(response->tool_calls[0].name, "early");
  const events expected{"tool_call:call_1_1:early:{}", "saying_start", "saying:ab", "saying:cd", "saying_finish"};
  EXPECT_EQ(sink.inner.events, expected);
}

TEST(ScriptedStream, StopWhileWaitingIsCancelledPromptlyByTheSlot) {
  // A one-hour delay: the test only completes because stop() cancels the pending wait.
  const auto script = must_parse("delay_ms: 3600000\nmembers:\n  a:\n    - emit: [{thinking: never}]\n");
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  recording_sink sink;
  boost::asio::io_context io;
  generation_control control;
  boost::asio::steady_timer stopper(io, std::chrono::milliseconds(1));
  stopper.async_wait([&](boost::system::error_code) { control.stop(); });
  const auto response = run_stream(io, provider, request_for("a", {}), sink, control);
  ASSERT_TRUE(response.has_value());
  EXPECT_EQ(response->finish_reason, "interrupted");
  EXPECT_TRUE(response->thinking.empty());
  const events expected{"thinking_start", "thinking_finish"};
  EXPECT_EQ(sink.events, expected);
}

TEST(ScriptedStream, RequestsAreIndependentAndRepeatable) {
  const auto script = must_parse("members:\n  a:\n    - emit: [{saying: \"round {{round}}\"}]\n");
  ASSERT_TRUE(script);
  scripted_provider provider(script);
  EXPECT_EQ(provider.kind(), "scripted");
  for (std::int64_t round = 1; round <= 3; ++round) {
    recording_sink sink;
    const auto response = run_stream(provider, request_for("a", {}, round), sink);
    ASSERT_TRUE(response.has_value());
    EXPECT_EQ(response->saying, "round " + std::to_string(round));
  }
}

}  // namespace
}  // namespace parley::llm
