// Event histories shared by the store tests: one realistic dialog, and a long varied history over
// several dialog hierarchies that exercises every event type (and one this binary does not know).
#pragma once

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "store_test_support.hpp"

namespace parley::test {

inline json::array sample_tool_calls() {
  return json::array{json::object{{"id", "c1"}, {"name", "read_file"}, {"arguments", R"({"path":"a.txt"})"}}};
}

// dialog_created, a user message, a generation with a tool call, its result, a final generation,
// completion, then a second course with one message.
inline std::vector<event> realistic_dialog(dialog_script& d) {
  std::vector<event> out;
  out.push_back(d.next(
      event_type::dialog_created,
      {{"memberId", "alice"}, {"kind", "root"}, {"taskDocPath", "tasks/plan.md"}, {"title", "Plan"}, {"depth", 0}}));
  out.push_back(d.user("hello"));
  out.push_back(d.next(event_type::generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}}));
  out.push_back(d.next(event_type::generation_finished, {{"course", 1},
                                                         {"genseq", 1},
                                                         {"thinking", "hmm"},
                                                         {"saying", "let me look"},
                                                         {"toolCalls", sample_tool_calls()},
                                                         {"finishReason", "tool_calls"},
                                                         {"usage", {{"inputTokens", 100}, {"outputTokens", 20}}},
                                                         {"interrupted", false}}));
  out.push_back(d.next(
      event_type::tool_result,
      {{"course", 1}, {"genseq", 1}, {"callId", "c1"}, {"name", "read_file"}, {"ok", true}, {"content", "file text"}}));
  out.push_back(d.next(event_type::generation_started, {{"course", 1}, {"genseq", 2}, {"round", 2}}));
  out.push_back(d.next(event_type::generation_finished, {{"course", 1},
                                                         {"genseq", 2},
                                                         {"thinking", ""},
                                                         {"saying", "done"},
                                                         {"toolCalls", json::array{}},
                                                         {"finishReason", "stop"},
                                                         {"usage", {{"inputTokens", 150}, {"outputTokens", 30}}},
                                                         {"interrupted", false}}));
  out.push_back(d.status("completed"));
  out.push_back(d.next(event_type::course_started, {{"course", 2}, {"prompt", "fresh start"}}));
  out.push_back(d.user("again", 2, "system"));
  return out;
}

// Batches (1-3 events, some spanning two dialogs) over `roots` hierarchies of one root and two
// subdialogs each. Deterministic for a given seed.
inline std::vector<std::vector<event>> varied_history(unsigned seed, int roots, int rounds) {
  std::mt19937 gen(seed);
  auto pick = [&](int n) { return static_cast<int>(gen() % static_cast<unsigned>(n)); };
  struct state {
    std::unique_ptr<dialog_script> script;
    std::int64_t course = 1;
    std::int64_t genseq = 0;
  };
  std::vector<state> dialogs;
  std::vector<std::vector<event>> batches;
  for (int r = 0; r < roots; ++r) {
    const std::string root = "root-" + std::to_string(r);
    const std::int64_t start = 1'700'000'000'000 + 1000 * r;
    dialogs.push_back({std::make_unique<dialog_script>(root, root, start)});
    batches.push_back({dialogs.back().script->created(r % 2 == 0 ? "alice" : "bob", {}, "task " + root)});
    for (int s = 0; s < 2; ++s) {
      const std::string sub = root + "-sub-" + std::to_string(s);
      dialogs.push_back({std::make_unique<dialog_script>(sub, root, start + 10 + s)});
      batches.push_back({dialogs.back().script->created("carol", root)});
    }
  }
  const char* const statuses[] = {"running", "completed", "archived"};
  const char* const origins[] = {"user", "answer", "system", "tellask", "reply"};
  auto random_event = [&](state& st) -> event {
    dialog_script& d = *st.script;
    const std::string text = "text " + std::to_string(gen() % 1000);
    switch (pick(9)) {
      case 0:
      case 1:
        return d.user(text, st.course, origins[pick(5)]);
      case 2:
        return d.next(event_type::generation_started, {{"course", st.course}, {"genseq", ++st.genseq}, {"round", 1}});
      case 3: {
        json::array calls;
        for (int c = pick(3); c > 0; --c)
          calls.push_back(
              {{"id", "c" + std::to_string(c)}, {"name", "tool"}, {"arguments", R"({"n":)" + std::to_string(c) + "}"}});
        return d.next(event_type::generation_finished,
                      {{"course", st.course},
                       {"genseq", st.genseq},
                       {"thinking", text},
                       {"saying", text + "!"},
                       {"toolCalls", calls},
                       {"finishReason", "stop"},
                       {"usage", {{"inputTokens", pick(500)}, {"outputTokens", pick(90)}}},
                       {"interrupted", pick(4) == 0}});
      }
      case 4:
        return d.next(event_type::tool_result, {{"course", st.course},
                                                {"genseq", st.genseq},
                                                {"callId", "c1"},
                                                {"name", "tool"},
                                                {"ok", pick(3) != 0},
                                                {"content", text}});
      case 5:
        return d.next(event_type::drive_failed, {{"course", st.course}, {"genseq", st.genseq}, {"message", text}});
      case 6:
        return d.status(statuses[pick(3)]);
      case 7:
        return d.next(event_type::course_started, {{"course", ++st.course}, {"prompt", text}});
      default:
        return d.next("future_event_type", {{"whatever", text}});
    }
  };
  for (int round = 0; round < rounds; ++round) {
    std::vector<event> batch;
    state& first = dialogs[static_cast<std::size_t>(pick(static_cast<int>(dialogs.size())))];
    for (int n = 1 + pick(3); n > 0; --n) batch.push_back(random_event(first));
    if (pick(5) == 0) {
      state& second = dialogs[static_cast<std::size_t>(pick(static_cast<int>(dialogs.size())))];
      batch.push_back(random_event(second));
    }
    batches.push_back(std::move(batch));
  }
  return batches;
}

}  // namespace parley::test
