// `parley serve --read-priority`: the store's read thread as a background thread (SCHED_IDLE), so
// that records queries never keep the event loop waiting for a core (bench/README.md, "Store reads
// off the event loop"), and still answering every read.
#include <sched.h>

#include <fstream>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

// The scheduling policy of the server's thread named `name`, or -1 when it has none.
int policy_of_thread(pid_t pid, const std::string& name) {
  const std::filesystem::path tasks = "/proc/" + std::to_string(pid) + "/task";
  for (const auto& task : std::filesystem::directory_iterator(tasks)) {
    std::ifstream comm(task.path() / "comm");
    std::string shown;
    std::getline(comm, shown);
    if (shown == name) return ::sched_getscheduler(std::stoi(task.path().filename().string()));
  }
  return -1;
}

TEST_F(RestTest, ABackgroundReadThreadIsAnIdlePolicyThreadAndStillAnswersEveryRead) {
  start("q4h", {"--read-priority", "background"});
  const auto id = create_dialog("first words");
  ASSERT_TRUE(eventually_says(id, "ok: first words"));
  // The transcript and the listing are read on the read thread.
  const auto transcript = client().get("/api/dialogs/" + id + "/transcript");
  ASSERT_EQ(transcript.status, 200) << transcript.body;
  EXPECT_EQ(transcript.json().at("messages").at(0).at("content"), "first words");
  ASSERT_EQ(client().get("/api/dialogs").status, 200);
  EXPECT_EQ(policy_of_thread(server_->pid(), "parley-reads"), SCHED_IDLE);
  EXPECT_EQ(policy_of_thread(server_->pid(), "parley-writer"), SCHED_OTHER);
  EXPECT_EQ(policy_of_thread(server_->pid(), "parley-reads-fb"), -1);
}

TEST_F(RestTest, ByDefaultTheReadThreadIsIdlePolicyWithAnOrdinaryFallbackThread) {
  start("q4h");
  const auto id = create_dialog("some words");
  ASSERT_TRUE(eventually_says(id, "ok: some words"));
  ASSERT_EQ(client().get("/api/dialogs/" + id + "/transcript").status, 200);
  EXPECT_EQ(policy_of_thread(server_->pid(), "parley-reads"), SCHED_IDLE);
  EXPECT_EQ(policy_of_thread(server_->pid(), "parley-reads-fb"), SCHED_OTHER);
}

TEST_F(RestTest, ANormalReadThreadIsAnOrdinaryThreadWithoutAFallback) {
  start("q4h", {"--read-priority", "normal"});
  const auto id = create_dialog("some words");
  ASSERT_TRUE(eventually_says(id, "ok: some words"));
  ASSERT_EQ(client().get("/api/dialogs/" + id + "/transcript").status, 200);
  EXPECT_EQ(policy_of_thread(server_->pid(), "parley-reads"), SCHED_OTHER);
  EXPECT_EQ(policy_of_thread(server_->pid(), "parley-reads-fb"), -1);
}

TEST_F(RestTest, RefusesAReadPriorityItDoesNotKnowNamingTheFlag) {
  server_process refused({"--team",
                          (std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/q4h/team.yaml").string(),
                          "--data", data_dir().string(), "--read-priority", "urgent"});
  EXPECT_FALSE(refused.started());
  EXPECT_NE(refused.output().find("--read-priority: expected adaptive, normal or background, got 'urgent'"),
            std::string::npos)
      << refused.output();
  EXPECT_FALSE(std::filesystem::exists(data_dir() / "parley.db"));
}

}  // namespace
}  // namespace parley::test
