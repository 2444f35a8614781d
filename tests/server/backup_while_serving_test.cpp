// `parley backup` against a running server that keeps writing: the copy is consistent (`parley
// check` finds nothing wrong in it), it holds every dialog whose creation was acknowledged before
// the backup started, and the server goes on serving from its own store throughout.
#include <array>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <thread>

#include <sys/wait.h>

#include "parley/store/store.hpp"
#include "rest_fixture.hpp"
#include "support/cli_runner.hpp"

namespace parley::test {
namespace {

using parley::testing::run_cli;

using backup_while_serving = RestTest;
using BackupWhileServing = backup_while_serving;

TEST_F(BackupWhileServing, ACopyTakenWhileTheServerWritesIsConsistentAndHoldsEveryAcknowledgedDialog) {
  start("q4h");
  std::mutex mutex;
  std::vector<std::string> created;
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      const auto reply = client().post("/api/dialogs", boost::json::value{{"content", "task " + std::to_string(i)}});
      if (reply.status != 201) continue;
      std::lock_guard lock(mutex);
      created.emplace_back(reply.json().at("dialog").at("id").as_string());
    }
  });
  // Let the writer get going so that the copy is taken in the middle of its commits.
  while (true) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard lock(mutex);
    if (created.size() >= 10) break;
  }
  std::vector<std::string> acknowledged_before;
  {
    std::lock_guard lock(mutex);
    acknowledged_before = created;
  }
  const auto dest = root_ / "backup";
  const auto backed_up = run_cli("backup " + dest.string() + " --data " + data_dir().string());
  stop = true;
  writer.join();
  ASSERT_EQ(backed_up.status, 0) << backed_up.output;
  EXPECT_NE(backed_up.output.find("backed up "), std::string::npos) << backed_up.output;

  const auto checked = run_cli("check --data " + dest.string());
  EXPECT_EQ(checked.status, 0) << checked.output;
  EXPECT_NE(checked.output.find(": ok"), std::string::npos) << checked.output;
  auto copy = open_sqlite_store(dest.string());
  ASSERT_TRUE(copy) << copy.err().message;
  for (const auto& id : acknowledged_before) {
    const auto row = (*copy)->get_dialog(id);
    ASSERT_TRUE(row && row->has_value()) << "dialog " << id << " acknowledged before the backup is not in it";
    EXPECT_GE((*row)->message_count, 1) << id;  // created with its first message, in one commit
  }
  // The live store is the server's still.
  EXPECT_EQ(client().get("/api/dialogs?limit=1").status, 200);

  // A second backup to the same place never overwrites the first.
  const auto again = run_cli("backup " + dest.string() + " --data " + data_dir().string());
  EXPECT_EQ(again.status, 1) << again.output;
  EXPECT_NE(again.output.find("already holds a store"), std::string::npos) << again.output;
}

TEST_F(BackupWhileServing, AnUnwritableDestinationFailsWithAClearErrorAndLeavesTheStoreAlone) {
  start("q4h");
  const auto id = create_dialog("keep me");
  ASSERT_TRUE(eventually_says(id, "ok: keep me"));
  std::ofstream(root_ / "file") << "x";
  const auto dest = root_ / "file" / "backup";  // a directory cannot be made inside a file
  const auto out = run_cli("backup " + dest.string() + " --data " + data_dir().string());
  EXPECT_EQ(out.status, 1) << out.output;
  EXPECT_NE(out.output.find("backup to " + dest.string() + ": cannot create the directory"), std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("the store itself is untouched"), std::string::npos) << out.output;
  EXPECT_EQ(client().get("/api/dialogs/" + id).status, 200);
  const auto posted = client().post("/api/dialogs/" + id + "/messages", boost::json::value{{"content", "still here"}});
  EXPECT_EQ(posted.status, 202) << posted.body;
}

}  // namespace
}  // namespace parley::test
