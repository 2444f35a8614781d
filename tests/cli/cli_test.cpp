// Runs the real `parley` binary on the demo team and checks exit statuses, output and the store.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <boost/json/parse.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "parley/store/sqlite/sqlite_handle.hpp"
#include "parley/store/store.hpp"
#include "support/cli_runner.hpp"

namespace parley {
namespace {

namespace fs = std::filesystem;

using outcome = parley::testing::cli_outcome;

// The demo uses its offline model here whatever the developer's environment says (run_cli).
outcome run(const std::string& args) { return parley::testing::run_cli(args); }

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("parley-cli-" + std::to_string(device()));
    data_ = root_ / "data";
    team_dir_ = root_ / "team";
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string data() const { return " --data " + data_.string(); }
  std::string team() const { return " --team " + std::string(PARLEY_SOURCE_DIR) + "/examples/demo/team.yaml"; }
  // Teams written by a test go to team_dir_, their workspace; the data directory is beside it.
  fs::path root_;
  fs::path data_;
  fs::path team_dir_;
};

TEST_F(Cli, RunDrivesTheDemoOfflineAndSaysSo) {
  const auto out = run("run" + team() + data() + " 'What is in the notes?'");
  ASSERT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find("talks to the built-in scripted model"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("set OPENAI_API_KEY or OPENAI_BASE_URL"), std::string::npos);
  EXPECT_NE(out.output.find("3 sprints of 12 days are 864 hours."), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("\ndialog "), std::string::npos);

  auto log = open_sqlite_store(data_.string());
  ASSERT_TRUE(log.has_value());
  auto dialogs = (*log)->list_dialogs({}).value();
  ASSERT_EQ(dialogs.size(), 1U);
  EXPECT_EQ(dialogs[0].member_id, "lead");
  EXPECT_EQ((*log)->messages(dialogs[0].id, 1).value().size(), 8U);  // user, 3 × (call, result), answer
}

// A member with an MCP toolset (issue 39): `parley run` starts the reference server-everything over
// stdio, the scripted model calls its tool, and the command ends with the answer — the server's
// process does not keep it running, and none is left behind.
TEST_F(Cli, RunWithAnMcpToolsetCallsTheServerAndLeavesNoProcess) {
  fs::create_directories(team_dir_);
  const std::string everything =
      std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js";
  std::ofstream(team_dir_ / "team.yaml")
      << "version: 1\nworkspace: .\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
         "mcp:\n  servers:\n    everything:\n      transport: stdio\n      command: node\n      args: ['"
      << everything
      << "', stdio]\n      cwd: .\n"
         "members:\n  lead: {persona: p, provider: offline, model: m, toolsets: [everything]}\n";
  std::ofstream(team_dir_ / "script.yaml") << R"(members:
  lead:
    - when: {round: 1}
      emit: [{tool_call: {name: echo, arguments: {message: over stdio}}}]
    - emit: [{saying: "The server said it."}]
)";
  const auto out = run("run --team " + (team_dir_ / "team.yaml").string() + data() + " Go");
  ASSERT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find("The server said it."), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("Echo: over stdio"), std::string::npos) << out.output;
  // No process is left whose folder is the team's (the server ran there).
  const auto team_folder = fs::canonical(team_dir_);
  for (const auto& entry : fs::directory_iterator("/proc")) {
    std::error_code ec;
    const auto cwd = fs::read_symlink(entry.path() / "cwd", ec);
    if (ec) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto paren = text.rfind(')');
    const bool zombie = paren != std::string::npos && text.substr(paren + 2, 1) == "Z";
    EXPECT_TRUE(cwd != team_folder || zombie) << "process " << entry.path().filename() << " is still running";
  }
}

TEST_F(Cli, SayContinuesTheDialogWithTheRememberedTeam) {
  ASSERT_EQ(run("run" + team() + data() + " --quiet first").status, 0);
  std::string id;
  {
    auto log = open_sqlite_store(data_.string());
    id = (*log)->list_dialogs({}).value().at(0).id;
  }
  const auto out = run("say " + id + data() + " --quiet second");
  ASSERT_EQ(out.status, 0) << out.output;
  const auto shown = run("show " + id + data() + " --json");
  ASSERT_EQ(shown.status, 0);
  EXPECT_NE(shown.output.find("\"content\":\"second\""), std::string::npos) << shown.output;
  const auto listed = run("dialogs --json" + data());
  EXPECT_NE(listed.output.find("\"id\":\"" + id + "\""), std::string::npos) << listed.output;
}

// `parley dialogs` pages as GET /api/dialogs does: newest root first, and the command for the
// next page printed last while there is one.
TEST_F(Cli, DialogsListsRootsNewestFirstAPageAtATime) {
  for (const char* words : {"first", "second", "third"}) {
    ASSERT_EQ(run("run" + team() + data() + " --quiet " + words).status, 0);
  }
  std::vector<std::string> ids;
  {
    auto log = open_sqlite_store(data_.string());
    for (const auto& row : (*log)->list_dialogs({.roots_only = true}).value()) ids.push_back(row.id);
  }
  ASSERT_EQ(ids.size(), 3U);  // oldest first
  const auto first = run("dialogs --limit 2" + data());
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_LT(first.output.find(ids[2]), first.output.find(ids[1])) << first.output;
  EXPECT_EQ(first.output.find(ids[0]), std::string::npos) << first.output;
  // The next page's command keeps the data directory and the page size (issue 43).
  const std::string marker = "next page: parley dialogs" + data() + " --limit 2 --cursor ";
  const auto at = first.output.find(marker);
  ASSERT_NE(at, std::string::npos) << first.output;
  const std::string cursor = first.output.substr(at + marker.size(), first.output.find('\n', at) - at - marker.size());
  const auto second = run("dialogs --limit 2 --cursor " + cursor + data());
  ASSERT_EQ(second.status, 0) << second.output;
  EXPECT_NE(second.output.find(ids[0]), std::string::npos) << second.output;
  EXPECT_EQ(second.output.find(ids[1]), std::string::npos) << second.output;
  EXPECT_EQ(second.output.find("next page"), std::string::npos) << second.output;

  const auto found = run("dialogs --q SECOND" + data());
  EXPECT_NE(found.output.find(ids[1]), std::string::npos) << found.output;
  EXPECT_EQ(found.output.find(ids[2]), std::string::npos) << found.output;

  const auto bad = run("dialogs --limit 0" + data());
  EXPECT_EQ(bad.status, 2) << bad.output;
  EXPECT_NE(bad.output.find("--limit: expected a whole number from 1 to 500, got '0'"), std::string::npos)
      << bad.output;
  const auto forged = run("dialogs --cursor nonsense" + data());
  EXPECT_EQ(forged.status, 2) << forged.output;
  EXPECT_NE(forged.output.find("--cursor: "), std::string::npos) << forged.output;
}

// A flag's value is a name, an id or a path (free text for --reason, --q, --reflect-goal): a
// control character in one is refused before anything is opened, naming the flag and the byte.
TEST_F(Cli, AControlCharacterInAFlagValueIsRefusedAndNothingIsMade) {
  // popen runs /bin/sh: printf makes the ESC byte.
  const auto titled = run("run" + team() + data() + " --title \"$(printf 'bad\\033[31mtitle')\" hello");
  EXPECT_EQ(titled.status, 2) << titled.output;
  EXPECT_NE(titled.output.find("--title: control character U+001B at byte 3; give one line of visible text"),
            std::string::npos)
      << titled.output;
  EXPECT_EQ(titled.output.find('\x1b'), std::string::npos) << titled.output;
  EXPECT_FALSE(std::filesystem::exists(data_ / "parley.db"));
}

// A second writer on a data directory another process writes is refused, naming the holder; the
// reading verbs still work (tests/server/many_processes_test.cpp does the same beside a server).
TEST_F(Cli, ASecondWriterIsRefusedNamingTheProcessThatHoldsTheStore) {
  ASSERT_EQ(run("run" + team() + data() + " --quiet first").status, 0);
  auto held = open_sqlite_store(data_.string());
  ASSERT_TRUE(held) << held.err().message;
  const auto second = run("run" + team() + data() + " --quiet second");
  EXPECT_EQ(second.status, 1) << second.output;
  EXPECT_NE(second.output.find("is in use by pid " + std::to_string(::getpid()) + " (parley open)"), std::string::npos)
      << second.output;
  const auto listed = run("dialogs" + data());
  EXPECT_EQ(listed.status, 0) << listed.output;
  EXPECT_NE(listed.output.find("first"), std::string::npos) << listed.output;
}

// `parley vacuum` with a team that keeps everything changes nothing and says so.
TEST_F(Cli, VacuumWithoutARetentionPolicyKeepsEverything) {
  ASSERT_EQ(run("run" + team() + data() + " --quiet hello").status, 0);
  const auto out = run("vacuum" + team() + data());
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find("the team keeps everything"), std::string::npos) << out.output;
}

TEST_F(Cli, HelpListsEveryVerbAndHelpAfterAVerbShowsThatVerb) {
  const auto full = run("--help");
  EXPECT_EQ(full.status, 0);
  EXPECT_EQ(full.output.rfind("usage: parley <verb> [options]", 0), 0U) << full.output;
  EXPECT_NE(full.output.find("  parley serve [--team FILE"), std::string::npos) << full.output;
  EXPECT_NE(full.output.find("  parley tot --resume "), std::string::npos) << full.output;
  const auto serve = run("serve --help");
  EXPECT_EQ(serve.status, 0);
  EXPECT_EQ(serve.output.rfind("usage: parley serve [--team FILE | --workspace DIR]", 0), 0U) << serve.output;
  EXPECT_NE(serve.output.find("the web UI, REST API and WebSocket on one port"), std::string::npos);
  const auto short_form = run("say -h");
  EXPECT_EQ(short_form.status, 0);
  EXPECT_EQ(
      short_form.output.rfind("usage: parley say DIALOG [--retry] [--data DIR] \"message\"\n  continue a dialog; ", 0),
      0U)
      << short_form.output;
  // The usage error of a verb quotes the same line.
  const auto wrong = run("say only-one-argument");
  EXPECT_EQ(wrong.status, 2);
  EXPECT_EQ(wrong.output, "parley: usage: parley say DIALOG [--retry] [--data DIR] \"message\"\n");
}

TEST_F(Cli, HelpIsNeverTakenFromAMessageOrAnOptionsValue) {
  // After `--` it is the message; as --title's value it is the title: both runs happen.
  const auto message = run("run" + team() + data() + " --quiet -- -h");
  EXPECT_EQ(message.status, 0) << message.output;
  const auto titled = run("run" + team() + data() + " --quiet --title --help hello");
  EXPECT_EQ(titled.status, 0) << titled.output;
  const auto listed = run("dialogs" + data());
  EXPECT_NE(listed.output.find("  --help\n"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("  -h\n"), std::string::npos) << listed.output;
}

TEST_F(Cli, BadUsageExitsWithTwoAndOneClearLine) {
  auto out = run("rn");
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "parley: unknown verb 'rn' (did you mean 'run'?); see parley --help\n");
  out = run("run --tema x y");
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "parley: unknown option --tema (did you mean --team?); try: parley run --team x y\n");
  out = run("run" + team() + data() + " --member laed hello");
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.output.find("unknown member 'laed' (did you mean 'lead'?)"), std::string::npos) << out.output;
  out = run("show nope" + data());
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "parley: no dialog 'nope' in " + data_.string() + "\n");
}

TEST_F(Cli, OversizedMessageIsRefusedAndStoresNothing) {
  const auto out = run("run" + team() + data() + " " + std::string(70000, 'a'));
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.output.find("the limit is 65536 (limits.max_message_bytes)"), std::string::npos) << out.output;
  auto log = open_sqlite_store(data_.string());
  ASSERT_TRUE(log.has_value());
  EXPECT_TRUE((*log)->read_all_events().value().empty());
}

TEST_F(Cli, AnArgumentThatIsNotUtf8IsRefusedBeforeAnythingIsStored) {
  const auto out = run("run" + team() + data() + " 'caf\xff'");
  EXPECT_EQ(out.status, 2) << out.output;
  EXPECT_NE(out.output.find("byte 0xff at offset 3 is not valid UTF-8"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(data_ / "parley.db"));
}

// A log written before Parley refused such bytes: the store still opens, `check` names the
// event, `repair` rewrites it with a record of the original, and then all is well.
TEST_F(Cli, AnEventStoredWithBadBytesIsNamedByCheckAndRewrittenByRepair) {
  // The demo's one-member flow: seq 2 is then the only user_message at that place in the log.
  ASSERT_EQ(run("run" + team() + data() + " --quiet 'What is in the notes?'").status, 0);
  {
    auto db = sqlite::connection::open_read_write((data_ / "parley.db").string());
    ASSERT_TRUE(db) << db.err().message;
    // {"course":1,"content":"caf\xff","msgId":"m1","origin":"user"} in hex, stored as the text of event 2.
    ASSERT_TRUE(
        db->exec("UPDATE events SET payload = CAST(X'7b22636f75727365223a312c22636f6e74656e74223a22636166ff222c"
                 "226d73674964223a226d31222c226f726967696e223a2275736572227d' AS TEXT) WHERE seq = 2 AND type = "
                 "'user_message'"));
  }
  const auto listed = run("dialogs" + data());
  EXPECT_EQ(listed.status, 0) << listed.output;
  const auto checked = run("check" + data());
  EXPECT_EQ(checked.status, 1) << checked.output;
  EXPECT_NE(checked.output.find("event 2 (user_message"), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("byte 0xff at offset 26"), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("parley repair"), std::string::npos) << checked.output;
  const auto repaired = run("repair" + data());
  EXPECT_EQ(repaired.status, 0) << repaired.output;
  EXPECT_NE(repaired.output.find("rewritten: 1 invalid UTF-8 sequence(s) replaced by U+FFFD"), std::string::npos)
      << repaired.output;
  const auto again = run("check" + data());
  EXPECT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.output.find(": ok"), std::string::npos) << again.output;
  EXPECT_EQ(run("repair" + data()).output, "every event reads back: nothing to repair\n");
}

// A projection row holding a value this version does not know (written by a newer Parley, or
// damaged): `check` names the dialog and the column instead of reading it as some default.
TEST_F(Cli, CheckNamesADialogRowWhoseStatusThisVersionDoesNotKnow) {
  ASSERT_EQ(run("run" + team() + data() + " --quiet 'What is in the notes?'").status, 0);
  std::string dialog_id;
  {
    auto db = sqlite::connection::open_read_write((data_ / "parley.db").string());
    ASSERT_TRUE(db) << db.err().message;
    auto root = db->prepare("SELECT id FROM dialogs WHERE parent_id = ''", false);
    ASSERT_TRUE(root) << root.err().message;
    auto found = root->step();
    ASSERT_TRUE(found && *found);
    dialog_id = root->text_at(0);
    root->reset();
    ASSERT_TRUE(db->exec("UPDATE dialogs SET status = 'paused' WHERE parent_id = ''"));
  }
  const auto checked = run("check" + data());
  EXPECT_NE(checked.status, 0) << checked.output;
  EXPECT_NE(checked.output.find("dialog " + dialog_id), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("dialogs.status is 'paused'"), std::string::npos) << checked.output;
}

TEST_F(Cli, CorruptDatabaseIsRefusedAndLeftAlone) {
  fs::create_directories(data_);
  const std::string garbage(8192, '\x5a');
  std::ofstream(data_ / "parley.db", std::ios::binary) << garbage;
  const auto out = run("dialogs" + data());
  EXPECT_EQ(out.status, 1);
  EXPECT_NE(out.output.find("failed its integrity check"), std::string::npos) << out.output;
  std::ifstream in(data_ / "parley.db", std::ios::binary);
  const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(after, garbage);
}

TEST_F(Cli, UnwritableDataDirectoryIsAClearRuntimeError) {
  fs::create_directories(data_);
  std::ofstream(data_ / "file") << "x";
  const auto out = run("run" + team() + " --data " + (data_ / "file" / "sub").string() + " hi");
  EXPECT_EQ(out.status, 1);
  EXPECT_NE(out.output.find("cannot create store directory"), std::string::npos) << out.output;
}

// A team file without `workspace:` works in its own folder: a data directory there is refused
// before anything is written, unless --allow-data-in-workspace says to keep it there.
TEST_F(Cli, ADataDirectoryInsideTheWorkspaceIsRefusedUnlessAllowed) {
  fs::create_directories(team_dir_);
  std::ofstream(team_dir_ / "team.yaml") << R"(version: 1
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead.", provider: offline, model: scripted, toolsets: [workspace]}
)";
  std::ofstream(team_dir_ / "script.yaml") << "members:\n  lead:\n    - emit: [{saying: \"hi\"}]\n";
  const std::string inside = (team_dir_ / ".parley").string();
  const std::string args = " --team " + (team_dir_ / "team.yaml").string() + " --data " + inside + " --quiet hello";
  auto out = run("run" + args);
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "parley: the data directory " + inside + " is inside the team's workspace " +
                            team_dir_.string() +
                            "; pass --data DIR outside it, or --allow-data-in-workspace to keep it there (file "
                            "tools still refuse it)\n");
  EXPECT_FALSE(fs::exists(inside));
  out = run("serve --port 0" + args.substr(0, args.size() - std::string(" --quiet hello").size()));
  EXPECT_EQ(out.status, 2);
  EXPECT_NE(out.output.find("is inside the team's workspace"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(inside));
  out = run("run --allow-data-in-workspace" + args);
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_TRUE(fs::exists(fs::path(inside) / "parley.db"));
}

// A workspace refused for its access rules leaves no trace: no data directory, no store.
TEST_F(Cli, ARefusedDomindsWorkspaceChangesNothingOnDisk) {
  fs::create_directories(team_dir_ / ".minds");
  std::ofstream(team_dir_ / ".minds" / "llm.yaml")
      << "providers:\n  local:\n    apiType: openai\n    models: {m: {}}\n";
  std::ofstream(team_dir_ / ".minds" / "team.yaml")
      << "member_defaults:\n  provider: local\nmembers:\n  alice:\n    write_dirs: [\"docs/[a-z]*\"]\n";
  const auto out = run("run --workspace " + team_dir_.string() + data() + " hello");
  EXPECT_EQ(out.status, 2);
  EXPECT_EQ(out.output, "parley: " + (team_dir_ / ".minds" / "team.yaml").string() +
                            ":5:18: members.alice.write_dirs[0]: pattern 'docs/[a-z]*' uses '[': only '*' and '**' "
                            "are supported\n");
  EXPECT_FALSE(fs::exists(data_));
}

// A lead and a clerk on the scripted model; the caller writes the script. Returns the team's folder.
fs::path write_lead_and_clerk_team(const fs::path& team_dir) {
  fs::create_directories(team_dir);
  std::ofstream(team_dir / "team.yaml") << R"(version: 1
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead.", provider: offline, model: scripted}
  clerk: {persona: "You book.", provider: offline, model: scripted}
)";
  return team_dir;
}

// `parley registry` lists the root's Type B subdialogs, asked through the root or any dialog of its
// tree, as the REST route does.
TEST_F(Cli, RegistryListsTheRootsTypeBSubdialogs) {
  std::ofstream(write_lead_and_clerk_team(team_dir_) / "script.yaml") << R"(members:
  lead:
    - when: {last_tool: "booked"}
      emit: [{saying: "Trip booked."}]
    - emit: [{tool_call: {name: tellask, arguments: {targetAgentId: clerk, sessionSlug: booking, tellaskContent: "Book it."}}}]
  clerk:
    - emit: [{saying: "booked"}]
)";
  const std::string team_flag = " --team " + (team_dir_ / "team.yaml").string();
  const auto started = run("run" + team_flag + data() + " --quiet 'plan a trip'");
  ASSERT_EQ(started.status, 0) << started.output;
  std::string root;
  const auto listing = boost::json::parse(run("dialogs --json" + data()).output);
  for (const auto& dialog : listing.as_array()) {
    if (dialog.at("parentId").as_string().empty()) root = dialog.at("id").as_string();
  }
  ASSERT_FALSE(root.empty());

  const auto listed = run("registry " + root + " --json" + team_flag + data());
  ASSERT_EQ(listed.status, 0) << listed.output;
  const auto registry = boost::json::parse(listed.output).as_object();
  EXPECT_EQ(registry.at("rootId").as_string(), root);
  const auto& entries = registry.at("entries").as_array();
  ASSERT_EQ(entries.size(), 1U) << listed.output;
  EXPECT_EQ(entries[0].at("key").as_string(), "clerk!booking");
  EXPECT_EQ(entries[0].at("agentId").as_string(), "clerk");
  const std::string sub(entries[0].at("subdialogId").as_string());

  // Through the subdialog: the same registry, the root's.
  const auto text = run("registry " + sub + team_flag + data());
  ASSERT_EQ(text.status, 0) << text.output;
  EXPECT_EQ(text.output.rfind("clerk!booking -> " + sub, 0), 0U) << text.output;

  const auto unknown = run("registry no-such-dialog" + team_flag + data());
  EXPECT_EQ(unknown.status, 2);  // a name that is not there, as every verb says it
  EXPECT_NE(unknown.output.find("no dialog 'no-such-dialog'"), std::string::npos) << unknown.output;
  EXPECT_EQ(run("registry" + team_flag + data()).status, 2);
}

// Seed 001's root lifecycle from the CLI: a completed root refuses `say` until reopened, and the
// Dominds layout files it under done/ with its Type B subdialog and its registry.
TEST_F(Cli, ACompletedRootMovesToDoneWithItsRegistryAndIsReopened) {
  std::ofstream(write_lead_and_clerk_team(team_dir_) / "script.yaml") << R"(members:
  lead:
    - when: {last_tool: "booked"}
      emit: [{saying: "Trip booked."}]
    - when: {last_user: "thanks"}
      emit: [{saying: "you are welcome"}]
    - emit: [{tool_call: {name: tellask, arguments: {targetAgentId: clerk, sessionSlug: booking, tellaskContent: "Book it."}}}]
  clerk:
    - emit: [{saying: "booked"}]
)";
  const std::string team_flag = " --team " + (team_dir_ / "team.yaml").string();
  ASSERT_EQ(run("run" + team_flag + data() + " --quiet 'plan a trip'").status, 0);
  std::string root;
  const auto listing = boost::json::parse(run("dialogs --json" + data()).output);
  for (const auto& dialog : listing.as_array()) {
    if (dialog.at("parentId").as_string().empty()) root = dialog.at("id").as_string();
  }
  ASSERT_FALSE(root.empty());

  const auto completed = run("complete " + root + team_flag + data());
  ASSERT_EQ(completed.status, 0) << completed.output;
  EXPECT_NE(completed.output.find(root + " is completed"), std::string::npos) << completed.output;
  const auto refused = run("say " + root + team_flag + data() + " --quiet 'thanks'");
  EXPECT_NE(refused.status, 0);
  EXPECT_NE(refused.output.find("reopen"), std::string::npos) << refused.output;
  EXPECT_EQ(run("complete " + root + team_flag + data()).status, 1);  // already completed: a conflict
  EXPECT_EQ(run("complete no-such-dialog" + team_flag + data()).status, 2);
  EXPECT_EQ(run("archive" + team_flag + data()).status, 2);

  const fs::path out = root_ / "rtws";
  ASSERT_EQ(run("export --rtws " + out.string() + data()).status, 0);
  const fs::path done = out / ".dialogs" / "done" / root;
  EXPECT_TRUE(fs::is_regular_file(done / "dialog.yaml"));
  EXPECT_TRUE(fs::is_regular_file(done / "registry.yaml"));
  EXPECT_FALSE(fs::is_empty(done / "subdialogs"));
  EXPECT_FALSE(fs::exists(out / ".dialogs" / "run" / root));

  ASSERT_EQ(run("reopen " + root + team_flag + data()).status, 0);
  const auto said = run("say " + root + team_flag + data() + " --quiet 'thanks'");
  EXPECT_EQ(said.status, 0) << said.output;
}

// `parley resume --all` finds what resume would drive — here a dialog whose model call failed — and
// drives it again (it fails again: the script still has no answer for it).
TEST_F(Cli, ResumeAllDrivesEveryDialogWhoseDriveEndedEarly) {
  std::ofstream(write_lead_and_clerk_team(team_dir_) / "script.yaml") << R"(members:
  lead:
    - when: {last_user: "hello"}
      emit: [{saying: "hi"}]
  clerk:
    - emit: [{saying: "ok"}]
)";
  const std::string team_flag = " --team " + (team_dir_ / "team.yaml").string();
  ASSERT_EQ(run("run" + team_flag + data() + " --quiet 'hello'").status, 0);
  const auto failed = run("run" + team_flag + data() + " --quiet 'something unscripted'");
  ASSERT_EQ(failed.status, 1) << failed.output;
  std::string failed_id;
  const auto listing = boost::json::parse(run("dialogs --json" + data()).output);
  for (const auto& dialog : listing.as_array()) {
    if (dialog.at("title").as_string() == "something unscripted") failed_id = dialog.at("id").as_string();
  }
  ASSERT_FALSE(failed_id.empty());

  const auto resumed = run("resume --all" + team_flag + data() + " --quiet");
  EXPECT_NE(resumed.output.find("1 dialog(s) resumed: " + failed_id), std::string::npos) << resumed.output;
  EXPECT_EQ(run("resume --all extra" + team_flag + data()).status, 2);
}

// A lead delegates to a clerk, who asks the human: the CLI lists the question with its call site,
// answers it (the hierarchy then finishes), checks the store and exports the Dominds layout.
TEST_F(Cli, QuestionsAnswerCheckAndExportDriveAHierarchyToTheEnd) {
  std::ofstream(write_lead_and_clerk_team(team_dir_) / "script.yaml") << R"(members:
  lead:
    - when: {last_tool: "booked"}
      emit: [{saying: "Trip booked."}]
    - emit: [{tool_call: {name: tellaskSessionless, arguments: {targetAgentId: clerk, tellaskContent: "Book it."}}}]
  clerk:
    - when: {last_tool: "Friday"}
      emit: [{saying: "booked for Friday"}]
    - emit: [{tool_call: {name: askHuman, arguments: {tellaskContent: "Which day?\nMonday or Friday."}}}]
)";
  const std::string team_flag = " --team " + (team_dir_ / "team.yaml").string();
  const auto started = run("run" + team_flag + data() + " --quiet 'plan a trip'");
  ASSERT_EQ(started.status, 0) << started.output;
  EXPECT_NE(started.output.find("1 question waits for you"), std::string::npos) << started.output;

  const auto listed = run("questions --json" + data());
  ASSERT_EQ(listed.status, 0) << listed.output;
  auto questions = boost::json::parse(listed.output).as_array();
  ASSERT_EQ(questions.size(), 1U) << listed.output;
  const auto& question = questions[0].as_object();
  EXPECT_EQ(question.at("mentionList").as_string(), "Which day?");
  EXPECT_EQ(question.at("member").as_string(), "clerk");
  const std::string clerk = std::string(question.at("dialog").as_object().at("selfId").as_string());
  const std::string question_id = std::string(question.at("id").as_string());

  // The whole question, every line of it.
  const auto shown = run("questions" + data());
  EXPECT_NE(shown.output.find("\n  Which day?\n  Monday or Friday.\n  answer: parley answer" + data() + " " + clerk),
            std::string::npos)
      << shown.output;

  const auto wrong = run("answer " + clerk + " no-such-id Friday" + data());
  EXPECT_EQ(wrong.status, 2);
  EXPECT_NE(wrong.output.find("has no open question no-such-id; its open questions are " + question_id),
            std::string::npos)
      << wrong.output;
  const auto answered = run("answer " + clerk + " " + question_id + " Friday --quiet" + data());
  ASSERT_EQ(answered.status, 0) << answered.output;
  EXPECT_EQ(run("questions" + data()).output, "no open questions\n");

  const auto checked = run("check" + data());
  EXPECT_EQ(checked.status, 0) << checked.output;
  EXPECT_NE(checked.output.find("2 dialogs"), std::string::npos) << checked.output;

  const auto exported = run("export --rtws " + (data_ / "rtws").string() + data());
  ASSERT_EQ(exported.status, 0) << exported.output;
  auto log = open_sqlite_store(data_.string());
  ASSERT_TRUE(log.has_value());
  const auto roots = (*log)->list_dialogs(dialog_filter{.roots_only = true}).value();
  ASSERT_EQ(roots.size(), 1U);
  EXPECT_EQ((*log)->messages(roots[0].id, 1).value().back().content, "Trip booked.");
  EXPECT_TRUE(fs::exists(data_ / "rtws" / ".dialogs" / "run" / roots[0].id / "subdialogs" / clerk / "dialog.yaml"));
}

// Usage recorded with each call is summed per dialog, member and team and priced from the team file.
TEST_F(Cli, DialogsAndShowReportUsageAndCostFromTheTeamsPrices) {
  fs::create_directories(team_dir_);
  std::ofstream(team_dir_ / "team.yaml") << R"(version: 1
providers:
  offline:
    kind: scripted
    script: script.yaml
    models:
      priced: {price: {input: 2, output: 10, cached_input: 1}}
members:
  lead: {persona: "You lead.", provider: offline, model: priced}
)";
  std::ofstream(team_dir_ / "script.yaml") << R"(members:
  lead:
    - emit:
        - saying: "done"
        - usage: {input_tokens: 1000, output_tokens: 100, cached_tokens: 400, reasoning_tokens: 20}
)";
  ASSERT_EQ(run("run --team " + (team_dir_ / "team.yaml").string() + data() + " --quiet go").status, 0);
  const auto listed = run("dialogs" + data());
  ASSERT_EQ(listed.status, 0) << listed.output;
  // 600 fresh × $2 + 400 cached × $1 + 100 out × $10, per million tokens = $0.0026.
  EXPECT_NE(listed.output.find("@lead: 1000 in (400 cached) / 100 out (20 reasoning) tokens, 1 call, $0.0026"),
            std::string::npos)
      << listed.output;
  EXPECT_NE(listed.output.find("team: 1000 in"), std::string::npos) << listed.output;
  const auto json = run("dialogs --json" + data());
  EXPECT_NE(json.output.find("\"cachedTokens\":400"), std::string::npos) << json.output;
  std::string id;
  {
    auto log = open_sqlite_store(data_.string());
    id = (*log)->list_dialogs({}).value().at(0).id;
  }
  const auto shown = run("show " + id + data());
  EXPECT_NE(shown.output.find("1 call, $0.0026"), std::string::npos) << shown.output;
}

// Seed 003 (日志规范): "每次执行 /tot 命令时,在 logs/ 目录下创建独立的任务文件夹" — the project's
// logs/ (the folder the run's team works in: here the built-in team's, the current folder).
TEST_F(Cli, TotSolvesGameOf24OfflineAndLeavesTheSeedsLogFolder) {
  const fs::path project = root_ / "project";
  fs::create_directories(project);
  const auto out = parley::testing::run_cli("tot '4 9 10 13' --json" + data(), project.string());
  ASSERT_EQ(out.status, 0) << out.output;
  auto printed = boost::json::parse(out.output.substr(out.output.rfind('{', out.output.find("\"task_id\""))));
  const auto& result = printed.as_object();
  EXPECT_TRUE(result.at("solved").as_bool());
  const fs::path log_dir(std::string(result.at("log_dir").as_string()));
  EXPECT_TRUE(fs::exists(log_dir / "00-task-info.json"));
  EXPECT_TRUE(fs::exists(log_dir / "99-merged-timeline.log"));
  EXPECT_EQ(fs::canonical(log_dir.parent_path()), fs::canonical(project / "logs"));
  EXPECT_FALSE(fs::exists(data_ / "logs"));
  // Seed 003's ThoughtTree, 'search_state: {current_depth, frontier, best_path}', in --json and the folder.
  EXPECT_TRUE(fs::exists(log_dir / "98-thought-tree.json"));
  const auto& tree = result.at("thought_tree").as_object();
  EXPECT_EQ(tree.at("task_id"), result.at("task_id"));
  EXPECT_EQ(tree.at("search_state").at("best_path").as_array().front(), "root");
  EXPECT_TRUE(tree.at("search_state").as_object().contains("frontier"));
}

TEST_F(Cli, TotWritesItsFolderWhereLogsSaysAndResumesFromThere) {
  const fs::path logs = data_ / "elsewhere";
  const auto out = run("tot '4 9 10 13' --json --logs " + logs.string() + data());
  ASSERT_EQ(out.status, 0) << out.output;
  auto printed = boost::json::parse(out.output.substr(out.output.rfind('{', out.output.find("\"task_id\""))));
  const std::string task_id(printed.at("task_id").as_string());
  EXPECT_TRUE(fs::exists(logs / task_id / "00-task-info.json"));
  EXPECT_FALSE(fs::exists(data_ / "logs" / task_id));
  // A finished run resumed asks nothing: every call is answered from its folder.
  const auto again = run("tot --json --resume " + task_id + " --logs " + logs.string() + data());
  ASSERT_EQ(again.status, 0) << again.output;
  auto resumed = boost::json::parse(again.output.substr(again.output.rfind('{', again.output.find("\"task_id\""))));
  EXPECT_EQ(resumed.at("llm_calls").as_int64(), 0);
}

TEST_F(Cli, TotRefusesBadInputNamingTheFieldAndWritesNothing) {
  fs::create_directories(root_);
  const std::pair<std::string, std::string> cases[] = {
      {"tot ''", "parley: problem: must not be empty"},
      {"tot '4 9 10 13' --task-type poetry", "parley: task_type: 'poetry' is not one of math_reasoning"},
      {"tot '4 9 10 13' --depth 0", "parley: depth: 0 is outside 1–10"},
      {"tot '4 9 10 13' --breadth x", "parley: --breadth: expected a whole number, got 'x'"},
      {"tot '4 9 10 13' --threshold 11", "parley: threshold: must be a number 0–10"},
      {"tot '4 9 10 13' --strategy A*", "parley: strategy: 'A*' is not one of BFS, DFS"},
      {"tot '4 9 10 13' --generation-strategy guessing", "parley: generation_strategy: 'guessing' is not one of"},
      {"tot '4 9 10 13' --evaluation-strategy vibes", "parley: evaluation_strategy: 'vibes' is not one of"},
      {"tot --resume nope", "parley: resume: 'nope' is not a run id"},
  };
  for (const auto& [args, expected] : cases) {
    const auto out = parley::testing::run_cli(args + data(), root_.string());
    EXPECT_EQ(out.status, 2) << args << ": " << out.output;
    EXPECT_EQ(out.output.rfind(expected, 0), 0u) << args << ": " << out.output;
  }
  EXPECT_FALSE(fs::exists(root_ / "logs"));
  EXPECT_FALSE(fs::exists(data_));
}

}  // namespace
}  // namespace parley

namespace parley {
namespace {

TEST_F(Cli, ResumeOfADialogWhoseAnswerWasGivenSaysNothingToResumeAndRepeatsNothing) {
  ASSERT_EQ(run("run" + team() + data() + " --quiet 'What is in the notes?'").status, 0);
  std::string id;
  std::size_t events_before = 0;
  {
    auto log = open_sqlite_store(data_.string());
    id = (*log)->list_dialogs({}).value().at(0).id;
    events_before = (*log)->read_events(id).value().size();
  }
  const auto out = run("resume " + id + data());
  EXPECT_EQ(out.status, 1) << out.output;
  EXPECT_EQ(out.output, "parley: dialog " + id + ": nothing to resume (its last answer was given)\n");
  auto log = open_sqlite_store(data_.string());
  EXPECT_EQ((*log)->read_events(id).value().size(), events_before);
}

TEST_F(Cli, AnUntitledRootIsNamedByItsFirstMessageInDialogs) {
  ASSERT_EQ(run("run" + team() + data() + " --quiet '# What is in the notes?\nAnd more.'").status, 0);
  const auto listed = run("dialogs" + data());
  ASSERT_EQ(listed.status, 0) << listed.output;
  EXPECT_NE(listed.output.find("TITLE"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("  What is in the notes?\n"), std::string::npos) << listed.output;
  const auto json = run("dialogs --json" + data());
  EXPECT_NE(json.output.find("\"title\":\"What is in the notes?\""), std::string::npos) << json.output;
}

TEST_F(Cli, VerbsOnADialogNameTheFolderTheyLookedInAndTheDialog) {
  const auto said = run("say nope" + data() + " 'and then?'");
  EXPECT_EQ(said.status, 2) << said.output;
  EXPECT_EQ(said.output, "parley: no dialog 'nope': there is no Parley data in " + data_.string() +
                             " (pass --data DIR where the dialog was kept)\n");
  for (const char* verb : {"resume nope", "dead nope", "answer nope q1 Friday"}) {
    const auto out = run(std::string(verb) + data());
    EXPECT_EQ(out.status, 2) << verb;
    EXPECT_NE(out.output.find("no dialog 'nope'"), std::string::npos) << verb << ": " << out.output;
  }
  for (const char* verb : {"dialogs", "questions", "check", "show nope"}) {
    const auto out = run(std::string(verb) + data());
    EXPECT_EQ(out.status, 2) << verb;
    EXPECT_NE(out.output.find("no Parley data in " + data_.string()), std::string::npos) << verb << ": " << out.output;
  }
  EXPECT_FALSE(fs::exists(data_)) << "a verb created a store at a mistyped --data";

  ASSERT_EQ(run("run" + team() + data() + " --quiet first").status, 0);
  const auto missing = run("say nope" + data() + " 'and then?'");
  EXPECT_EQ(missing.output, "parley: no dialog 'nope' in " + data_.string() + "\n");
}

TEST_F(Cli, ShowPrintsToolCallsAndMultiLineResultsAsRunDoes) {
  ASSERT_EQ(run("run" + team() + data() + " --quiet 'What is in the notes?'").status, 0);
  std::string id;
  {
    auto log = open_sqlite_store(data_.string());
    id = (*log)->list_dialogs({}).value().at(0).id;
  }
  const auto shown = run("show " + id + data());
  ASSERT_EQ(shown.status, 0) << shown.output;
  EXPECT_NE(shown.output.find("\n  → "), std::string::npos) << shown.output;
  EXPECT_EQ(shown.output.find("[{\""), std::string::npos) << "calls are printed one by one, not as JSON";
  EXPECT_NE(shown.output.find("  ← "), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find(" · idle · "), std::string::npos) << shown.output;
}

TEST_F(Cli, VersionAndRunLabelsWhoIsStreaming) {
  const auto version = run("--version");
  EXPECT_EQ(version.status, 0);
  EXPECT_EQ(version.output.rfind("parley 0.", 0), 0U) << version.output;
  const auto ran = run("run" + team() + data() + " 'What is in the notes?'");
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("@lead:\n"), std::string::npos) << ran.output;
}

// The demo's first run shows what Parley is: a subdialog, a question for the human, a reminder.
TEST_F(Cli, TheDemoDelegatesAsksTheHumanAndFinishesOnceAnswered) {
  const auto started = run("run" + team() + data() + " 'Plan the next sprint'");
  ASSERT_EQ(started.status, 0) << started.output;
  EXPECT_NE(started.output.find("→ add_reminder"), std::string::npos) << started.output;
  EXPECT_NE(started.output.find("→ tellaskSessionless"), std::string::npos) << started.output;
  EXPECT_NE(started.output.find("@researcher (subdialog "), std::string::npos) << started.output;
  EXPECT_NE(started.output.find("1 question waits for you"), std::string::npos) << started.output;
  const auto listed = run("questions --json" + data());
  auto questions = boost::json::parse(listed.output).as_array();
  ASSERT_EQ(questions.size(), 1U) << listed.output;
  const auto& question = questions[0].as_object();
  EXPECT_EQ(question.at("member").as_string(), "researcher");
  const std::string sub(question.at("dialog").as_object().at("selfId").as_string());
  const auto answered = run("answer " + sub + " " + std::string(question.at("id").as_string()) + " 'the CLI'" + data());
  ASSERT_EQ(answered.status, 0) << answered.output;
  EXPECT_NE(answered.output.find("3 sprints of 12 days are 864 hours."), std::string::npos) << answered.output;
  // `parley dialogs` lists roots; the subdialog's own state is in `show`.
  const auto sub_shown = run("show " + sub + " --json" + data());
  EXPECT_NE(sub_shown.output.find("\"status\":\"completed\""), std::string::npos) << sub_shown.output;
}

// A copy of the binary, started from another directory, still serves the web UI of the source
// tree it was built from (issue 24: `parley serve` finds its web UI from any directory).
TEST_F(Cli, ServeFindsItsWebUiFromAnyDirectory) {
  const fs::path dist = fs::path(PARLEY_SOURCE_DIR) / "web" / "dist" / "index.html";
  ASSERT_TRUE(fs::exists(dist)) << dist << " is missing: run npm run build in web/ (scripts/setup.sh does)";
  fs::create_directories(root_ / "elsewhere");
  fs::copy_file(PARLEY_BINARY, root_ / "elsewhere" / "parley-copy");
  // SIGINT once it has started: a graceful stop, after the lines this test reads.
  const std::string command = "cd " + (root_ / "elsewhere").string() + " && timeout -s INT 3 ./parley-copy serve" +
                              team() + data() + " --port 0 2>&1";
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) output.append(buffer.data(), n);
  pclose(pipe);
  EXPECT_NE(output.find("parley: serving http://"), std::string::npos) << output;
  EXPECT_EQ(output.find("no web UI found"), std::string::npos) << output;
}

// `parley providers` lists the built-in catalogue merged with llm.yaml, says whether each key
// variable is set and never prints a key; an unusable llm.yaml provider is noted once on stderr.
TEST_F(Cli, ProvidersListsTheCatalogueAndWhichKeysAreSet) {
  fs::create_directories(team_dir_ / ".minds");
  std::ofstream(team_dir_ / ".minds" / "team.yaml") << "members:\n  alice:\n    provider: deepseek\n";
  std::ofstream(team_dir_ / ".minds" / "llm.yaml")
      << "providers:\n  bedrock:\n    apiType: aws-bedrock\n    models: [titan]\n";
  const std::string where = " --workspace " + team_dir_.string() + data();
  ::setenv("KIMI_CODE_API_KEY", "sk-kimi-never-printed", 1);
  ::unsetenv("DEEPSEEK_API_KEY");
  auto out = run("providers" + where);
  EXPECT_EQ(out.output.find("sk-kimi-never-printed"), std::string::npos);
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find("parley: problem: " + (team_dir_ / ".minds" / "llm.yaml").string() +
                            ":2:3: providers.bedrock: skipped, not usable by Parley"),
            std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("deepseek (DeepSeek): anthropic-compatible as anthropic at "
                            "https://api.deepseek.com/anthropic/v1; key DEEPSEEK_API_KEY not set; 4 models; built-in; "
                            "used by alice\n"),
            std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("codex (Codex (ChatGPT)): codex at https://chatgpt.com/backend-api/codex; login from "),
            std::string::npos)
      << out.output;

  out = run("providers --json" + where);
  ::unsetenv("KIMI_CODE_API_KEY");
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_EQ(out.output.find("sk-kimi-never-printed"), std::string::npos);
  const auto at = out.output.find('[');
  ASSERT_NE(at, std::string::npos) << out.output;
  const auto list = boost::json::parse(out.output.substr(at)).as_array();
  bool saw_kimi = false;
  for (const auto& item : list) {
    const auto& provider = item.as_object();
    if (provider.at("id").as_string() != "kimi-code") continue;
    saw_kimi = true;
    EXPECT_EQ(provider.at("keyVariable").as_string(), "KIMI_CODE_API_KEY");
    EXPECT_TRUE(provider.at("keySet").as_bool());
    EXPECT_EQ(provider.at("apiType").as_string(), "openai-compatible");
    EXPECT_EQ(provider.at("models").as_array().at(0).at("contextWindow").as_int64(), 262144);
  }
  EXPECT_TRUE(saw_kimi);
  EXPECT_EQ(list.back().at("id").as_string(), "bedrock");
  EXPECT_FALSE(list.back().at("usable").as_bool());
}

// A member on a provider Parley cannot use (here one no catalogue or llm.yaml defines) is a problem,
// not a refused workspace: `parley check --workspace` lists it at the member's provider, exits 0
// and writes nothing; driving that member fails, naming the problem.
TEST_F(Cli, AMemberOnAnUnusableProviderIsAProblemAndFailsWhenDriven) {
  fs::create_directories(team_dir_ / ".minds");
  std::ofstream(team_dir_ / ".minds" / "team.yaml")
      << "member_defaults:\n  provider: nowhere\n  model: m\nmembers:\n  dev: {}\n";
  const std::string problem =
      (team_dir_ / ".minds" / "team.yaml").string() + ":2:13: member_defaults.provider: unknown provider 'nowhere' ";
  const auto checked = run("check --workspace " + team_dir_.string() + data());
  EXPECT_EQ(checked.status, 0) << checked.output;
  EXPECT_NE(checked.output.find("problem: " + problem), std::string::npos) << checked.output;
  EXPECT_NE(checked.output.find("1 member(s), 0 can be driven, 1 problem(s): the team can run"), std::string::npos)
      << checked.output;
  EXPECT_FALSE(fs::exists(data_));
  const auto out = run("run --workspace " + team_dir_.string() + data() + " hello");
  EXPECT_NE(out.status, 0);
  EXPECT_NE(out.output.find("parley: problem: " + problem), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("member 'dev' cannot be driven: provider 'nowhere' is not usable by Parley"),
            std::string::npos)
      << out.output;
}

// A Dominds toolset Parley has no tools for is a problem at the member's toolsets, saying what is
// missing; the toolset is left out and the team can run. `check` writes nothing.
TEST_F(Cli, ADomindsToolsetWithoutEquivalentIsAProblemAndTheTeamCanRun) {
  fs::create_directories(team_dir_ / ".minds");
  std::ofstream(team_dir_ / ".minds" / "team.yaml")
      << "member_defaults:\n  provider: deepseek\nmembers:\n  dev:\n    toolsets: [ws_read, fs_read]\n";
  const auto out = run("check --workspace " + team_dir_.string() + data());
  EXPECT_EQ(out.status, 0) << out.output;
  EXPECT_NE(out.output.find("problem: " + (team_dir_ / ".minds" / "team.yaml").string() +
                            ":5:5: members.dev.toolsets: toolset 'fs_read' (Dominds) has no equivalent in "
                            "Parley: it reads the machine's files outside the workspace"),
            std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("; left out, member 'dev' runs without it"), std::string::npos) << out.output;
  EXPECT_FALSE(fs::exists(data_));
}

// Invalid YAML stays an error with its position; check exits non-zero and writes nothing.
TEST_F(Cli, CheckOfAWorkspaceWhoseTeamYamlIsNotYamlFailsWithThePosition) {
  fs::create_directories(team_dir_ / ".minds");
  std::ofstream(team_dir_ / ".minds" / "team.yaml") << "members:\n  dev: [unclosed\n";
  const auto out = run("check --workspace " + team_dir_.string() + data());
  EXPECT_NE(out.status, 0);
  EXPECT_NE(out.output.find("parley: " + (team_dir_ / ".minds" / "team.yaml").string() + ":"), std::string::npos)
      << out.output;
  EXPECT_FALSE(fs::exists(data_));
}

}  // namespace
}  // namespace parley
