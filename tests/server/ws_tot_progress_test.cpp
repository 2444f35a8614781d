// A Tree of Thoughts run seen from outside (docs/tot.md): a WebSocket subscriber of the run's
// root learns of each thought as the search generates, values and prunes it (tot_progress_evt,
// in order, while the run is still going), and what the packets add up to is exactly the view
// GET /api/tot gives; a subscriber of another dialog hears nothing of it. Runs outlive the
// server: after a restart a finished run is listed from its log folder, and one cut off by a
// kill -9 is shown as interrupted, `parley tot --resume` finishes it, and its roots show that. A
// run a member starts with its tree_of_thoughts tool is found from its root as well, and its
// progress reaches its root's subscribers like a started run's.
#include <boost/json/serialize.hpp>

#include <sys/wait.h>

#include <csignal>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rest_fixture.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const json::value kPlanningRun{{"problem", "Where do we hold the launch?"},
                               {"taskType", "planning"},
                               {"strategy", "BFS"},
                               {"depth", 1},
                               {"breadth", 2}};

// A run's view as the packets build it, or as GET /api/tot gives it: nodes by id.
struct run_state {
  std::map<std::string, std::string> nodes;  // id → the node's JSON
  std::string status;
  std::string best_path;
  std::string final_solution;
  bool operator==(const run_state&) const = default;
};

// Applies one tot_progress_evt to the run it builds.
void fold(run_state& run, const json::object& packet) {
  run.status = packet.at("status").as_string();
  if (const auto* node = packet.if_contains("node"))
    run.nodes[std::string(node->at("id").as_string())] = json::serialize(*node);
  if (const auto* best = packet.if_contains("bestPath")) run.best_path = json::serialize(*best);
  if (const auto* solution = packet.if_contains("finalSolution")) run.final_solution = json::serialize(*solution);
}

run_state state_of_view(const json::value& view) {
  run_state out;
  for (const auto& node : view.at("nodes").as_array())
    out.nodes[std::string(node.at("id").as_string())] = json::serialize(node);
  out.status = view.at("status").as_string();
  out.best_path = json::serialize(view.at("bestPath"));
  if (const auto* solution = view.as_object().if_contains("finalSolution"))
    out.final_solution = json::serialize(*solution);
  return out;
}

// Runs the parley CLI with `args`; its exit status and what it printed.
std::pair<int, std::string> run_parley(const std::string& args) {
  const std::string command = std::string(PARLEY_BINARY) + " " + args + " 2>&1";
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return {-1, "popen failed"};
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

class tot_progress_fixture : public RestTest {
 protected:
  std::unique_ptr<ws_client> connect() {
    auto ws = std::make_unique<ws_client>();
    EXPECT_TRUE(ws->connect(server_->port(), ws_client::protocols_with_token(server_->token())));
    auto welcome = ws->next();
    EXPECT_TRUE(welcome && welcome->at("type") == "welcome");
    if (welcome) epoch_ = std::string(welcome->at("epoch").as_string());
    return ws;
  }
  // Subscribes from the start of the dialog's wire stream (replayed when it began earlier).
  void subscribe_from_start(ws_client& ws, const std::string& dialog) const {
    ws.send(json::object{
        {"type", "subscribe"}, {"dialog", json::object{{"selfId", dialog}}}, {"afterSeq", 0}, {"epoch", epoch_}});
  }
  json::value run_of_root(const std::string& root) const {
    const auto reply = client().get("/api/tot?rootDialog=" + root);
    EXPECT_EQ(reply.status, 200) << reply.body;
    const auto body = reply.json();
    if (!body.is_object() || body.at("runs").as_array().size() != 1) return json::value{};
    return body.at("runs").as_array()[0];
  }
  std::pair<std::string, std::string> start_run() {
    const auto reply = client().post("/api/tot", kPlanningRun);
    EXPECT_EQ(reply.status, 202) << reply.body;
    const auto body = reply.json();
    return {std::string(body.at("taskId").as_string()), std::string(body.at("rootDialog").as_string())};
  }
  void restart(int signal_number) {
    server_->terminate(signal_number);
    std::vector<std::string> args{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()};
    server_ = std::make_unique<server_process>(args);
    ASSERT_TRUE(server_->started()) << server_->output();
  }
  std::string epoch_;
};
using TotProgress = tot_progress_fixture;

TEST_F(TotProgress, TheRootsSubscriberSeesEachThoughtInOrderWhileTheRunSearchesAndTheirSumIsTheRestView) {
  start("tot_plan");
  auto bystander = connect();
  const std::string other = create_dialog("hello");
  subscribe_from_start(*bystander, other);
  auto ws = connect();
  const auto run = start_run();
  const std::string& task_id = run.first;
  const std::string& root = run.second;
  subscribe_from_start(*ws, root);

  run_state folded;
  std::vector<std::string> steps;
  std::int64_t last_seq = 0;
  bool running_when_pruned = false;
  while (steps.empty() || steps.back() != "finished") {
    auto packet = ws->next_of("tot_progress_evt", 30s);
    ASSERT_TRUE(packet) << "no tot_progress_evt after " << steps.size() << " steps";
    EXPECT_EQ(packet->at("dialog").at("selfId"), root.c_str());
    EXPECT_EQ(packet->at("taskId"), task_id.c_str());
    const auto seq = packet->at("seq").as_int64();
    EXPECT_GT(seq, last_seq) << "packets in order";
    last_seq = seq;
    steps.emplace_back(packet->at("step").as_string());
    fold(folded, *packet);
    // Progress is told as it happens: the thought pruned by the threshold is reported while the
    // synthesizer (about 2 s of reply) is still writing.
    if (steps.back() == "pruned" && !running_when_pruned)
      running_when_pruned = run_of_root(root).at("status") == "running";
  }
  const auto count = [&](const std::string& step) { return std::count(steps.begin(), steps.end(), step); };
  EXPECT_EQ(steps.front(), "started");
  EXPECT_EQ(count("generated"), 4) << "the problem and its three thoughts";
  EXPECT_EQ(count("evaluated"), 3);
  EXPECT_GE(count("pruned"), 1) << "the roof, under the threshold";
  EXPECT_EQ(count("finished"), 1);
  EXPECT_TRUE(running_when_pruned);
  EXPECT_EQ(folded.status, "solved");

  const auto view = run_of_root(root);
  EXPECT_EQ(folded, state_of_view(view)) << json::serialize(view);
  EXPECT_EQ(client().get("/api/tot/" + task_id).json(), view);

  // Nobody else hears of the run: the bystander's next packets (if any) are not about it.
  while (auto packet = bystander->next(200ms)) EXPECT_NE(packet->at("type"), "tot_progress_evt");
}

TEST_F(TotProgress, AFinishedRunIsListedAfterARestartFromItsLogFolderAsItWasBefore) {
  start("tot_plan");
  const auto run = start_run();
  const std::string& task_id = run.first;
  const std::string& root = run.second;
  ASSERT_TRUE(eventually([&] { return run_of_root(root).at("status") == "solved"; }));
  const auto before = run_of_root(root);
  restart(SIGTERM);
  const auto after = run_of_root(root);
  ASSERT_TRUE(after.is_object()) << "the run is still listed under its root";
  EXPECT_EQ(state_of_view(after), state_of_view(before)) << json::serialize(after);
  EXPECT_EQ(client().get("/api/tot/" + task_id).json(), after);
  EXPECT_EQ(client().get("/api/tot/tot-20250101-000000-abcdef").status, 404);
}

TEST_F(TotProgress, ARunAMemberStartedWithItsToolIsListedUnderItsRootToo) {
  start("tot_plan");
  const std::string asked = create_dialog("search for the launch place");
  ASSERT_TRUE(eventually_says(asked, "The search is done."));
  const auto roots = client().get("/api/dialogs?member=tot-orchestrator").json();
  ASSERT_EQ(roots.at("dialogs").as_array().size(), 1U) << json::serialize(roots);
  const std::string root(roots.at("dialogs").as_array()[0].at("id").as_string());
  const auto run = run_of_root(root);
  ASSERT_TRUE(run.is_object());
  EXPECT_EQ(run.at("status"), "solved");
  EXPECT_EQ(run.at("nodes").as_array().size(), 4U);
  EXPECT_EQ(run.at("finalSolution").at("answer"), "Book the town hall");
  // A root that is no run's has none, the lead's included.
  EXPECT_TRUE(client().get("/api/tot?rootDialog=" + asked).json().at("runs").as_array().empty());
}

TEST_F(TotProgress, ARunAMemberStartedWithItsToolIsReportedOnItsRootLikeAStartedOne) {
  start("tot_plan");
  const std::string asked = create_dialog("search for the launch place");
  std::string root;
  ASSERT_TRUE(eventually([&] {
    const auto roots = client().get("/api/dialogs?member=tot-orchestrator").json();
    if (roots.at("dialogs").as_array().empty()) return false;
    root = roots.at("dialogs").as_array()[0].at("id").as_string();
    return true;
  }));
  auto ws = connect();
  subscribe_from_start(*ws, root);
  run_state folded;
  std::vector<std::string> steps;
  while (steps.empty() || steps.back() != "finished") {
    auto packet = ws->next_of("tot_progress_evt", 30s);
    ASSERT_TRUE(packet) << "no tot_progress_evt after " << steps.size() << " steps";
    EXPECT_EQ(packet->at("dialog").at("selfId"), root.c_str());
    steps.emplace_back(packet->at("step").as_string());
    fold(folded, *packet);
  }
  EXPECT_EQ(steps.front(), "started");
  EXPECT_EQ(std::count(steps.begin(), steps.end(), "evaluated"), 3);
  EXPECT_EQ(folded.status, "solved");
  EXPECT_EQ(folded, state_of_view(run_of_root(root)));
  ASSERT_TRUE(eventually_says(asked, "The search is done."));
}

TEST_F(TotProgress, ARunCutOffByAKillIsInterruptedAfterTheRestartAndResumesToTheEnd) {
  start("tot_plan");
  const auto run = start_run();
  const std::string& task_id = run.first;
  const std::string& root = run.second;
  // Killed while the synthesizer writes: the scored thoughts are logged, the answer is not.
  ASSERT_TRUE(eventually([&] {
    const auto view = run_of_root(root);
    return view.at("status") == "running" && view.at("nodes").as_array().size() == 4 &&
           std::filesystem::exists(team_dir_ / "workspace" / "logs" / task_id / "03-explorer.log");
  }));
  restart(SIGKILL);
  const auto interrupted = run_of_root(root);
  ASSERT_TRUE(interrupted.is_object());
  EXPECT_EQ(interrupted.at("status"), "interrupted");
  EXPECT_EQ(interrupted.at("taskId"), task_id.c_str());
  EXPECT_EQ(interrupted.at("nodes").as_array().size(), 4U) << json::serialize(interrupted);
  EXPECT_FALSE(interrupted.as_object().contains("finalSolution"));

  // `parley tot --resume` (the server stopped: one process per store) answers the logged calls
  // from the log and finishes; the restarted server shows the run solved, under both roots.
  server_->terminate();
  const auto [status, output] = run_parley("tot --resume " + task_id + " --team " + (team_dir_ / "team.yaml").string() +
                                           " --data " + data_dir().string());
  EXPECT_EQ(status, 0) << output;
  std::vector<std::string> args{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()};
  server_ = std::make_unique<server_process>(args);
  ASSERT_TRUE(server_->started()) << server_->output();
  const auto resumed = run_of_root(root);
  ASSERT_TRUE(resumed.is_object());
  EXPECT_EQ(resumed.at("status"), "solved") << json::serialize(resumed);
  EXPECT_EQ(resumed.at("finalSolution").at("answer"), "Book the town hall");
  EXPECT_NE(resumed.at("rootDialog"), root.c_str()) << "the resume ran under a root of its own";
  EXPECT_EQ(run_of_root(std::string(resumed.at("rootDialog").as_string())), resumed);
}

}  // namespace
}  // namespace parley::test
