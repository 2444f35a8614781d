// Runs every tests/scenario/*.yaml against the SQLite and the in-memory store and checks the
// log and the projections it names (format: tests/scenario/README.md).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/model/projection.hpp"
#include "parley/store/store.hpp"
#include "support/pg_test_schema.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;
namespace asio = boost::asio;

fs::path fresh_dir() {
  std::random_device device;
  fs::path dir = fs::temp_directory_path() / ("parley-scenario-" + std::to_string(device()));
  fs::create_directories(dir);
  return dir;
}

// Stops a dialog's generation once it has streamed a given number of chunks.
class chunk_stopper final : public engine::engine_observer {
 public:
  engine::engine* eng = nullptr;
  std::string dialog_id;
  int stop_after = -1;
  int seen = 0;
  void on_stream(const engine::stream_event& ev) override {
    if (ev.dialog_id != dialog_id) return;
    if (ev.kind != engine::stream_kind::saying_chunk && ev.kind != engine::stream_kind::thinking_chunk) return;
    if (++seen == stop_after) (void)eng->runs().stop(dialog_id);
  }
};

struct scenario_run {
  fs::path dir;
  std::unique_ptr<store> log;
  std::map<std::string, std::string> aliases;  // scenario name → dialog id
  std::string last_question_id;
};

// A dialog reference: an alias from new_dialog, or "alias/member" (the first subdialog of that
// member under the alias's root, in creation order), or "alias/member#N" (the N-th).
std::string resolve(store& log, scenario_run& run, const std::string& ref) {
  const auto slash = ref.find('/');
  if (slash == std::string::npos) return run.aliases[ref];
  const std::string root = run.aliases[ref.substr(0, slash)];
  std::string member = ref.substr(slash + 1);
  int nth = 1;
  if (const auto hash = member.find('#'); hash != std::string::npos) {
    nth = std::stoi(member.substr(hash + 1));
    member = member.substr(0, hash);
  }
  dialog_filter filter;
  filter.root_id = root;
  auto rows = log.list_dialogs(filter);
  if (!rows) return {};
  for (const auto& row : *rows) {
    if (row.kind == events::dialog_kind::sub && row.member_id == member && --nth == 0) return row.id;
  }
  return {};
}

// UTF-8 text whose code points are all below U+0100, as Latin-1 bytes: how a scenario writes a file
// (or a file name) that is not UTF-8, which a YAML file cannot hold as it is.
std::string latin1_bytes(const std::string& utf8) {
  std::string out;
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    const auto byte = static_cast<unsigned char>(utf8[i]);
    if (byte >= 0xC2 && byte <= 0xC3 && i + 1 < utf8.size()) {
      out += static_cast<char>(((byte & 0x03U) << 6U) | (static_cast<unsigned char>(utf8[++i]) & 0x3FU));
    } else {
      out += static_cast<char>(byte);
    }
  }
  return out;
}

// A file is `path: "text"`, or `path: {latin1: "text"}` for Latin-1 content, and a path that
// starts with `latin1:` is itself written in Latin-1.
void write_files(const YAML::Node& files, const fs::path& dir) {
  for (const auto& entry : files) {
    std::string name = entry.first.as<std::string>();
    if (name.rfind("latin1:", 0) == 0) name = latin1_bytes(name.substr(7));
    const fs::path path = dir / name;
    fs::create_directories(path.parent_path());
    const YAML::Node& value = entry.second;
    std::ofstream(path, std::ios::binary)
        << (value.IsMap() ? latin1_bytes(value["latin1"].as<std::string>()) : value.as<std::string>());
  }
}

void expect_error_text(const result<void>& outcome, const YAML::Node& step, const std::string& what) {
  if (step["expect_error"]) {
    ASSERT_FALSE(outcome.has_value()) << what << " should have failed";
    EXPECT_NE(outcome.err().message.find(step["expect_error"].as<std::string>()), std::string::npos)
        << what << " failed with: " << outcome.err().message;
  } else {
    ASSERT_TRUE(outcome.has_value()) << what << " failed: " << outcome.err().message;
  }
}

asio::awaitable<void> settle(engine::engine& eng, const std::string& id) {
  const auto* dialog = eng.find(id);
  if (dialog != nullptr) co_await eng.runs().wait_until_settled(dialog->row().root_id);
}

asio::awaitable<void> run_steps(engine::engine& eng, chunk_stopper& stopper, YAML::Node steps, scenario_run& run) {
  for (const auto& step : steps) {
    if (const auto node = step["new_dialog"]) {
      engine::new_dialog spec{node["member"].as<std::string>(""), "", node["task_doc"].as<std::string>("")};
      auto id = co_await eng.create_root_dialog(std::move(spec));
      result<void> outcome = id ? result<void>{} : result<void>{id.err()};
      expect_error_text(outcome, node, "new_dialog");
      if (id) run.aliases[node["as"].as<std::string>()] = *id;
    } else if (const auto say = step["say"] ? step["say"] : step["stop_during"]) {
      const std::string id = resolve(*run.log, run, say["dialog"].as<std::string>());
      if (step["stop_during"]) {
        stopper.dialog_id = id;
        stopper.seen = 0;
        stopper.stop_after = say["after_chunks"].as<int>();
      }
      auto posted = co_await eng.post_user_message(id, say["text"].as<std::string>());
      expect_error_text(posted, say, "say");
      co_await settle(eng, id);
    } else if (const auto answer_step = step["answer"]) {
      // question: N answers the dialog's N-th open question; question_id: X sends X as it is.
      const std::string id = resolve(*run.log, run, answer_step["dialog"].as<std::string>());
      engine::user_answer answer{id, answer_step["text"].as<std::string>(), "",
                                 answer_step["question_id"].as<std::string>(""),
                                 answer_step["continuation"].as<std::string>("answer")};
      if (answer_step["question"]) {
        const auto* dialog = eng.find(id);
        const auto nth = answer_step["question"].as<std::size_t>();
        if (dialog != nullptr && nth >= 1 && nth <= dialog->state().questions.size()) {
          answer.question_id = dialog->state().questions[nth - 1].id;
        }
      }
      if (answer_step["reuse_last_answer"]) answer.question_id = run.last_question_id;
      run.last_question_id = answer.question_id;
      auto answered = co_await eng.questions().answer_question(std::move(answer));
      expect_error_text(answered, answer_step, "answer");
      co_await settle(eng, id);
    } else if (const auto dead_step = step["declare_dead"]) {
      const std::string id = resolve(*run.log, run, dead_step["dialog"].as<std::string>());
      auto declared = co_await eng.questions().declare_subdialog_dead(id, dead_step["reason"].as<std::string>(""));
      expect_error_text(declared, dead_step, "declare_dead");
      co_await settle(eng, id);
    } else if (const auto tools_stop = step["stop_during_tools"]) {
      // Posts, waits (bounded) until the dialog's member tools run — and, with `once_file`, until
      // a tool has written that file, so what it did before is certain — then stops the dialog.
      const std::string id = resolve(*run.log, run, tools_stop["dialog"].as<std::string>());
      auto posted = co_await eng.post_user_message(id, tools_stop["text"].as<std::string>());
      expect_error_text(posted, tools_stop, "stop_during_tools");
      const auto once_file = tools_stop["once_file"];
      auto tools_got_there = [&] {
        std::error_code ec;
        return !once_file || fs::exists(run.dir / once_file.as<std::string>(), ec);
      };
      boost::asio::steady_timer tick(co_await boost::asio::this_coro::executor);
      bool stopped = false;
      for (int i = 0; i < 2000 && !stopped; ++i) {
        const auto* dialog = eng.find(id);
        if (dialog != nullptr && dialog->running_tools() && tools_got_there()) {
          stopped = static_cast<bool>(eng.runs().stop(id));
        }
        tick.expires_after(std::chrono::milliseconds(10));
        co_await tick.async_wait(boost::asio::use_awaitable);
      }
      EXPECT_TRUE(stopped) << "stop_during_tools: the dialog never ran its tools";
      co_await settle(eng, id);
    } else if (const auto resume_step = step["resume"]) {
      const std::string id = resolve(*run.log, run, resume_step["dialog"].as<std::string>());
      auto resumed = co_await eng.runs().resume(id);
      expect_error_text(resumed, resume_step, "resume");
      co_await settle(eng, id);
    } else {
      ADD_FAILURE() << "unknown scenario step";
    }
  }
}

void check_dialog_fields(store& log, scenario_run& run, const dialog_row& row, const YAML::Node& want,
                         const std::string& alias) {
  for (const auto& field : want) {
    const auto key = field.first.as<std::string>();
    const auto& value = field.second;
    SCOPED_TRACE(alias + "." + key);
    if (key == "status")
      EXPECT_EQ(events::to_wire(row.status), value.as<std::string>());
    else if (key == "course")
      EXPECT_EQ(row.course, value.as<std::int64_t>());
    else if (key == "needs_drive")
      EXPECT_EQ(row.needs_drive, value.as<bool>());
    else if (key == "generating")
      EXPECT_EQ(row.generating, value.as<bool>());
    else if (key == "last_error")
      EXPECT_EQ(row.last_error, value.as<std::string>());
    else if (key == "last_error_contains")
      EXPECT_NE(row.last_error.find(value.as<std::string>()), std::string::npos) << row.last_error;
    else if (key == "message_count")
      EXPECT_EQ(row.message_count, value.as<std::int64_t>());
    else if (key == "member")
      EXPECT_EQ(row.member_id, value.as<std::string>());
    else if (key == "kind")
      EXPECT_EQ(events::to_wire(row.kind), value.as<std::string>());
    else if (key == "call_kind")
      EXPECT_EQ(row.call_kind ? events::to_wire(*row.call_kind) : "", value.as<std::string>());
    else if (key == "session_slug")
      EXPECT_EQ(row.session_slug, value.as<std::string>());
    else if (key == "depth")
      EXPECT_EQ(row.depth, value.as<std::int64_t>());
    else if (key == "open_questions")
      EXPECT_EQ(row.open_questions, value.as<std::int64_t>());
    else if (key == "pending_subdialogs")
      EXPECT_EQ(row.pending_subdialogs, value.as<std::int64_t>());
    else if (key == "dead")
      EXPECT_EQ(row.dead, value.as<bool>());
    else if (key == "parent")
      EXPECT_EQ(row.parent_id, resolve(log, run, value.as<std::string>()));
    else if (key == "caller")
      EXPECT_EQ(row.caller_id, resolve(log, run, value.as<std::string>()));
    else
      ADD_FAILURE() << "unknown dialog field in scenario: " << key;
  }
}

void check_message(const message_row& msg, const YAML::Node& want) {
  for (const auto& field : want) {
    const auto key = field.first.as<std::string>();
    const auto& value = field.second;
    SCOPED_TRACE("message seq " + std::to_string(msg.seq) + " field " + key);
    if (key == "role")
      EXPECT_EQ(events::to_wire(msg.role), value.as<std::string>());
    else if (key == "content")
      EXPECT_EQ(msg.content, value.as<std::string>());
    else if (key == "content_contains" && value.IsSequence()) {
      for (const auto& part : value)
        EXPECT_NE(msg.content.find(part.as<std::string>()), std::string::npos) << msg.content;
    } else if (key == "content_contains")
      EXPECT_NE(msg.content.find(value.as<std::string>()), std::string::npos) << msg.content;
    else if (key == "thinking_contains")
      EXPECT_NE(msg.thinking.find(value.as<std::string>()), std::string::npos) << msg.thinking;
    else if (key == "tool_calls")
      EXPECT_EQ(msg.tool_calls.size(), value.as<std::size_t>());
    else if (key == "name")
      EXPECT_EQ(msg.tool_name, value.as<std::string>());
    else if (key == "ok")
      EXPECT_EQ(msg.ok, value.as<bool>());
    else if (key == "interrupted")
      EXPECT_EQ(msg.interrupted, value.as<bool>());
    else if (key == "origin")
      EXPECT_EQ(msg.origin ? events::to_wire(*msg.origin) : "", value.as<std::string>());
    else
      ADD_FAILURE() << "unknown message field in scenario: " << key;
  }
}

void check_expectations(engine::engine& eng, store& log, const YAML::Node& expect, scenario_run& run) {
  for (const auto& entry : expect["events"]) {
    const auto alias = entry.first.as<std::string>();
    auto events = log.read_events(resolve(log, run, alias));
    ASSERT_TRUE(events.has_value());
    const auto expected = entry.second.as<std::vector<std::string>>();
    // The prompts a dialog's model was given (prompt_logged, seed 002's ActivePromptLog) are
    // compared only where a scenario lists them: most scenarios are about the dialog's flow.
    const bool with_prompts =
        std::find(expected.begin(), expected.end(), events::prompt_logged::kType) != expected.end();
    std::vector<std::string> types;
    for (const auto& ev : *events) {
      if (with_prompts || !ev.is<events::prompt_logged>()) types.emplace_back(ev.type());
    }
    EXPECT_EQ(types, expected) << "events of " << alias;
  }
  for (const auto& entry : expect["dialogs"]) {
    const auto alias = entry.first.as<std::string>();
    auto row = log.get_dialog(resolve(log, run, alias));
    ASSERT_TRUE(row.has_value() && row->has_value()) << "dialog " << alias;
    check_dialog_fields(log, run, **row, entry.second, alias);
  }
  for (const auto& entry : expect["messages"]) {
    const auto alias = entry.first.as<std::string>();
    const auto dialog_id = resolve(log, run, alias);
    auto row = log.get_dialog(dialog_id);
    ASSERT_TRUE(row.has_value() && row->has_value());
    auto messages = log.messages(dialog_id, (*row)->course);
    ASSERT_TRUE(messages.has_value());
    ASSERT_EQ(messages->size(), entry.second.size()) << "messages of " << alias << ":" << [&] {
      std::string listed;
      for (const auto& m : *messages)
        listed +=
            "\n  " + std::string(parley::events::to_wire(m.role)) + " " + m.tool_name + ": " + m.content.substr(0, 120);
      return listed;
    }();
    for (std::size_t i = 0; i < messages->size(); ++i) check_message((*messages)[i], entry.second[i]);
  }
  for (const auto& entry : expect["subdialog_count"]) {
    dialog_filter filter;
    filter.root_id = run.aliases[entry.first.as<std::string>()];
    auto rows = log.list_dialogs(filter);
    ASSERT_TRUE(rows.has_value());
    EXPECT_EQ(static_cast<std::int64_t>(rows->size()) - 1, entry.second.as<std::int64_t>())
        << "subdialogs of " << entry.first.as<std::string>();
  }
  for (const auto& entry : expect["registry"]) {
    auto registry = eng.registry(run.aliases[entry.first.as<std::string>()]);
    ASSERT_TRUE(registry.has_value()) << registry.err().message;
    std::vector<std::string> keys;
    for (const auto& item : *registry) keys.push_back(item.key);
    EXPECT_EQ(keys, entry.second.as<std::vector<std::string>>()) << "registry of " << entry.first.as<std::string>();
  }
  for (const auto& entry : expect["reminders"]) {
    const auto alias = entry.first.as<std::string>();
    auto loaded = eng.dialogs().load(resolve(log, run, alias));
    ASSERT_TRUE(loaded.has_value()) << loaded.err().message;
    EXPECT_EQ((*loaded)->state().reminders, entry.second.as<std::vector<std::string>>()) << "reminders of " << alias;
  }
  for (const auto& entry : expect["files"]) {
    std::ifstream in(run.dir / entry.first.as<std::string>(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, entry.second.as<std::string>()) << "file " << entry.first.as<std::string>();
  }
  for (const auto& entry : expect["absent_files"]) {
    std::error_code ec;
    EXPECT_FALSE(fs::exists(run.dir / entry.as<std::string>(), ec)) << "file " << entry.as<std::string>();
  }
}

struct projection_dump {
  std::vector<dialog_row> dialogs;
  std::vector<std::vector<message_row>> messages;
  bool operator==(const projection_dump&) const = default;
};

projection_dump dump(store& log) {
  projection_dump out;
  out.dialogs = log.list_dialogs({}).value();
  for (const auto& row : out.dialogs) out.messages.push_back(log.messages(row.id, 0).value());
  return out;
}

enum class store_kind { sqlite, memory, postgres };

// `loaded_limit`: when not 0, the engine keeps at most that many dialogs in memory.
void run_scenario(const fs::path& file, store_kind kind, std::size_t loaded_limit = 0) {
  const YAML::Node scenario = YAML::LoadFile(file.string());
  scenario_run run;
  run.dir = fresh_dir();
  write_files(scenario["files"], run.dir);
  auto team = config::load_team_file(run.dir / scenario["team"].as<std::string>());
  ASSERT_TRUE(team.has_value()) << team.err().message;
  if (kind == store_kind::sqlite) {
    auto opened = open_sqlite_store((run.dir / "data").string());
    ASSERT_TRUE(opened.has_value()) << opened.err().message;
    run.log = std::move(*opened);
  } else if (kind == store_kind::postgres) {
    const std::string url = test::pg_fresh_schema_url();
    ASSERT_FALSE(url.empty());
    auto opened = open_postgres_store(url);
    ASSERT_TRUE(opened.has_value()) << opened.err().message;
    run.log = std::move(*opened);
  } else {
    run.log = make_memory_store();
  }
  auto providers = engine::build_providers(*team);
  ASSERT_TRUE(providers.has_value()) << providers.err().message;
  asio::io_context io;
  auto eng =
      engine::engine::create(io.get_executor(), *run.log, *team, std::move(*providers), engine::build_builtin_tools());
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  if (loaded_limit != 0) (*eng)->dialogs().set_limit(loaded_limit);
  // As `parley` does: the data directory (here inside the workspace when the team sets none).
  (*eng)->drives().set_protected_dirs({{run.dir / "data", "Parley's data directory"}});
  chunk_stopper stopper;
  stopper.eng = eng->get();
  (*eng)->add_observer(&stopper);
  asio::co_spawn(io, run_steps(**eng, stopper, scenario["steps"], run), asio::detached);
  io.run();
  run.log->flush();

  // PARLEY_SCENARIO_DUMP=1 prints the whole log, for writing and debugging scenarios.
  if (std::getenv("PARLEY_SCENARIO_DUMP") != nullptr) {
    for (const auto& ev : run.log->read_all_events().value()) {
      std::printf("%s #%lld %s %s\n", ev.dialog_id.c_str(), static_cast<long long>(ev.seq),
                  std::string(ev.type()).c_str(), boost::json::serialize(encode_payload(ev.payload)).c_str());
    }
  }
  check_expectations(**eng, *run.log, scenario["expect"], run);
  const projection_dump live = dump(*run.log);
  ASSERT_TRUE(run.log->rebuild_projections().has_value());
  EXPECT_TRUE(live == dump(*run.log)) << "projections rebuilt from the log differ from the live ones";
  run.log.reset();
  fs::remove_all(run.dir);
}

std::vector<fs::path> scenario_files() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(PARLEY_SCENARIO_DIR)) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class Scenario : public ::testing::TestWithParam<fs::path> {};

TEST_P(Scenario, HoldsOnTheSqliteStore) { run_scenario(GetParam(), store_kind::sqlite); }
TEST_P(Scenario, HoldsOnTheMemoryStore) { run_scenario(GetParam(), store_kind::memory); }
TEST_P(Scenario, HoldsOnThePostgresStore) { run_scenario(GetParam(), store_kind::postgres); }
// Every dialog at rest is unloaded as soon as another is used, and loaded again from the log.
TEST_P(Scenario, HoldsWithOneDialogKeptInMemory) { run_scenario(GetParam(), store_kind::sqlite, 1); }

INSTANTIATE_TEST_SUITE_P(Files, Scenario, ::testing::ValuesIn(scenario_files()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           std::string name = info.param.stem().string();
                           for (auto& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace parley
