// Black-box: starting and stopping `parley serve` — bad flags, interrupting a running generation,
// SIGTERM while a generation runs (exit 0, the log intact and the partial output kept), and a
// restart that serves what the previous process stored.
#include <filesystem>
#include <fstream>

#include "parley/store/store.hpp"
#include "rest_fixture.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

// Watches the dialog over the WebSocket until its first saying chunk has streamed.
bool first_chunk_streamed(std::uint16_t port, const std::string& token, const std::string& id) {
  ws_client live;
  if (!live.connect(port, ws_client::protocols_with_token(token))) return false;
  live.send(boost::json::object{{"type", "subscribe"}, {"dialog", boost::json::object{{"selfId", id}}}});
  const bool streamed = live.next_of("saying_chunk_evt").has_value();
  live.drop();  // a silent WebSocket peer would delay a shutdown by the close timeout
  return streamed;
}

int run_serve(const std::string& args, std::string* output = nullptr) {
  const std::string command = std::string(PARLEY_BINARY) + " serve " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  const int status = pclose(pipe);
  if (output != nullptr) *output = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(ServeFlags, BadFlagsExitWithStatus2AndOneLine) {
  const std::string team = " --team " + std::string(PARLEY_SOURCE_DIR) + "/tests/server/teams/q4h/team.yaml";
  std::string output;
  EXPECT_EQ(run_serve("--port 70000" + team, &output), 2);
  EXPECT_NE(output.find("--port"), std::string::npos) << output;
  EXPECT_EQ(std::count(output.begin(), output.end(), '\n'), 1) << output;
  EXPECT_EQ(run_serve("--port abc" + team, &output), 2);
  EXPECT_EQ(run_serve("--bogus 1" + team, &output), 2);
  EXPECT_EQ(run_serve("--web /no/such/dir" + team, &output), 2);
  EXPECT_NE(output.find("--web"), std::string::npos) << output;
  EXPECT_EQ(run_serve("extra-positional" + team, &output), 2);
  EXPECT_EQ(run_serve("--team /no/such/team.yaml --port 0", &output), 2);
}

TEST_F(RestTest, InterruptStopsARunningGenerationAndKeepsItsPartialOutput) {
  start("slow");
  const auto id = create_dialog("talk slowly");
  ASSERT_TRUE(first_chunk_streamed(server_->port(), server_->token(), id));  // so there is a partial saying to keep
  const auto reply = client().post("/api/dialogs/" + id + "/interrupt", std::string(""));
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.json().at("stopped"), true);
  ASSERT_TRUE(eventually([&] { return settled(id); }));
  const auto list = messages(id);
  ASSERT_EQ(list.size(), 2U);
  EXPECT_EQ(list[1].at("interrupted"), true);
  // A stopped generation is what resume is for: it is offered, and taken.
  const auto summary = dialog(id).at("dialog");
  EXPECT_EQ(summary.at("resumable"), true);
  EXPECT_EQ(summary.at("resumeReason"), "interrupted");
  const auto resumed = client().post("/api/dialogs/" + id + "/resume", std::string(""));
  EXPECT_EQ(resumed.status, 202) << resumed.body;
  EXPECT_TRUE(eventually([&] { return dialog(id).at("dialog").at("generating") == true; }));
  EXPECT_EQ(client().post("/api/dialogs/" + id + "/interrupt", std::string("")).status, 200);
}

TEST_F(RestTest, SigtermWhileGeneratingExitsZeroWithTheLogIntact) {
  start("slow");
  const auto id = create_dialog("talk slowly");
  ASSERT_TRUE(first_chunk_streamed(server_->port(), server_->token(), id));  // so there is a partial saying to keep
  // A keep-alive connection left open must not hold the shutdown up.
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket idle(io);
  idle.connect({boost::asio::ip::make_address("127.0.0.1"), server_->port()});

  EXPECT_EQ(server_->terminate(SIGTERM), 0) << server_->output();
  EXPECT_NE(server_->output().find("shutting down"), std::string::npos);

  auto log = open_sqlite_store(data_dir().string());
  ASSERT_TRUE(log) << log.err().message;
  auto row = (*log)->get_dialog(id);
  ASSERT_TRUE(row && *row);
  EXPECT_FALSE((*row)->generating);
  auto stored = (*log)->messages(id, 0);
  ASSERT_TRUE(stored);
  ASSERT_EQ(stored->size(), 2U);
  EXPECT_EQ((*stored)[0].content, "talk slowly");
  EXPECT_TRUE((*stored)[1].interrupted);
  EXPECT_FALSE((*stored)[1].content.empty());  // the partial saying was kept
  auto events = (*log)->read_events(id);
  ASSERT_TRUE(events);
  EXPECT_FALSE(events->empty());
}

TEST_F(RestTest, ARestartServesWhatThePreviousProcessStored) {
  start("q4h");
  const auto id = create_dialog("remember this across restarts");
  ASSERT_TRUE(eventually_says(id, "noted"));
  ASSERT_EQ(server_->terminate(SIGINT), 0) << server_->output();
  server_ = std::make_unique<server_process>(
      std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
  ASSERT_TRUE(server_->started()) << server_->output();
  EXPECT_EQ(dialog(id).at("dialog").at("id"), id.c_str());
  EXPECT_EQ(client().get("/api/dialogs/" + id + "/reminders").json().at("reminders").as_array().size(), 1U);
  EXPECT_EQ(messages(id).size(), 4U);  // user, add_reminder call, its result, "noted"
  EXPECT_EQ(server_->terminate(), 0);
}

// A database file replaced under the running server (as one write_file into the data directory
// would, were the tools not refusing it): the next input fails, and /api/status says why.
TEST_F(RestTest, ADatabaseReplacedUnderTheServerIsReportedAndRefusesWrites) {
  start("q4h");
  const auto id = create_dialog("remember this");
  ASSERT_TRUE(eventually_says(id, "noted"));
  EXPECT_EQ(client().get("/api/status").json().at("store"), (boost::json::object{{"ok", true}, {"stalledDialogs", 0}}));
  const auto db = data_dir() / "parley.db";
  std::ofstream(data_dir() / "other.db") << "x";
  std::filesystem::rename(data_dir() / "other.db", db);
  const auto refused = client().post("/api/dialogs", boost::json::value{{"content", "and this"}});
  EXPECT_NE(refused.status, 201) << refused.body;
  EXPECT_NE(refused.body.find(db.string() + " was replaced by another file"), std::string::npos) << refused.body;
  const auto store = client().get("/api/status").json().at("store");
  EXPECT_EQ(store.at("ok"), false);
  EXPECT_NE(std::string(store.at("problem").as_string()).find(db.string() + " was replaced"), std::string::npos)
      << store;
  EXPECT_EQ(dialog(id).at("dialog").at("id"), id.c_str());  // reads still answer
  (void)server_->terminate();
}

}  // namespace
}  // namespace parley::test
