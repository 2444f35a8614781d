// REST black-box: the server's overview endpoints and root dialogs — create, list, filter, page,
// get, transcript — against the real binary.
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

TEST_F(RestTest, StatusNamesTheScriptedModelAndNeedsTheProcessSecretOnLoopback) {
  start("q4h");
  EXPECT_NE(server_->output().find("offline"), std::string::npos) << server_->output();
  // No --token on loopback: the server made a secret of its own and printed it in the URL.
  ASSERT_EQ(server_->token().size(), 32U) << server_->output();
  EXPECT_EQ(rest_client(server_->port()).get("/api/status").status, 401);
  const auto reply = client().get("/api/status");
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("Content-Type"), "application/json");
  const auto body = reply.json();
  EXPECT_EQ(body.at("protocol"), 1);
  EXPECT_EQ(body.at("scriptedOffline"), true);
  EXPECT_EQ(body.at("authRequired"), true);
  EXPECT_EQ(body.at("providers").at("lead"), "scripted");
  EXPECT_EQ(body.at("providers").at("clerk"), "scripted");
  EXPECT_TRUE(body.at("version").is_string());
}

TEST_F(RestTest, DialogsAtRestLeaveMemoryPastTheLoadedDialogsLimitAndStillAnswer) {
  start("q4h", {"--loaded-dialogs", "1"});
  std::vector<std::string> ids;
  for (const char* words : {"first words", "second words", "third words"}) {
    ids.push_back(create_dialog(words));
    ASSERT_TRUE(eventually_says(ids.back(), std::string("ok: ") + words));
  }
  auto in_memory = client().get("/api/status").json().at("dialogsInMemory");
  EXPECT_EQ(in_memory.at("limit"), 1);
  // Each new dialog's pass dropped the ones before it, which were at rest.
  EXPECT_LE(in_memory.at("loaded").as_int64(), 2);
  // The first dialog, long out of memory, is replayed from the log and answers with its history.
  ASSERT_EQ(client().post("/api/dialogs/" + ids[0] + "/messages", boost::json::value{{"content", "more words"}}).status,
            202);
  ASSERT_TRUE(eventually_says(ids[0], "ok: more words"));
  const auto transcript = client().get("/api/dialogs/" + ids[0] + "/transcript").json();
  EXPECT_EQ(transcript.at("total"), 4);
  EXPECT_EQ(transcript.at("messages").at(0).at("content"), "first words");
}

TEST_F(RestTest, RefusesALoadedDialogsLimitThatIsNotAPositiveCount) {
  for (const char* bad : {"0", "-3", "many", "20000000"}) {
    server_process refused({"--team",
                            (std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/q4h/team.yaml").string(),
                            "--data", data_dir().string(), "--loaded-dialogs", bad});
    EXPECT_FALSE(refused.started()) << bad;
    EXPECT_NE(refused.output().find("--loaded-dialogs: expected a whole number from 1 to 10000000, got '" +
                                    std::string(bad) + "'"),
              std::string::npos)
        << refused.output();
  }
}

TEST_F(RestTest, TeamListsTheMembers) {
  start("q4h");
  const auto body = client().get("/api/team").json();
  EXPECT_EQ(body.at("defaultMember"), "lead");
  EXPECT_EQ(body.at("language"), "en");
  const auto& members = body.at("members").as_array();
  ASSERT_EQ(members.size(), 2U);
  EXPECT_EQ(members[0].at("id"), "lead");
  EXPECT_EQ(members[0].at("name"), "Lead");
  EXPECT_EQ(members[0].at("provider"), "offline");
  EXPECT_EQ(members[0].at("model"), "scripted");
  EXPECT_TRUE(members[0].at("tools").is_array());
}

TEST_F(RestTest, AnUntitledRootIsTitledByItsFirstLineAndSaysWhetherItHasATaskdoc) {
  start("q4h");
  const auto reply = client().post("/api/dialogs", boost::json::value{{"content", "## hello there\nand more"}});
  ASSERT_EQ(reply.status, 201) << reply.body;
  const auto summary = reply.json().at("dialog");
  EXPECT_EQ(summary.at("title"), "hello there");
  EXPECT_TRUE(summary.at("taskDocPath").is_null());
  const auto with_doc = client().post(
      "/api/dialogs", boost::json::value{{"content", "set the goals"}, {"taskDocPath", "tasks/demo.tsk"}});
  ASSERT_EQ(with_doc.status, 201) << with_doc.body;
  EXPECT_EQ(with_doc.json().at("dialog").at("taskDocPath"), "tasks/demo.tsk");
}

TEST_F(RestTest, CreatesARootDialogThatRunsInTheBackground) {
  start("q4h");
  const auto reply = client().post(
      "/api/dialogs", boost::json::value{{"content", "hello there"}, {"title", "Greeting"}, {"msgId", "m-1"}});
  ASSERT_EQ(reply.status, 201) << reply.body;
  const auto created = reply.json();
  const auto& summary = created.at("dialog");
  const std::string id(summary.at("id").as_string());
  EXPECT_EQ(summary.at("rootId"), id.c_str());
  EXPECT_TRUE(summary.at("parentId").is_null());
  EXPECT_EQ(summary.at("memberId"), "lead");
  EXPECT_EQ(summary.at("kind"), "root");
  EXPECT_EQ(summary.at("status"), "running");
  EXPECT_EQ(summary.at("title"), "Greeting");
  EXPECT_EQ(summary.at("course"), 1);
  EXPECT_EQ(summary.at("depth"), 0);
  EXPECT_EQ(summary.at("hasChildren"), false);
  for (const char* key : {"generating", "needsDrive", "dead", "openQuestions", "pendingSubdialogs", "inputTokens",
                          "outputTokens", "createdAt", "updatedAt", "lastError", "callKind", "sessionSlug"}) {
    EXPECT_TRUE(summary.as_object().contains(key)) << key;
  }

  ASSERT_TRUE(eventually_says(id, "ok: hello there"));
  const auto transcript = client().get("/api/dialogs/" + id + "/transcript").json();
  EXPECT_EQ(transcript.at("course"), 1);
  EXPECT_EQ(transcript.at("courses"), 1);
  EXPECT_EQ(transcript.at("total"), 2);
  const auto& first = transcript.at("messages").at(0);
  EXPECT_EQ(first.at("role"), "user");
  EXPECT_EQ(first.at("origin"), "user");
  EXPECT_EQ(first.at("content"), "hello there");
  for (const char* key :
       {"seq", "course", "genseq", "thinking", "toolCalls", "toolCallId", "toolName", "ok", "interrupted", "ts"}) {
    EXPECT_TRUE(first.as_object().contains(key)) << key;
  }
  const auto& answer = transcript.at("messages").at(1);
  EXPECT_EQ(answer.at("role"), "assistant");
  EXPECT_EQ(answer.at("interrupted"), false);

  const auto got = dialog(id).at("dialog");
  EXPECT_GT(got.at("outputTokens").as_int64(), 0);
}

TEST_F(RestTest, ListsRootsNewestFirstWithFilterAndPages) {
  start("q4h");
  const auto first = create_dialog("alpha apples");
  const auto second = create_dialog("beta bananas");
  const auto third = create_dialog("gamma apples");
  ASSERT_TRUE(eventually_says(third, "ok: gamma apples"));

  auto body = client().get("/api/dialogs").json();
  EXPECT_EQ(body.at("total"), 3);
  const auto& all = body.at("dialogs").as_array();
  ASSERT_EQ(all.size(), 3U);
  EXPECT_EQ(all[0].at("id"), third.c_str());
  EXPECT_EQ(all[2].at("id"), first.c_str());

  body = client().get("/api/dialogs?q=APPLES").json();
  EXPECT_EQ(body.at("total"), 2);
  body = client().get("/api/dialogs?q=banana").json();
  ASSERT_EQ(body.at("total"), 1);
  EXPECT_EQ(body.at("dialogs").at(0).at("id"), second.c_str());

  body = client().get("/api/dialogs?limit=1&offset=1").json();
  EXPECT_EQ(body.at("total"), 3);
  ASSERT_EQ(body.at("dialogs").as_array().size(), 1U);
  EXPECT_EQ(body.at("dialogs").at(0).at("id"), second.c_str());

  EXPECT_EQ(client().get("/api/dialogs?status=running").json().at("total"), 3);
  EXPECT_EQ(client().get("/api/dialogs?status=completed").json().at("total"), 0);
  EXPECT_EQ(client().get("/api/dialogs?member=clerk").json().at("total"), 0);
  EXPECT_EQ(client().get("/api/dialogs?member=lead").json().at("total"), 3);
}

// Paging by cursor: each page names where the next starts, the last names none, and `total`
// comes with the first page only. A cursor that is not one is refused with the field named.
TEST_F(RestTest, ListsRootsPageByPageByCursor) {
  start("q4h");
  std::vector<std::string> ids;
  for (const char* words : {"one", "two", "three", "four", "five"}) ids.push_back(create_dialog(words));
  ASSERT_TRUE(eventually_says(ids.back(), "ok: five"));

  std::vector<std::string> seen;
  std::string cursor;
  int pages = 0;
  for (;; ++pages) {
    const auto reply = client().get("/api/dialogs?limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor));
    ASSERT_EQ(reply.status, 200) << reply.body;
    const auto body = reply.json().as_object();
    EXPECT_EQ(body.contains("total"), cursor.empty()) << reply.body;
    for (const auto& row : body.at("dialogs").as_array()) seen.emplace_back(row.at("id").as_string());
    if (body.at("nextCursor").is_null()) break;
    cursor = std::string(body.at("nextCursor").as_string());
    ASSERT_LT(pages, 5) << "pages never end";
  }
  EXPECT_EQ(pages, 2);
  EXPECT_EQ(seen, (std::vector<std::string>{ids[4], ids[3], ids[2], ids[1], ids[0]}));

  for (const char* bad : {"nonsense", "12", ".abc", "12.", "-5.abc", "x1.abc"}) {
    const auto reply = client().get(std::string("/api/dialogs?cursor=") + bad);
    EXPECT_EQ(reply.status, 400) << bad;
    EXPECT_NE(reply.body.find("cursor: "), std::string::npos) << reply.body;
  }
}

TEST_F(RestTest, TranscriptPagesAndPostedMessagesContinueTheDialog) {
  start("q4h");
  const auto id = create_dialog("first");
  ASSERT_TRUE(eventually_says(id, "ok: first"));
  const auto posted = client().post("/api/dialogs/" + id + "/messages",
                                    boost::json::value{{"content", "second"}, {"msgId", "client-7"}});
  ASSERT_EQ(posted.status, 202) << posted.body;
  EXPECT_EQ(posted.json().at("accepted"), true);
  EXPECT_EQ(posted.json().at("msgId"), "client-7");
  ASSERT_TRUE(eventually_says(id, "ok: second"));

  const auto page = client().get("/api/dialogs/" + id + "/transcript?limit=2&offset=1").json();
  EXPECT_EQ(page.at("total"), 4);
  ASSERT_EQ(page.at("messages").as_array().size(), 2U);
  EXPECT_EQ(page.at("messages").at(1).at("content"), "second");
  const auto explicit_course = client().get("/api/dialogs/" + id + "/transcript?course=1").json();
  EXPECT_EQ(explicit_course.at("total"), 4);

  // Without msgId the server names one.
  const auto unnamed = client().post("/api/dialogs/" + id + "/messages", boost::json::value{{"content", "third"}});
  ASSERT_EQ(unnamed.status, 202);
  EXPECT_FALSE(unnamed.json().at("msgId").as_string().empty());
  ASSERT_TRUE(eventually_says(id, "ok: third"));
}

TEST_F(RestTest, UsageSumsTokensByMemberAndDialog) {
  start("q4h");
  const auto id = create_dialog("count me");
  ASSERT_TRUE(eventually_says(id, "ok: count me"));
  const auto body = client().get("/api/usage").json();
  const auto total_out = body.at("total").at("outputTokens").as_int64();
  EXPECT_GT(total_out, 0);
  EXPECT_EQ(body.at("byMember").at("lead").at("outputTokens").as_int64(), total_out);
  ASSERT_EQ(body.at("byDialog").as_array().size(), 1U);
  EXPECT_EQ(body.at("byDialog").at(0).at("id"), id.c_str());
  EXPECT_EQ(body.at("byDialog").at(0).at("outputTokens").as_int64(), total_out);
}

}  // namespace
}  // namespace parley::test
