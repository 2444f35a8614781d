// One store, many processes (issue 36): CLI verbs run on the data directory of a running server
// while it writes. The verbs that only read read a snapshot and write nothing; the verbs that write
// go through the server's API; a second writer is refused naming the holder. The server answers no
// 5xx, loses nothing, and `parley check` finds the store clean. scripts/many_processes.sh runs the
// same loop for as long as asked.
#include <array>
#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#include <sys/wait.h>

#include "rest_fixture.hpp"
#include "support/cli_runner.hpp"

namespace parley::test {
namespace {

using parley::testing::run_cli;

class ManyProcesses : public RestTest {
 protected:
  std::string data() const { return " --data " + data_dir().string(); }
};

TEST_F(ManyProcesses, EveryCliVerbBesideAWritingServerLeavesItHealthyAndTheStoreClean) {
  start("q4h");
  // `say` writes to a dialog of its own: were the writer's "more N" to land in the same dialog
  // meanwhile, one reply would answer both, and the terminal's message would have none of its own.
  const auto said_to = create_dialog("for the terminal");
  ASSERT_TRUE(eventually_says(said_to, "ok: for the terminal"));
  std::mutex mutex;
  std::vector<std::string> created;
  std::atomic<int> server_errors{0};
  std::atomic<bool> stop{false};
  // The server writes all the time: new dialogs, and messages to them. Past kMaxDialogs it only
  // adds messages, so the store — and with it what `check` and `export` read each round — stops
  // growing with the speed of the machine: on a busy one the rounds would otherwise slow each other
  // down without end.
  constexpr std::size_t kMaxDialogs = 40;
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      std::string id;
      {
        std::lock_guard lock(mutex);
        if (created.size() >= kMaxDialogs) id = created[static_cast<std::size_t>(i) % created.size()];
      }
      if (id.empty()) {
        const auto reply = client().post("/api/dialogs", boost::json::value{{"content", "task " + std::to_string(i)}});
        if (reply.status >= 500) ++server_errors;
        if (reply.status != 201) continue;
        id = std::string(reply.json().at("dialog").at("id").as_string());
        std::lock_guard lock(mutex);
        created.push_back(id);
      }
      const auto posted = client().post("/api/dialogs/" + id + "/messages",
                                        boost::json::value{{"content", "more " + std::to_string(i)}});
      if (posted.status >= 500) ++server_errors;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a steady load, not a flood
    }
  });
  const auto some_dialog = [&] {
    while (true) {
      {
        std::lock_guard lock(mutex);
        if (!created.empty()) return created.back();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  };
  for (int round = 0; round < 6; ++round) {
    const std::string id = some_dialog();
    const std::vector<std::string> reading_verbs{
        "dialogs",
        "dialogs --json",
        "show " + id,
        "show " + id + " --json",
        "check",
        "questions",
        "questions --json",
        "registry " + id,
        "export --rtws " + (root_ / ("rtws" + std::to_string(round))).string()};
    for (const std::string& verb : reading_verbs) {
      const auto out = run_cli(verb + data());
      EXPECT_EQ(out.status, 0) << "parley " << verb << ":\n" << out.output;
    }
    // A verb that writes goes through the server and says so.
    const auto said = run_cli("say " + said_to + " \"from the terminal " + std::to_string(round) + "\"" + data());
    EXPECT_EQ(said.status, 0) << said.output;
    EXPECT_NE(said.output.find("sent through the running server (pid "), std::string::npos) << said.output;
    EXPECT_NE(said.output.find("ok: from the terminal " + std::to_string(round)), std::string::npos) << said.output;
    const auto status = client().get("/api/status");
    ASSERT_EQ(status.status, 200) << status.body;
    EXPECT_TRUE(status.json().at("store").at("ok").as_bool()) << status.body;
  }
  stop = true;
  writer.join();
  EXPECT_EQ(server_errors.load(), 0);
  // Nothing acknowledged was lost: every created dialog answers.
  for (const auto& id : created) EXPECT_EQ(client().get("/api/dialogs/" + id).status, 200) << id;
  const auto checked = run_cli("check" + data());
  EXPECT_EQ(checked.status, 0) << checked.output;
  EXPECT_NE(checked.output.find("checked: ok"), std::string::npos) << checked.output;
  // And the server stops cleanly: its store never failed.
  EXPECT_EQ(server_->terminate(), 0) << server_->output();
}

TEST_F(ManyProcesses, ASecondServerAndTheVerbsThatRewriteTheStoreAreRefusedNamingTheHolder) {
  start("q4h");
  const auto second = run_cli("serve --team " + (team_dir_ / "team.yaml").string() + " --port 0" + data());
  EXPECT_EQ(second.status, 1) << second.output;
  EXPECT_NE(second.output.find("is in use by pid "), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("(parley serve at http://127.0.0.1:"), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("one process writes a store at a time"), std::string::npos) << second.output;
  const auto repaired = run_cli("repair" + data());
  EXPECT_EQ(repaired.status, 1) << repaired.output;
  EXPECT_NE(repaired.output.find("is in use by pid "), std::string::npos) << repaired.output;
  // The server never noticed.
  const auto id = create_dialog("still serving");
  EXPECT_TRUE(eventually_says(id, "ok: still serving"));
}

TEST_F(ManyProcesses, TheWritingVerbsGoThroughTheServer) {
  start("q4h");
  const auto ran = run_cli("run delegate" + data());
  ASSERT_EQ(ran.status, 0) << ran.output;
  EXPECT_NE(ran.output.find("run: sent through the running server"), std::string::npos) << ran.output;
  EXPECT_NE(ran.output.find("1 question waits for you"), std::string::npos) << ran.output;
  const auto questions = client().get("/api/questions").json().at("questions").as_array();
  ASSERT_EQ(questions.size(), 1U);
  const std::string sub(questions[0].at("dialog").at("selfId").as_string());
  const std::string question(questions[0].at("id").as_string());
  const std::string root(questions[0].at("dialog").at("rootId").as_string());
  const auto answered = run_cli("answer " + sub + " " + question + " Friday" + data());
  ASSERT_EQ(answered.status, 0) << answered.output;
  EXPECT_NE(answered.output.find("answer: sent through the running server"), std::string::npos) << answered.output;
  EXPECT_TRUE(eventually_says(root, "Trip booked: 【最终完成】\nbooked for Friday")) << answered.output;
  const auto done = run_cli("complete " + root + data());
  EXPECT_EQ(done.status, 0) << done.output;
  EXPECT_NE(done.output.find(root + " is completed"), std::string::npos) << done.output;
  const auto reopened = run_cli("reopen " + root + data());
  EXPECT_EQ(reopened.status, 0) << reopened.output;
  EXPECT_NE(reopened.output.find(root + " is running"), std::string::npos) << reopened.output;
  // What the server refuses comes back as the verb's error, with the server's words (a 409: a
  // runtime failure, exit 1).
  const auto refused = run_cli("answer " + sub + " " + question + " again" + data());
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_NE(refused.output.find("parley: question " + question + " of dialog " + sub + " was already answered"),
            std::string::npos)
      << refused.output;
}

TEST_F(ManyProcesses, OutputFromOutsideReachesTheTerminalEscaped) {
  start("q4h");
  const auto id = create_dialog("x\u0001y\u001b[31m.txt");
  ASSERT_TRUE(eventually_says(id, "ok: x\u0001y\u001b[31m.txt"));
  const auto shown = run_cli("show " + id + data());
  ASSERT_EQ(shown.status, 0) << shown.output;
  EXPECT_EQ(shown.output.find('\x1b'), std::string::npos) << shown.output;
  EXPECT_EQ(shown.output.find('\x01'), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("x\\x01y\\x1b[31m.txt"), std::string::npos) << shown.output;
  // JSON output keeps the text exactly, escaped the JSON way.
  const auto json = run_cli("show " + id + " --json" + data());
  EXPECT_NE(json.output.find("x\\u0001y\\u001b[31m.txt"), std::string::npos) << json.output;
}

TEST_F(ManyProcesses, ANameOrTitleWithAControlCharacterIsRefusedAndContentKeepsIt) {
  start("q4h");
  const auto titled =
      client().post("/api/dialogs", boost::json::value{{"content", "hello"}, {"title", std::string("t\0t", 3)}});
  EXPECT_EQ(titled.status, 400) << titled.body;
  EXPECT_EQ(code_of(titled), "bad_field");
  EXPECT_NE(message_of(titled).find("title: control character U+0000 at byte 1"), std::string::npos) << titled.body;
  const auto before = client().get("/api/dialogs").json().at("dialogs").as_array().size();
  EXPECT_EQ(before, 0U);
  const auto kept = client().post("/api/dialogs", boost::json::value{{"content", std::string("a\0b", 3)}});
  ASSERT_EQ(kept.status, 201) << kept.body;
  const std::string id(kept.json().at("dialog").at("id").as_string());
  const auto list = messages(id);
  ASSERT_FALSE(list.empty());
  EXPECT_EQ(std::string(list.front().at("content").as_string()), std::string("a\0b", 3));
}

}  // namespace
}  // namespace parley::test
