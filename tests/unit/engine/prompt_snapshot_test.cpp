// What the models of the demo and test teams are told, checked in: for every member, the system
// prompt and the tools (names, descriptions, JSON schemas) of a root dialog and of a subdialog, as
// the engine assembles them for a model call, in tests/unit/prompt_snapshots/<team>/<member>.
// <root|sub>.txt. Any change to what models see therefore shows in review. On a mismatch the test
// names the first differing line and writes what the code produces next to the build;
// PARLEY_UPDATE_SNAPSHOTS=1 rewrites the checked-in files (and removes stale ones).
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"
#include "support/pretty_json.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

namespace fs = std::filesystem;

struct snapshot_team {
  std::string name;  // the folder of its snapshots
  std::string file;  // relative to the source tree; a folder ending in '/' is a Dominds workspace
};

const std::vector<snapshot_team>& teams() {
  static const std::vector<snapshot_team> list{
      {"demo", "examples/demo/team.yaml"},
      {"e2e", "tests/e2e/team/team.yaml"},
      {"ws", "tests/server/ws_teams/team.yaml"},
      {"server-groups", "tests/server/teams/groups/team.yaml"},
      {"server-media", "tests/server/teams/media/team.yaml"},
      {"server-q4h", "tests/server/teams/q4h/team.yaml"},
      {"server-reflect", "tests/server/teams/reflect/team.yaml"},
      {"server-slow", "tests/server/teams/slow/team.yaml"},
      {"roster-en", "tests/unit/engine/roster_teams/en.yaml"},
      {"roster-zh", "tests/unit/engine/roster_teams/zh.yaml"},
      {"dominds", "tests/unit/engine/dominds_team/"},
  };
  return list;
}

const fs::path& source_dir() {
  static const fs::path dir(PARLEY_SOURCE_DIR);
  return dir;
}

fs::path snapshot_dir() { return source_dir() / "tests" / "unit" / "prompt_snapshots"; }

// The subdialog a member is shown in: a Type B session asked by the team's default member (by
// another member when it is the default, by itself in a team of one).
std::string tellasker_of(const config::team_config& team, const std::string& member) {
  if (team.default_member != member) return team.default_member;
  for (const auto& other : team.members) {
    if (other.id != member) return other.id;
  }
  return member;
}

std::vector<event> root_events(const std::string& member) {
  return {
      test::typed_event("root", "root", 1, event_type::dialog_created, {{"memberId", member}, {"kind", "root"}}, 0)};
}

std::vector<event> sub_events(const std::string& member, const std::string& tellasker) {
  const boost::json::object assignment{{"callerId", "root"},        {"callerMemberId", tellasker},
                                       {"callId", "call-1"},        {"callName", "tellask"},
                                       {"sessionSlug", "snapshot"}, {"tellaskContent", "Please help."}};
  return {test::typed_event("sub", "root", 1, event_type::dialog_created,
                            {{"memberId", member},
                             {"kind", "sub"},
                             {"parentId", "root"},
                             {"depth", 1},
                             {"callKind", "tellask"},
                             {"sessionSlug", "snapshot"}},
                            0),
          test::typed_event("sub", "root", 2, event_type::user_message,
                            {{"course", 1},
                             {"content", "Please help."},
                             {"msgId", "msg-1"},
                             {"origin", "tellask"},
                             {"assignment", assignment}},
                            0)};
}

std::string render(const std::string& team_name, const std::string& member, std::string_view place,
                   const llm::model_request& request) {
  std::string out = "# What @" + member + " of team " + team_name + " is sent in a " + std::string(place) +
                    " dialog (tests/unit/engine/prompt_snapshot_test.cpp;\n"
                    "# PARLEY_UPDATE_SNAPSHOTS=1 rewrites this file).\n\n"
                    "=== system prompt ===\n" +
                    request.system_prompt + "\n";
  const std::size_t count = request.tools ? request.tools->size() : 0;
  out += "\n=== tools (" + std::to_string(count) + ") ===\n";
  if (request.tools) {
    for (const auto& tool : *request.tools) {
      out += "\n--- " + tool.name + "\n" + tool.description + "\n";
      test::pretty_json(tool.parameters, out, 0);
      out += "\n";
    }
  }
  return out;
}

// Each snapshot file's expected text, by path relative to snapshot_dir().
std::map<std::string, std::string> expected_snapshots() {
  std::map<std::string, std::string> files;
  for (const auto& entry : teams()) {
    const bool workspace = entry.file.ends_with('/');
    // A Dominds workspace's work language follows LANG; the snapshots are of the English prompts.
    if (workspace) ::setenv("LANG", "C.UTF-8", 1);
    auto team = workspace ? config::load_dominds_workspace(source_dir() / entry.file)
                          : config::load_team_file(source_dir() / entry.file);
    if (!team) {
      ADD_FAILURE() << entry.file << ": " << team.err().message;
      continue;
    }
    auto providers = build_providers(*team);
    if (!providers) {
      ADD_FAILURE() << entry.file << ": " << providers.err().message;
      continue;
    }
    boost::asio::io_context io;
    auto log = make_memory_store();
    auto created = engine::create(io.get_executor(), *log, *team, std::move(*providers), build_builtin_tools());
    if (!created) {
      ADD_FAILURE() << entry.file << ": " << created.err().message;
      continue;
    }
    const engine& eng = **created;
    for (const auto& member : team->members) {
      const std::pair<std::string_view, std::vector<event>> places[] = {
          {"root", root_events(member.id)}, {"sub", sub_events(member.id, tellasker_of(*team, member.id))}};
      for (const auto& [place, events] : places) {
        auto dialog = dialog_runtime::replay(events);
        if (!dialog) {
          ADD_FAILURE() << dialog.err().message;
          continue;
        }
        auto request = eng.members().model_request_for(**dialog);
        if (!request) {
          ADD_FAILURE() << request.err().message;
          continue;
        }
        files[entry.name + "/" + member.id + "." + std::string(place) + ".txt"] =
            render(entry.name, member.id, place, *request);
      }
    }
  }
  return files;
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "line 12: expected `...`, got `...`" for the first line where they part.
std::string first_difference(const std::string& stored, const std::string& actual) {
  std::istringstream a(stored);
  std::istringstream b(actual);
  std::string left;
  std::string right;
  for (int line = 1;; ++line) {
    const bool more_left = static_cast<bool>(std::getline(a, left));
    const bool more_right = static_cast<bool>(std::getline(b, right));
    if (!more_left && !more_right) return "they differ only in the final newline";
    if (!more_left) left = "(end of file)";
    if (!more_right) right = "(end of file)";
    if (left != right || !more_left || !more_right) {
      std::string where = "line " + std::to_string(line);
      where += ": checked in `" + left;
      where += "`, the code gives `" + right + "`";
      return where;
    }
  }
}

TEST(PromptSnapshot, EveryMembersPromptAndToolsMatchTheCheckedInSnapshot) {
  const bool update = std::getenv("PARLEY_UPDATE_SNAPSHOTS") != nullptr;
  const auto files = expected_snapshots();
  ASSERT_FALSE(files.empty());
  std::set<std::string> seen;
  for (const auto& [relative, actual] : files) {
    seen.insert(relative);
    const fs::path file = snapshot_dir() / relative;
    if (update) {
      fs::create_directories(file.parent_path());
      std::ofstream(file, std::ios::binary) << actual;
      continue;
    }
    if (!fs::exists(file)) {
      ADD_FAILURE() << "missing snapshot " << file << " (PARLEY_UPDATE_SNAPSHOTS=1 writes it)";
      continue;
    }
    const std::string stored = read_file(file);
    if (stored == actual) continue;
    const fs::path produced = fs::absolute(fs::path("prompt_snapshots") / relative);
    fs::create_directories(produced.parent_path());
    std::ofstream(produced, std::ios::binary) << actual;
    ADD_FAILURE() << file << " differs from what the code sends, " << first_difference(stored, actual)
                  << ".\nThe code's version is in " << produced
                  << "; if the change is meant, PARLEY_UPDATE_SNAPSHOTS=1 rewrites the snapshots.";
  }
  // A snapshot no member produces any more (a member or team removed) would mislead review.
  std::vector<fs::path> stale;
  if (fs::exists(snapshot_dir())) {
    for (const auto& entry : fs::recursive_directory_iterator(snapshot_dir())) {
      if (!entry.is_regular_file()) continue;
      if (seen.count(fs::relative(entry.path(), snapshot_dir()).generic_string()) == 0) stale.push_back(entry.path());
    }
  }
  for (const auto& file : stale) {
    if (update) {
      fs::remove(file);
    } else {
      ADD_FAILURE() << "stale snapshot " << file << " (PARLEY_UPDATE_SNAPSHOTS=1 removes it)";
    }
  }
}

}  // namespace
}  // namespace parley::engine
