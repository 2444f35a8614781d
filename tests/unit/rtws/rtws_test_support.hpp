// Shared by the rtws tests: temporary folders, both kinds of store, a hand-made log with the
// hierarchy the seed's layout has to hold, and comparisons of two stores.
#pragma once

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "parley/core/time.hpp"
#include "parley/model/event.hpp"
#include "parley/store/store.hpp"
#include "support/typed_events.hpp"

namespace parley::test {

namespace fs = std::filesystem;
namespace json = boost::json;

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class temp_dir {
 public:
  temp_dir() {
    std::random_device seed;
    std::mt19937_64 gen(seed());
    path_ = fs::temp_directory_path() / ("parley-rtws-test-" + std::to_string(gen()));
    fs::create_directories(path_);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

enum class store_kind { memory, sqlite };

inline std::string kind_name(store_kind kind) { return kind == store_kind::memory ? "memory" : "sqlite"; }

// A store of either kind; a SQLite store lives in its own temp dir.
struct test_store {
  std::unique_ptr<temp_dir> folder;
  std::unique_ptr<store> log;
};

inline test_store make_store(store_kind kind) {
  test_store out;
  if (kind == store_kind::memory) {
    out.log = make_memory_store();
    return out;
  }
  out.folder = std::make_unique<temp_dir>();
  auto opened = open_sqlite_store(out.folder->path().string());
  EXPECT_TRUE(opened) << (opened ? "" : opened.err().message);
  if (opened) out.log = std::move(*opened);
  return out;
}

inline result<void> append_sync(store& s, std::vector<event> batch) {
  auto done = std::make_shared<std::promise<result<void>>>();
  auto outcome = done->get_future();
  s.append(std::move(batch), [done](result<void> r) { done->set_value(std::move(r)); });
  return outcome.get();
}

// Hands out per-dialog seqs and one global clock, so events interleave as in a real run.
class log_builder {
 public:
  event add(const std::string& dialog_id, const std::string& root_id, std::string_view type, json::object payload) {
    event ev;
    ev.dialog_id = dialog_id;
    ev.root_id = root_id;
    ev.seq = ++seqs_[dialog_id];
    ev.payload = test::payload_of(type, std::move(payload));
    ev.ts_ms = clock_ms_;
    clock_ms_ += 1'234;
    events_.push_back(ev);
    return ev;
  }
  std::int64_t now_ms() const { return clock_ms_; }
  std::vector<event> take() { return std::exchange(events_, {}); }

 private:
  std::map<std::string, std::int64_t> seqs_;
  std::int64_t clock_ms_ = 1'766'800'000'000;  // late December 2025
  std::vector<event> events_;
};

// The dialogs of the scenario below.
namespace ids {
inline const std::string root = "0001root";     // running, two courses, an open question, reminders
inline const std::string session = "0002sess";  // Type B subdialog of root (sessionSlug "market")
inline const std::string nested = "0003nest";   // subdialog of session: depth 2
inline const std::string dead = "0004dead";     // Type B subdialog declared dead: not in the registry
inline const std::string done = "0005done";     // completed root
inline const std::string done_sub = "0006fbr";  // its freshBootsReasoning subdialog
}  // namespace ids

// The question still open at the end, and its multi-line, quoted, non-ASCII text.
inline const std::string kOpenQuestion = "Which market first?\nUS or \"EU\" — 欧洲 ✓: yes/no";

inline json::object assignment(const std::string& caller, const std::string& caller_member, const std::string& call_id,
                               const std::string& call_name, const std::string& slug, const std::string& content) {
  return {{"callerId", caller},  {"callerMemberId", caller_member}, {"callId", call_id}, {"callName", call_name},
          {"sessionSlug", slug}, {"tellaskContent", content}};
}

inline json::object finished(std::int64_t course, std::int64_t genseq, const std::string& saying,
                             json::array tool_calls = {}) {
  return {{"course", course},
          {"genseq", genseq},
          {"thinking", "thinking " + std::to_string(genseq)},
          {"saying", saying},
          {"toolCalls", std::move(tool_calls)},
          {"finishReason", "stop"},
          {"usage", {{"inputTokens", 100 * genseq}, {"outputTokens", 10 * genseq}}},
          {"interrupted", false}};
}

// The log holds a call's arguments as the JSON text the model wrote.
inline json::object tool_call(const std::string& id, const std::string& name, const json::object& arguments) {
  return {{"id", id}, {"name", name}, {"arguments", json::serialize(arguments)}};
}

// The whole hierarchy, in the interleaved order a run would append it.
inline std::vector<event> scenario_events() {
  using namespace event_type;
  log_builder b;
  const auto& R = ids::root;
  const auto& S = ids::session;
  const auto& N = ids::nested;
  // A title that YAML would read as a boolean unless quoted.
  b.add(R, R, dialog_created,
        {{"memberId", "lead"}, {"kind", "root"}, {"depth", 0}, {"title", "true"}, {"taskDocPath", "launch.tsk"}});
  b.add(R, R, user_message, {{"course", 1}, {"content", "Plan the launch"}, {"msgId", "m1"}, {"origin", "user"}});
  b.add(R, R, generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}});
  b.add(R, R, generation_finished,
        finished(
            1, 1, "Asking research",
            {tool_call("c1", "tellask",
                       {{"targetAgentId", "researcher"}, {"sessionSlug", "market"}, {"tellaskContent", "Size it"}})}));
  b.add(S, R, dialog_created,
        {{"memberId", "researcher"},
         {"kind", "sub"},
         {"parentId", R},
         {"depth", 1},
         {"callKind", "tellask"},
         {"sessionSlug", "market"}});
  b.add(S, R, user_message,
        {{"course", 1},
         {"content", "Size it"},
         {"msgId", "m2"},
         {"origin", "tellask"},
         {"assignment", assignment(R, "lead", "c1", "tellask", "market", "Size it")}});
  b.add(R, R, tellask_called,
        {{"course", 1},
         {"genseq", 1},
         {"callId", "c1"},
         {"name", "tellask"},
         {"subdialogId", S},
         {"targetAgentId", "researcher"},
         {"sessionSlug", "market"},
         {"tellaskContent", "Size it"}});
  b.add(S, R, generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}});
  b.add(S, R, generation_finished,
        finished(1, 1, "",
                 {tool_call("c2", "tellaskSessionless", {{"targetAgentId", "analyst"}, {"tellaskContent", "Count"}})}));
  b.add(N, R, dialog_created,
        {{"memberId", "analyst"}, {"kind", "sub"}, {"parentId", S}, {"depth", 2}, {"callKind", "tellaskSessionless"}});
  b.add(N, R, user_message,
        {{"course", 1},
         {"content", "Count"},
         {"msgId", "m3"},
         {"origin", "tellask"},
         {"assignment", assignment(S, "researcher", "c2", "tellaskSessionless", "", "Count")}});
  b.add(S, R, tellask_called,
        {{"course", 1},
         {"genseq", 1},
         {"callId", "c2"},
         {"name", "tellaskSessionless"},
         {"subdialogId", N},
         {"targetAgentId", "analyst"},
         {"tellaskContent", "Count"}});
  b.add(N, R, generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}});
  b.add(N, R, generation_finished, finished(1, 1, "About 3B"));
  b.add(S, R, reply_received,
        {{"course", 1},
         {"callId", "c2"},
         {"name", "tellaskSessionless"},
         {"awaited", true},
         {"fromDialogId", N},
         {"fromMemberId", "analyst"},
         {"kind", "final"},
         {"ok", true},
         {"content", "About 3B"}});
  b.add(ids::dead, R, dialog_created,
        {{"memberId", "researcher"},
         {"kind", "sub"},
         {"parentId", R},
         {"depth", 1},
         {"callKind", "tellask"},
         {"sessionSlug", "legacy"}});
  b.add(ids::dead, R, declared_dead, {{"reason", "stuck"}});
  b.add(R, R, reminder_added, {{"content", "check EU rules"}});
  b.add(R, R, reminder_added, {{"content", "budget: 10k"}});
  b.add(R, R, reminder_updated, {{"index", 0}, {"content", "check EU + UK rules"}});
  b.add(R, R, question_asked,
        {{"course", 1},
         {"genseq", 1},
         {"callId", "c4"},
         {"questionId", "q1"},
         {"mentionList", "Budget?"},
         {"tellaskContent", "Budget?"},
         {"askedAt", format_iso8601_ms(b.now_ms())}});
  // clear_mind: course 2 drops q1, keeps the reminders.
  b.add(R, R, course_started, {{"course", 2}, {"prompt", "Continue with a fresh mind"}});
  b.add(R, R, user_message, {{"course", 2}, {"content", "Continue"}, {"msgId", "m5"}, {"origin", "system"}});
  b.add(R, R, generation_started, {{"course", 2}, {"genseq", 2}, {"round", 1}});
  b.add(R, R, generation_finished,
        finished(2, 2, "", {tool_call("c5", "askHuman", {{"tellaskContent", kOpenQuestion}})}));
  b.add(R, R, question_asked,
        {{"course", 2},
         {"genseq", 2},
         {"callId", "c5"},
         {"questionId", "q2"},
         {"mentionList", "Which market first?"},
         {"tellaskContent", kOpenQuestion},
         {"askedAt", format_iso8601_ms(b.now_ms())}});

  const auto& D = ids::done;
  const auto& F = ids::done_sub;
  b.add(D, D, dialog_created, {{"memberId", "lead"}, {"kind", "root"}, {"depth", 0}, {"title", "Finished work"}});
  b.add(D, D, user_message, {{"course", 1}, {"content", "Think hard"}, {"msgId", "m6"}, {"origin", "user"}});
  b.add(D, D, generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}});
  b.add(D, D, generation_finished,
        finished(1, 1, "", {tool_call("c6", "freshBootsReasoning", {{"tellaskContent", "Reason"}})}));
  b.add(F, D, dialog_created,
        {{"memberId", "lead"}, {"kind", "sub"}, {"parentId", D}, {"depth", 1}, {"callKind", "freshBootsReasoning"}});
  b.add(F, D, user_message,
        {{"course", 1},
         {"content", "Reason"},
         {"msgId", "m7"},
         {"origin", "tellask"},
         {"assignment", assignment(D, "lead", "c6", "freshBootsReasoning", "", "Reason")}});
  b.add(D, D, tellask_called,
        {{"course", 1},
         {"genseq", 1},
         {"callId", "c6"},
         {"name", "freshBootsReasoning"},
         {"subdialogId", F},
         {"targetAgentId", "lead"},
         {"tellaskContent", "Reason"}});
  b.add(F, D, generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}});
  b.add(F, D, generation_finished, finished(1, 1, "Reasoned"));
  b.add(D, D, reply_received,
        {{"course", 1},
         {"callId", "c6"},
         {"name", "freshBootsReasoning"},
         {"awaited", true},
         {"fromDialogId", F},
         {"fromMemberId", "lead"},
         {"kind", "final"},
         {"ok", true},
         {"content", "Reasoned"}});
  b.add(D, D, generation_started, {{"course", 1}, {"genseq", 2}, {"round", 2}});
  b.add(D, D, generation_finished, finished(1, 2, "All done"));
  b.add(D, D, status_changed, {{"status", "completed"}});
  return b.take();
}

// Appends the scenario in a few batches, as a running engine would.
inline void append_scenario(store& log) {
  auto events = scenario_events();
  const std::size_t step = 7;
  for (std::size_t i = 0; i < events.size(); i += step) {
    std::vector<event> batch(events.begin() + static_cast<std::ptrdiff_t>(i),
                             events.begin() + static_cast<std::ptrdiff_t>(std::min(i + step, events.size())));
    auto appended = append_sync(log, std::move(batch));
    ASSERT_TRUE(appended) << appended.err().message;
  }
}

// Every event of a store ordered by (dialog, seq): import appends dialog by dialog, so only the
// order inside each dialog is the same as the original's.
inline std::vector<event> events_by_dialog(store& log) {
  auto events = log.read_all_events();
  EXPECT_TRUE(events);
  std::vector<event> out = events ? *events : std::vector<event>{};
  std::stable_sort(out.begin(), out.end(), [](const event& a, const event& b) {
    return a.dialog_id != b.dialog_id ? a.dialog_id < b.dialog_id : a.seq < b.seq;
  });
  return out;
}

inline void expect_same_event(const event& a, const event& b) {
  EXPECT_EQ(a.dialog_id, b.dialog_id);
  EXPECT_EQ(a.root_id, b.root_id);
  EXPECT_EQ(a.seq, b.seq);
  EXPECT_EQ(a.type(), b.type());
  EXPECT_EQ(a.ts_ms, b.ts_ms);
  EXPECT_EQ(test::wire_of(a), test::wire_of(b)) << a.dialog_id << " seq " << a.seq;
}

// The same log, the same dialog rows and the same messages for every dialog.
inline void expect_same_store(store& original, store& copy) {
  const auto want_events = events_by_dialog(original);
  const auto have_events = events_by_dialog(copy);
  ASSERT_EQ(want_events.size(), have_events.size());
  for (std::size_t i = 0; i < want_events.size(); ++i) expect_same_event(want_events[i], have_events[i]);

  auto want_rows = original.list_dialogs({});
  auto have_rows = copy.list_dialogs({});
  ASSERT_TRUE(want_rows && have_rows);
  EXPECT_EQ(*want_rows, *have_rows);
  for (const auto& row : *want_rows) {
    auto want = original.messages(row.id, 0);
    auto have = copy.messages(row.id, 0);
    ASSERT_TRUE(want && have);
    EXPECT_EQ(*want, *have) << "messages of " << row.id;
  }
}

inline std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void write_text(const fs::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
}

inline std::vector<std::string> lines_of(const fs::path& file) {
  std::vector<std::string> out;
  std::istringstream in(read_text(file));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

inline std::int64_t dialog_count(store& log) {
  auto rows = log.list_dialogs({});
  EXPECT_TRUE(rows);
  return rows ? static_cast<std::int64_t>(rows->size()) : -1;
}

}  // namespace parley::test
