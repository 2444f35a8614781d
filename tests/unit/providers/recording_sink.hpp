// A stream sink that records what it was told as short strings, checks the stream order contract
// as it goes, and can run a hook on each saying chunk (to stop a generation mid-stream).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "parley/llm/provider.hpp"

namespace parley::testing {

class recording_sink : public llm::stream_sink {
 public:
  std::vector<std::string> events;
  std::vector<std::string> violations;
  std::function<void(std::string_view)> on_saying;  // runs after a saying chunk is recorded

  void on_thinking_start() override { start("thinking"); }
  void on_thinking_chunk(std::string_view text) override { chunk("thinking", text); }
  void on_thinking_finish() override { finish("thinking"); }
  void on_saying_start() override { start("saying"); }
  void on_saying_chunk(std::string_view text) override {
    chunk("saying", text);
    if (on_saying) on_saying(text);
  }
  void on_saying_finish() override { finish("saying"); }
  void on_discard(std::string_view reason) override {
    open_.clear();  // abandoned, not finished: the next attempt opens its own segments
    events.push_back("discard: " + std::string(reason));
  }
  void on_tool_call(const llm::tool_call& call) override {
    if (!open_.empty()) violations.push_back("tool call inside an open " + open_ + " segment");
    events.push_back("tool_call " + call.id + " " + call.name + " " + call.arguments);
  }

 private:
  void start(const std::string& kind) {
    if (!open_.empty()) violations.push_back(kind + " started inside " + open_);
    open_ = kind;
    events.push_back(kind + "_start");
  }
  void chunk(const std::string& kind, std::string_view text) {
    if (open_ != kind) violations.push_back(kind + " chunk outside its segment");
    if (text.empty()) violations.push_back("empty " + kind + " chunk");
    events.push_back(kind + ": " + std::string(text));
  }
  void finish(const std::string& kind) {
    if (open_ != kind) violations.push_back(kind + " finished while " + (open_.empty() ? "none" : open_) + " open");
    open_.clear();
    events.push_back(kind + "_finish");
  }

  std::string open_;
};

}  // namespace parley::testing
