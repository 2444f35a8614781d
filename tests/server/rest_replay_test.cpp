// POST /api/dialogs/{id}/replay (docs/fork.md "Replay"): a replay of a root made over REST and
// driven in the background with the change, naming its origin; a bad body is refused naming the
// field, and writes nothing.
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "rest_fixture.hpp"
#include "support/fake_http_server.hpp"
#include "support/openai_stream.hpp"

namespace parley::test {
namespace {

class RestReplay : public RestTest {
 protected:
  http_reply replay(const std::string& id, boost::json::value body) {
    return client().post("/api/dialogs/" + id + "/replay", body);
  }
  std::int64_t roots() const { return client().get("/api/dialogs").json().at("total").as_int64(); }
  std::string settled_root() {
    const auto id = create_dialog("hello");
    EXPECT_TRUE(eventually_says(id, "ok: hello"));
    EXPECT_TRUE(eventually([&] { return settled(id); }));
    return id;
  }
};

TEST_F(RestReplay, AReplayIsMadeDrivenInTheBackgroundAndNamesItsOrigin) {
  start("q4h");
  const auto id = settled_root();
  const auto replayed = replay(id, boost::json::object{{"model", "other"}, {"tools", "recorded"}});
  ASSERT_EQ(replayed.status, 201) << replayed.body;
  const std::string fork_id(replayed.json().at("id").as_string());
  EXPECT_EQ(replayed.json().at("replayOf").at("dialog"), id.c_str());
  EXPECT_EQ(replayed.json().at("replayOf").at("change"), "model other, recorded tools only");
  ASSERT_TRUE(eventually_says(fork_id, "ok: hello"));
  EXPECT_EQ(dialog(fork_id).at("dialog").at("forkedFrom").at("dialog"), id.c_str());
  EXPECT_TRUE(std::filesystem::is_directory(data_dir() / "replays" / fork_id / "workspace"));
  EXPECT_EQ(messages(id).size(), 2U) << "the origin stays as it was";
}

TEST_F(RestReplay, ABadBodyIsRefusedNamingTheFieldAndWritesNothing) {
  start("q4h");
  const auto id = settled_root();
  const auto before = roots();
  const std::vector<std::pair<boost::json::value, std::string>> bad{
      {boost::json::object{{"team", "other.yaml"}}, "team"},
      {boost::json::object{{"tools", "sometimes"}}, "tools"},
      {boost::json::object{{"memberPersona", boost::json::object{{"nobody", "You are new."}}}}, "nobody"},
      {boost::json::object{{"memberPersona", boost::json::object{{"lead", 3}}}}, "memberPersona.lead"},
      {boost::json::object{{"provider", "nowhere"}}, "nowhere"},
      {boost::json::object{{"from", 100000}}, "has no event 100000"},
      {boost::json::object{{"from", 2}, {"atGeneration", 1}}, "atGeneration"}};
  for (const auto& [body, named] : bad) {
    const auto refused = replay(id, body);
    EXPECT_GE(refused.status, 400) << refused.body;
    EXPECT_LT(refused.status, 500) << refused.body;
    EXPECT_NE(refused.body.find(named), std::string::npos) << refused.body;
  }
  EXPECT_EQ(roots(), before);
  EXPECT_FALSE(std::filesystem::exists(data_dir() / "replays"));
}

// The open questions of the trees rooted at `root_id`.
boost::json::array questions_of(const rest_client& client, const std::string& root_id) {
  boost::json::array found;
  const auto listed = client.get("/api/questions").json();
  for (const auto& q : listed.at("questions").as_array()) {
    if (q.at("dialog").at("rootId") == root_id.c_str()) found.push_back(q);
  }
  return found;
}

TEST_F(RestReplay, AQuestionNoRecordAnswersIsAnsweredOverRestAndTheReplayGoesOn) {
  start("q4h");
  // The origin's clerk asks which day, and nobody answers: the replay has no answer to give.
  const auto id = create_dialog("delegate the trip");
  ASSERT_TRUE(eventually([&] { return questions_of(client(), id).size() == 1; }));
  const auto origin_sub = std::string(questions_of(client(), id).at(0).at("dialog").at("selfId").as_string());
  ASSERT_TRUE(eventually([&] { return dialog(origin_sub).at("dialog").at("openQuestions") == 1; }));
  const auto replayed = replay(id, boost::json::object{{"tools", "recorded"}});
  ASSERT_EQ(replayed.status, 201) << replayed.body;
  const std::string fork_id(replayed.json().at("id").as_string());
  ASSERT_TRUE(eventually([&] { return questions_of(client(), fork_id).size() == 1; }));
  const auto question = questions_of(client(), fork_id).at(0);
  const std::string sub(question.at("dialog").at("selfId").as_string());
  const auto answered = client().post("/api/dialogs/" + sub + "/answer",
                                      boost::json::object{{"questionId", question.at("id")}, {"content", "Friday"}});
  ASSERT_EQ(answered.status, 202) << answered.body;
  ASSERT_TRUE(eventually_says(fork_id, "Trip booked: 【最终完成】\nbooked for Friday"))
      << boost::json::serialize(messages(fork_id));
  EXPECT_EQ(questions_of(client(), id).size(), 1U) << "the origin's question stays open";
}

// The q4h team with every chunk of its scripted model slowed, so that a drive can be caught half way.
class RestReplayCrash : public RestReplay {
 protected:
  void start_slow_q4h() {
    team_dir_ = root_ / "q4h";
    std::filesystem::copy(std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/q4h", team_dir_,
                          std::filesystem::copy_options::recursive);
    std::ifstream in(team_dir_ / "script.yaml");
    const std::string script((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(team_dir_ / "script.yaml") << "delay_ms: 150\n" << script;
    start_again();
  }
  void start_again() {
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }
  // How many results of `tool` the dialogs of the tree rooted at `root_id` got.
  std::int64_t tool_results(const std::string& root_id, const std::string& tool) {
    std::vector<std::string> ids{root_id};
    const auto tree = client().get("/api/dialogs/" + root_id + "/hierarchy").json();
    for (const auto& sub : tree.at("dialogs").as_array()) ids.emplace_back(sub.at("id").as_string());
    std::int64_t count = 0;
    for (const auto& dialog_id : ids) {
      for (const auto& m : messages(dialog_id)) {
        count += m.at("role") == "tool" && m.at("toolName") == tool.c_str() ? 1 : 0;
      }
    }
    return count;
  }
};

// Issue 41's crash safety: `parley serve` killed (SIGKILL) while a replay drives; the restarted
// server's recovery drives it with the replay's own engine, once. The served engine would refuse a
// replay's tree (its drive would fail naming the replay), so a replay that ends done with no drive
// failure, its question answered once and its clerk asked once, was recovered as a replay.
TEST_F(RestReplayCrash, AReplayKilledMidDriveIsRecoveredOnceByTheRestartedServer) {
  start_slow_q4h();
  const std::string booked = "Trip booked: 【最终完成】\nbooked for Friday";
  // Answers the one open question of the tree rooted at `root_id`: "Friday".
  const auto answer_friday = [&](const std::string& root_id) {
    ASSERT_TRUE(eventually([&] { return questions_of(client(), root_id).size() == 1; }));
    const auto question = questions_of(client(), root_id).at(0);
    const std::string sub(question.at("dialog").at("selfId").as_string());
    const auto answered = client().post("/api/dialogs/" + sub + "/answer",
                                        boost::json::object{{"questionId", question.at("id")}, {"content", "Friday"}});
    ASSERT_EQ(answered.status, 202) << answered.body;
  };
  const auto id = create_dialog("delegate the trip");
  ASSERT_NO_FATAL_FAILURE(answer_friday(id));
  ASSERT_TRUE(eventually_says(id, booked));
  ASSERT_TRUE(eventually([&] { return settled(id); }));

  // The whole tree again: the clerk's subdialog is made after the cut, so it has no twin and its
  // question is asked in the replay (docs/fork.md "Matching a call").
  const auto replayed = replay(
      id,
      boost::json::object{{"memberPersona", boost::json::object{{"lead", "You lead, anew."}}}, {"tools", "recorded"}});
  ASSERT_EQ(replayed.status, 201) << replayed.body;
  const std::string fork_id(replayed.json().at("id").as_string());
  ASSERT_NO_FATAL_FAILURE(answer_friday(fork_id));
  // Killed once the clerk's question was answered, while its answer or the lead's is still being
  // written (each chunk takes 150 ms).
  ASSERT_TRUE(eventually([&] {
    const auto last = messages(fork_id);
    const bool done = !last.empty() && last.back().at("content") == booked.c_str();
    return tool_results(fork_id, "askHuman") == 1 && !done;
  })) << boost::json::serialize(messages(fork_id));
  EXPECT_EQ(server_->terminate(SIGKILL), -1);
  start_again();

  ASSERT_TRUE(eventually_says(fork_id, booked)) << boost::json::serialize(messages(fork_id)) << server_->output();
  ASSERT_TRUE(eventually([&] { return settled(fork_id); }));
  EXPECT_TRUE(dialog(fork_id).at("dialog").at("lastError").is_null()) << dialog(fork_id);
  EXPECT_EQ(tool_results(fork_id, "askHuman"), 1) << "the answer is given once";
  EXPECT_EQ(questions_of(client(), fork_id).size(), 0U);
  EXPECT_EQ(tool_results(fork_id, "tellaskSessionless"), 1) << "the clerk was asked once";
  EXPECT_NE(dialog(fork_id).at("dialog").at("forkedFrom"), nullptr) << "still the fork of its origin";
  EXPECT_EQ(messages(id).back().at("content"), booked.c_str()) << "the origin stays as it was";
}

// The q4h team with a second provider, an OpenAI-compatible fake model the replay moves to.
class RestReplayResume : public RestReplay {
 protected:
  void start_with_fake_provider() {
    const auto source = std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/q4h";
    team_dir_ = root_ / "q4h";
    std::filesystem::copy(source, team_dir_, std::filesystem::copy_options::recursive);
    std::ofstream(team_dir_ / "team.yaml") << "version: 1\ndefault_member: lead\nworkspace: workspace\n"
                                              "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
                                              "  fake: {kind: openai, base_url: \""
                                           << model_.base_url()
                                           << "/v1\", api_key_env: PARLEY_TEST_NO_KEY}\n"
                                              "members:\n  lead: {name: Lead, persona: \"You lead.\", provider: "
                                              "offline, model: scripted}\n";
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }
  // A settled root (`id`) and its replay on the fake provider (`fork_id`), whose drive failed: the
  // first answer ends with a finish reason no API documents. The model's next answer is queued.
  void failed_replay(std::string& id, std::string& fork_id) {
    using parley::testing::fake_response;
    using parley::testing::openai_chunk;
    model_.push(fake_response::sse(
        {openai_chunk(R"({"content":"Hal"})", "null"), openai_chunk("{}", R"("banana")"), "data: [DONE]\n\n"}));
    model_.push(fake_response::sse({openai_chunk(R"({"content":"replayed hello"})", "null"),
                                    openai_chunk("{}", R"("stop")"), "data: [DONE]\n\n"}));
    start_with_fake_provider();
    id = settled_root();
    const auto replayed = replay(id, boost::json::object{{"provider", "fake"}, {"tools", "recorded"}});
    ASSERT_EQ(replayed.status, 201) << replayed.body;
    fork_id = std::string(replayed.json().at("id").as_string());
    ASSERT_TRUE(eventually([&] {
      return dialog(fork_id).at("dialog").at("lastError").is_string() && settled(fork_id);
    })) << dialog(fork_id);
  }
  parley::testing::fake_http_server model_;
};

TEST_F(RestReplayResume, AFailedReplayResumedOverRestRunsWithItsChangeAndEndsDoneAndAMessageGoesOnWithIt) {
  using parley::testing::fake_response;
  using parley::testing::openai_chunk;
  std::string id;
  std::string fork_id;
  ASSERT_NO_FATAL_FAILURE(failed_replay(id, fork_id));

  const auto resumed = client().post("/api/dialogs/" + fork_id + "/resume", boost::json::object{});
  ASSERT_EQ(resumed.status, 202) << resumed.body;
  ASSERT_TRUE(eventually_says(fork_id, "replayed hello")) << boost::json::serialize(messages(fork_id));
  EXPECT_TRUE(eventually([&] { return settled(fork_id); }));

  // A message to the replay goes on with its change too.
  model_.push(fake_response::sse(
      {openai_chunk(R"({"content":"replayed again"})", "null"), openai_chunk("{}", R"("stop")"), "data: [DONE]\n\n"}));
  const auto posted = client().post("/api/dialogs/" + fork_id + "/messages", boost::json::object{{"content", "again"}});
  ASSERT_EQ(posted.status, 202) << posted.body;
  ASSERT_TRUE(eventually_says(fork_id, "replayed again")) << boost::json::serialize(messages(fork_id));
  EXPECT_EQ(model_.requests().size(), 3U) << "every drive went to the replay's provider";
  EXPECT_EQ(messages(id).back().at("content"), "ok: hello") << "the origin stays as it was";
}

// POST /api/resume_all takes a failed replay too, and drives it with its change (the replay's
// provider), not under the served team.
TEST_F(RestReplayResume, ResumeAllResumesAFailedReplayWithItsChange) {
  std::string id;
  std::string fork_id;
  ASSERT_NO_FATAL_FAILURE(failed_replay(id, fork_id));

  const auto resumed = client().post("/api/resume_all", boost::json::object{});
  ASSERT_EQ(resumed.status, 200) << resumed.body;
  EXPECT_EQ(resumed.json().at("resumed"), (boost::json::array{boost::json::value(fork_id)})) << resumed.body;
  ASSERT_TRUE(eventually_says(fork_id, "replayed hello")) << boost::json::serialize(messages(fork_id));
  EXPECT_TRUE(eventually([&] { return settled(fork_id); }));
  EXPECT_EQ(model_.requests().size(), 2U) << "both drives went to the replay's provider";
}

}  // namespace
}  // namespace parley::test
