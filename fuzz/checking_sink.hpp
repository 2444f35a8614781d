// A stream sink that holds a provider to the stream order contract (llm/provider.hpp): thinking
// and saying come as start → chunk* → finish, never overlapping, empty text never opens a segment,
// tool calls are announced outside segments; and what was streamed is what the response says.
// Everything streamed is UTF-8: it goes to clients as JSON text and into the log.
#pragma once

#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "parley/core/utf8.hpp"
#include "parley/llm/provider.hpp"

namespace parley::fuzz {

class checking_sink final : public llm::stream_sink {
 public:
  void on_thinking_start() override { open(segment::thinking); }
  void on_thinking_chunk(std::string_view text) override { chunk(segment::thinking, text, thinking_); }
  void on_thinking_finish() override { finish(segment::thinking); }
  void on_saying_start() override { open(segment::saying); }
  void on_saying_chunk(std::string_view text) override { chunk(segment::saying, text, saying_); }
  void on_saying_finish() override { finish(segment::saying); }
  void on_tool_call(const llm::tool_call& call) override {
    FUZZ_CHECK(open_ == segment::none, "a tool call announced inside an open segment");
    FUZZ_CHECK(is_valid_utf8(call.id) && is_valid_utf8(call.name) && is_valid_utf8(call.arguments),
               "a tool call that is not UTF-8: " + call.name + " " + call.arguments);
    calls_.push_back(call);
  }
  void on_discard(std::string_view /*reason*/) override {
    open_ = segment::none;
    thinking_.clear();
    saying_.clear();
    calls_.clear();
  }

  // A finished (or interrupted) response: every segment closed, and the response holds exactly
  // what was streamed.
  void check_response(const llm::model_response& response) const {
    FUZZ_CHECK(open_ == segment::none, "a segment is still open after the response was returned");
    FUZZ_CHECK(response.thinking == thinking_, "response.thinking differs from the thinking chunks");
    FUZZ_CHECK(response.saying == saying_, "response.saying differs from the saying chunks");
    FUZZ_CHECK(response.tool_calls.size() == calls_.size(), "response.tool_calls differs from the announced calls");
    for (std::size_t i = 0; i < calls_.size(); ++i) {
      const auto& a = response.tool_calls[i];
      const auto& b = calls_[i];
      FUZZ_CHECK(a.id == b.id && a.name == b.name && a.arguments == b.arguments,
                 "tool call " + std::to_string(i) + " differs from the one announced");
    }
  }

 private:
  enum class segment { none, thinking, saying };

  void open(segment kind) {
    FUZZ_CHECK(open_ == segment::none, "a segment started while another was open");
    open_ = kind;
  }
  void chunk(segment kind, std::string_view text, std::string& into) {
    FUZZ_CHECK(open_ == kind, "a chunk outside its segment");
    FUZZ_CHECK(!text.empty(), "an empty chunk");
    FUZZ_CHECK(is_valid_utf8(text), "a chunk that is not UTF-8: " + std::string(text));
    into.append(text);
  }
  void finish(segment kind) {
    FUZZ_CHECK(open_ == kind, "a segment finished that was not open");
    open_ = segment::none;
  }

  segment open_ = segment::none;
  std::string thinking_;
  std::string saying_;
  std::vector<llm::tool_call> calls_;
};

}  // namespace parley::fuzz
