// `parley diff` and `parley eval` over REST (docs/eval.md "Over REST"): GET /api/diff aligns two
// roots the caller may see (another user's is 404, as on every route); the eval runs of the data
// directory are listed and read.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rest_fixture.hpp"
#include "test_users.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;
constexpr const char* kOlga = "olga-token-0123456789abcdef";  // an operator: sees what no human takes part in

class EvalRest : public RestTest {
 protected:
  void SetUp() override {
    RestTest::SetUp();
    const std::string users = (root_ / "users.yaml").string();
    std::ofstream(users) << "users:\n"
                         << "  - {id: ann, name: Ann, token: " << kAnn << "}\n"
                         << "  - {id: ben, name: Ben, token: " << kBen << "}\n"
                         << "  - {id: olga, name: Olga, operator: true, token: " << kOlga << "}\n";
    ::chmod(users.c_str(), 0600);
    start("q4h", {"--users", users});
  }
  rest_client as(const char* token) const { return rest_client(server_->port(), token); }
  std::string create(const std::string& content) {
    const auto reply = as(kAnn).post("/api/dialogs", json::value{{"content", content}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    const auto parsed = reply.json();
    if (!parsed.is_object() || !parsed.as_object().contains("dialog")) return {};
    return std::string(parsed.at("dialog").at("id").as_string());
  }
  bool settled(const std::string& id, const std::string& text) const {
    return eventually([&] {
      const auto body = as(kAnn).get("/api/dialogs/" + id + "/transcript").json();
      if (!body.is_object()) return false;
      const auto& list = body.at("messages").as_array();
      return !list.empty() && list.back().at("content") == text.c_str();
    });
  }
};

TEST_F(EvalRest, DiffAlignsTwoRootsOfTheCallerAndHidesAnotherUsersAsNotFound) {
  const auto a = create("hello");
  const auto b = create("remember");
  ASSERT_TRUE(settled(a, "ok: hello"));
  ASSERT_TRUE(settled(b, "noted"));

  const auto reply = as(kAnn).get("/api/diff?a=" + a + "&b=" + b);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto body = reply.json();
  EXPECT_EQ(body.at("a").as_string(), a.c_str());
  EXPECT_FALSE(body.at("identical").as_bool());
  EXPECT_EQ(body.at("firstParting").at("path").as_string(), "@lead");
  EXPECT_EQ(body.at("firstParting").at("step").as_int64(), 0);
  EXPECT_EQ(body.at("dialogs").at(0).at("steps").at(0).at("b").at("name").as_string(), "add_reminder");
  EXPECT_EQ(body.at("members").at("lead").at("b").at("rounds").as_int64(), 2);

  EXPECT_EQ(as(kBen).get("/api/diff?a=" + a + "&b=" + b).status, 404);
  EXPECT_EQ(as(kAnn).get("/api/diff?a=" + a).status, 400);
}

TEST_F(EvalRest, AForkIsDiffedWithItsSharedHistoryAndMatchesItsOriginStepForStep) {
  const auto origin = create("hello");
  ASSERT_TRUE(settled(origin, "ok: hello"));
  const auto forked = as(kAnn).post("/api/dialogs/" + origin + "/fork", json::object{});
  ASSERT_EQ(forked.status, 201) << forked.body;
  const std::string fork(forked.json().at("dialog").at("id").as_string());

  const auto reply = as(kAnn).get("/api/diff?a=" + origin + "&b=" + fork);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto body = reply.json();
  // The fork's root holds one event of its own: its history is read through its origin's.
  EXPECT_EQ(body.at("dialogs").at(0).at("b").as_string(), fork.c_str()) << reply.body;
  EXPECT_TRUE(body.at("identical").as_bool()) << reply.body;
  EXPECT_EQ(body.at("answer").at("b").as_string(), "ok: hello");
}

// A run file as `parley eval` writes it: one case of two attempts, one passed; `owner` as given
// ("" for none), or no `owner` at all (a run made before runs had owners) when `owner` is null.
void write_run(const std::filesystem::path& data, const std::string& id, const char* owner) {
  std::filesystem::create_directories(data / "eval-runs");
  std::ofstream(data / "eval-runs" / (id + ".json"))
      << R"({"id":")" << id << R"(","suite":"s.yaml","startedMs":1,"finishedMs":2,"repeat":2,)"
      << (owner == nullptr ? std::string() : std::string(R"("owner":")") + owner + "\",")
      << R"("cases":[{"name":"c","where":"s.yaml:2:5","attempts":[)"
      << R"({"attempt":1,"rootId":"r1","outcome":"pass","error":"","answer":"a","rounds":1,"tokens":2,"costUsd":0,)"
      << R"("durationMs":5,"checks":[]},)"
      << R"({"attempt":2,"rootId":"r2","outcome":"fail","error":"","answer":"b","rounds":1,"tokens":2,"costUsd":0,)"
      << R"("durationMs":5,"checks":[{"check":"contains: a","where":"s.yaml:6:9","outcome":"fail","message":"m",)"
      << R"("reasons":"","judgeRoot":""}]}]}]})";
}

std::vector<std::string> listed_ids(const rest_client& client) {
  const auto reply = client.get("/api/eval/runs");
  EXPECT_EQ(reply.status, 200) << reply.body;
  std::vector<std::string> ids;
  const auto body = reply.json();  // kept: a range-for over a temporary's member would dangle
  for (const auto& run : body.at("runs").as_array()) ids.emplace_back(run.at("id").as_string());
  return ids;
}

TEST_F(EvalRest, TheRunsOfTheDataDirectoryAreListedAndReadAndABadIdIsRefused) {
  auto listed = as(kAnn).get("/api/eval/runs");
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_TRUE(listed.json().at("runs").as_array().empty());

  write_run(data_dir(), "run-1", "ann");
  listed = as(kAnn).get("/api/eval/runs");
  ASSERT_EQ(listed.status, 200) << listed.body;
  const auto list = listed.json();
  const auto& runs = list.at("runs").as_array();
  ASSERT_EQ(runs.size(), 1U) << listed.body;
  EXPECT_EQ(runs[0].at("id").as_string(), "run-1");
  EXPECT_EQ(runs[0].at("owner").as_string(), "ann");
  EXPECT_EQ(runs[0].at("passRate").as_double(), 0.5);

  const auto one = as(kAnn).get("/api/eval/runs/run-1");
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(one.json().at("cases").at(0).at("attempts").at(1).at("checks").at(0).at("outcome").as_string(), "fail");
  EXPECT_EQ(as(kAnn).get("/api/eval/runs/run-2").status, 404);
  EXPECT_EQ(as(kAnn).get("/api/eval/runs/..%2Fsecret").status, 400);
}

TEST_F(EvalRest, EachUserSeesOnlyTheirOwnRunsAnOperatorNoOnesAndAnotherUsersRunIsNotFound) {
  write_run(data_dir(), "run-ann", "ann");
  write_run(data_dir(), "run-ben", "ben");
  write_run(data_dir(), "run-nobody", "");
  write_run(data_dir(), "run-old", nullptr);

  EXPECT_EQ(listed_ids(as(kAnn)), std::vector<std::string>{"run-ann"});
  EXPECT_EQ(listed_ids(as(kBen)), std::vector<std::string>{"run-ben"});
  EXPECT_EQ(as(kAnn).get("/api/eval/runs/run-ann").status, 200);
  const auto hidden = as(kAnn).get("/api/eval/runs/run-ben");
  const auto missing = as(kAnn).get("/api/eval/runs/run-none");
  EXPECT_EQ(hidden.status, 404) << hidden.body;
  // Said exactly as for a run that does not exist, so the answer tells nothing of ben's.
  EXPECT_EQ(hidden.json().at("error").at("code"), missing.json().at("error").at("code"));
  EXPECT_NE(hidden.body.find("no eval run 'run-ben'"), std::string::npos) << hidden.body;
  // A run of no one's (no --user, or made before runs had owners) is not a user's to see.
  EXPECT_EQ(as(kBen).get("/api/eval/runs/run-nobody").status, 404);
  EXPECT_EQ(as(kBen).get("/api/eval/runs/run-old").status, 404);
  // An operator sees them, as the dialogs no human takes part in; a user's run is still the user's.
  EXPECT_EQ(listed_ids(as(kOlga)), (std::vector<std::string>{"run-nobody", "run-old"}));
  EXPECT_EQ(as(kOlga).get("/api/eval/runs/run-ann").status, 404);
}

TEST_F(EvalRest, ARunFileThatDoesNotReadIsNoUsersAndWhatIsWrongIsSaidToAnOperatorOnly) {
  write_run(data_dir(), "run-bad", "ann\\u001b[31m");  // an owner that is no user id
  write_run(data_dir(), "run-ann", "ann");
  const auto listed = as(kAnn).get("/api/eval/runs");
  ASSERT_EQ(listed.status, 200) << listed.body;
  const auto body = listed.json();
  EXPECT_EQ(body.at("runs").as_array().size(), 1U) << listed.body;
  EXPECT_TRUE(body.at("unreadable").as_array().empty()) << listed.body;
  const auto one = as(kAnn).get("/api/eval/runs/run-bad");
  EXPECT_EQ(one.status, 404) << one.body;
  EXPECT_EQ(one.body.find("owner"), std::string::npos) << one.body;
  // An operator is told what is wrong with it.
  const auto told = as(kOlga).get("/api/eval/runs/run-bad");
  EXPECT_EQ(told.status, 500) << told.body;
  EXPECT_NE(told.body.find("field 'owner'"), std::string::npos) << told.body;
  const auto listed_by_operator = as(kOlga).get("/api/eval/runs").json();
  EXPECT_EQ(listed_by_operator.at("unreadable").as_array().size(), 1U);
}

}  // namespace
}  // namespace parley::test
