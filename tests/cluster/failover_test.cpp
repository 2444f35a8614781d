// Three `parley serve` nodes on one PostgreSQL (issue 38 item 5): root dialogs with subdialogs and
// open questions in flight; one node is killed with SIGKILL mid-stream, or paused with SIGSTOP past
// its lease and then continued. Every dialog finishes on the nodes left, no model round is answered
// twice into the log, no acknowledged dialog is lost, every dialog's seqs run 1..n without a gap or
// a repeat (a stale append would break that), and `parley check` finds the store clean.
#include <gtest/gtest.h>
#include <signal.h>

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "cluster_fixture.hpp"
#include "support/cli_runner.hpp"

namespace parley::test {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

constexpr int kNodes = 3;
constexpr int kRoots = 300;

class Failover : public ClusterTest {
 protected:
  Failover() : ClusterTest(kNodes) {}

  // kRoots roots, round robin over the nodes; every tenth asks the human first. Their ids.
  std::vector<std::string> create_roots() {
    std::vector<std::string> ids;
    for (int i = 0; i < kRoots; ++i) {
      const std::string content = "task " + std::to_string(i) + (i % 10 == 0 ? " (check with the human first)" : "");
      const auto reply = client(i % kNodes).post("/api/dialogs", json::value{{"content", content}});
      EXPECT_EQ(reply.status, 201) << reply.body;
      if (reply.status == 201 && reply.json().is_object())
        ids.emplace_back(reply.json().at("dialog").at("id").as_string());
    }
    return ids;
  }

  // Answers every open question through the live nodes in turn; how many it answered.
  int answer_questions(const std::set<int>& live) {
    int answered = 0;
    for (const int i : live) {
      const auto listed = client(i).get("/api/questions");
      const auto body = listed.json();
      if (listed.status != 200 || !body.is_object()) {
        ADD_FAILURE() << "GET /api/questions on node " << i << ": " << listed.status << " " << listed.body;
        continue;
      }
      for (const auto& q : body.at("questions").as_array()) {
        const std::string dialog(q.at("dialog").at("selfId").as_string());
        const std::string id(q.at("id").as_string());
        const auto reply = client(i).post("/api/dialogs/" + dialog + "/answer",
                                          json::value{{"questionId", id}, {"content", "go ahead"}});
        if (reply.status == 202) ++answered;
      }
    }
    return answered;
  }

  // How many roots have the lead's final answer.
  static std::size_t finished(store& log, const std::vector<std::string>& roots) {
    std::size_t done = 0;
    for (const auto& root : roots) {
      auto messages = log.messages(root, 0);
      if (!messages || messages->empty()) continue;
      const auto& last = messages->back();
      if (last.role == events::message_role::assistant && last.content == "All done: the worker reported back.") ++done;
    }
    return done;
  }

  // Drives the run to its end: answers questions as they come, until every root is finished.
  void wait_until_all_finished(const std::vector<std::string>& roots, const std::set<int>& live) {
    auto log = open_store();
    ASSERT_TRUE(log);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(8);
    std::size_t done = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      answer_questions(live);
      done = finished(*log, roots);
      if (done == roots.size()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    ADD_FAILURE() << done << " of " << roots.size() << " roots finished";
  }

  // The log's invariants over every dialog.
  void expect_log_sound(const std::vector<std::string>& roots) {
    auto log = open_store();
    ASSERT_TRUE(log);
    auto all = log->read_all_events();
    ASSERT_TRUE(all) << all.err().message;
    std::map<std::string, std::vector<std::int64_t>> seqs;
    std::map<std::pair<std::string, std::int64_t>, int> answered_rounds;
    for (const auto& ev : *all) {
      seqs[ev.dialog_id].push_back(ev.seq);
      if (const auto* finished = ev.as<events::generation_finished>(); finished != nullptr && !finished->interrupted) {
        ++answered_rounds[{ev.dialog_id, finished->genseq}];
      }
    }
    for (const auto& [dialog, list] : seqs) {
      std::vector<std::int64_t> sorted = list;
      std::sort(sorted.begin(), sorted.end());
      for (std::size_t i = 0; i < sorted.size(); ++i) {
        ASSERT_EQ(sorted[i], static_cast<std::int64_t>(i + 1)) << "dialog " << dialog << ": seqs not 1..n";
      }
    }
    for (const auto& [round, count] : answered_rounds) {
      EXPECT_EQ(count, 1) << "dialog " << round.first << " round " << round.second << " answered " << count << " times";
    }
    for (const auto& root : roots) EXPECT_TRUE(seqs.count(root) != 0) << "acknowledged root " << root << " is lost";
    // And the tool every node would run on it.
    const auto checked = parley::testing::run_cli("check --store '" + url_ + "'");
    EXPECT_EQ(checked.status, 0) << checked.output;
    EXPECT_NE(checked.output.find(": ok"), std::string::npos) << checked.output;
  }
};

TEST_F(Failover, ANodeKilledMidStreamHasItsTreesFinishedByTheOthersWithNothingTwice) {
  const auto roots = create_roots();
  ASSERT_EQ(roots.size(), static_cast<std::size_t>(kRoots));
  // Node 0 is in the middle of its trees' generations when it dies: its last roots were created
  // a moment ago.
  ::kill(node(0).pid(), SIGKILL);
  node(0).exit_status_within(std::chrono::seconds(10));
  {
    auto log = open_store();
    ASSERT_TRUE(log);
    EXPECT_LT(finished(*log, roots), roots.size()) << "the kill came after every tree was done";
  }
  wait_until_all_finished(roots, {1, 2});
  expect_log_sound(roots);
}

TEST_F(Failover, ANodePausedPastItsLeaseLandsNothingStaleWhenItGoesOn) {
  const auto roots = create_roots();
  ASSERT_EQ(roots.size(), static_cast<std::size_t>(kRoots));
  ::kill(node(1).pid(), SIGSTOP);
  // The trees node 1 holds that owe work: the lease rows with its pid in the owner's name.
  const std::string held_by_paused =
      "SELECT count(*) FROM tree_leases l WHERE l.owner LIKE '%:" + std::to_string(node(1).pid()) +
      ":%' AND EXISTS (SELECT 1 FROM dialogs d WHERE d.root_id = l.root_id AND "
      "(d.generating OR d.needs_drive) AND d.open_questions = 0)";
  EXPECT_GT(count_of(held_by_paused), 0) << "node 1 held no tree with work when it was paused";
  // Twice the lease (3 s): the others take its trees over with a higher epoch meanwhile.
  std::this_thread::sleep_for(std::chrono::seconds(7));
  EXPECT_EQ(count_of(held_by_paused), 0) << "trees of the paused node were not taken over";
  ::kill(node(1).pid(), SIGCONT);
  wait_until_all_finished(roots, {0, 1, 2});
  expect_log_sound(roots);
}

}  // namespace
}  // namespace parley::test
