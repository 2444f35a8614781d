// REST black-box: bad input is refused with the documented status and error shape, names the
// field, and stores nothing.
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

TEST_F(RestTest, BadBodiesOfCreateAreRefusedAndCreateNothing) {
  start("q4h");
  const auto c = client();
  auto reply = c.post("/api/dialogs", std::string("{\"content\": "));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(code_of(reply), "bad_json");
  reply = c.post("/api/dialogs", std::string(""));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(code_of(reply), "bad_json");
  reply = c.post("/api/dialogs", std::string("[1, 2]"));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(code_of(reply), "bad_request");

  reply = c.post("/api/dialogs", boost::json::value{{"title", "no content"}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(code_of(reply), "bad_field");
  EXPECT_EQ(message_of(reply).rfind("content:", 0), 0U) << message_of(reply);
  reply = c.post("/api/dialogs", boost::json::value{{"content", 42}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(message_of(reply).find("content: expected a non-empty string"), std::string::npos) << message_of(reply);
  reply = c.post("/api/dialogs", boost::json::value{{"content", ""}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(message_of(reply).find("content: expected a non-empty string"), std::string::npos);
  reply = c.post("/api/dialogs", boost::json::value{{"content", "hi"}, {"memberId", 7}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("memberId:", 0), 0U) << message_of(reply);
  reply = c.post("/api/dialogs", boost::json::value{{"content", "hi"}, {"memberId", "nobody"}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_NE(message_of(reply).find("nobody"), std::string::npos);
  // A misspelt field is an error naming it, as on the records routes, never silently ignored.
  reply = c.post("/api/dialogs", boost::json::value{{"content", "hi"}, {"titel", "typo"}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("titel: unknown field; expected one of memberId, content, title", 0), 0U)
      << message_of(reply);
  reply = c.post("/api/dialogs", boost::json::value{{"content", "hi"}, {"title", std::string(1001, 't')}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply), "title: 1001 bytes, over the limit of 1000");
  reply = c.post("/api/dialogs", boost::json::value{{"content", "hi"}, {"title", true}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("title:", 0), 0U);
  reply = c.post("/api/dialogs", boost::json::value{{"content", "hi"}, {"taskDocPath", "plain-folder"}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("taskDocPath:", 0), 0U);
  reply = c.post("/api/dialogs", boost::json::value{{"content", std::string(70 * 1024, 'x')}});
  EXPECT_EQ(reply.status, 400);  // over the team's message limit, under the body limit
  EXPECT_EQ(message_of(reply).rfind("content:", 0), 0U);

  EXPECT_EQ(c.get("/api/dialogs").json().at("total"), 0);
}

TEST_F(RestTest, BadQueryParametersNameTheParameter) {
  start("q4h");
  const auto id = create_dialog("hello");
  for (const char* target : {"/api/dialogs?limit=0", "/api/dialogs?limit=501", "/api/dialogs?limit=ten",
                             "/api/dialogs?offset=-1", "/api/dialogs?status=sleeping"}) {
    const auto reply = client().get(target);
    EXPECT_EQ(reply.status, 400) << target;
    EXPECT_EQ(code_of(reply), "bad_field") << target;
  }
  EXPECT_EQ(message_of(client().get("/api/dialogs?limit=0")), "limit: expected an integer 1..500, got '0'");
  const auto course = client().get("/api/dialogs/" + id + "/transcript?course=2");
  EXPECT_EQ(course.status, 400);
  EXPECT_EQ(message_of(course).rfind("course:", 0), 0U);
}

TEST_F(RestTest, BadInputToAnExistingDialog) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  const auto c = client();
  auto reply = c.post("/api/dialogs/" + id + "/messages", std::string("not json"));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(code_of(reply), "bad_json");
  reply = c.post("/api/dialogs/" + id + "/messages", boost::json::value{{"content", boost::json::array{}}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(code_of(reply), "bad_field");
  reply = c.post("/api/dialogs/" + id + "/messages", boost::json::value{{"content", "x"}, {"msgId", 1}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("msgId:", 0), 0U);
  reply = c.post("/api/dialogs/" + id + "/answer", boost::json::value{{"content", "Friday"}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("questionId:", 0), 0U);
  reply = c.post("/api/dialogs/" + id + "/answer", boost::json::value{{"questionId", "q"}, {"content", "Friday"}});
  EXPECT_EQ(reply.status, 409);  // the dialog has no open question
  reply = c.post("/api/dialogs/" + id + "/dead", boost::json::value{{"reason", 5}});
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("reason:", 0), 0U);
  EXPECT_EQ(messages(id).size(), 2U);  // nothing was added
}

TEST_F(RestTest, UnknownDialogsRoutesAndMethods) {
  start("q4h");
  const auto c = client();
  for (const char* target : {"/api/dialogs/nope", "/api/dialogs/nope/children", "/api/dialogs/nope/hierarchy",
                             "/api/dialogs/nope/transcript", "/api/dialogs/nope/reminders",
                             "/api/dialogs/nope/registry", "/api/dialogs/nope/taskdoc"}) {
    const auto reply = c.get(target);
    EXPECT_EQ(reply.status, 404) << target;
    EXPECT_EQ(code_of(reply), "not_found") << target;
  }
  for (const char* action : {"messages", "answer", "interrupt", "resume", "dead"}) {
    const auto reply = c.post(std::string("/api/dialogs/nope/") + action, boost::json::value{{"content", "x"}});
    EXPECT_EQ(reply.status, 404) << action;
  }
  auto reply = c.get("/api/nothing-here");
  EXPECT_EQ(reply.status, 404);
  EXPECT_EQ(code_of(reply), "not_found");
  reply = c.get("/api/dialogs/a/b/c/d");
  EXPECT_EQ(reply.status, 404);

  reply = c.request("DELETE", "/api/dialogs", "");
  EXPECT_EQ(reply.status, 405);
  EXPECT_EQ(code_of(reply), "method_not_allowed");
  EXPECT_EQ(reply.header("Allow"), "GET, POST");
  reply = c.post("/api/status", std::string("{}"));
  EXPECT_EQ(reply.status, 405);
  reply = c.get("/api/dialogs/x/messages");
  EXPECT_EQ(reply.status, 405);
}

// Paths are decoded segment by segment: "%2F" inside an id is a character of the id, never a
// separator that would reach another route, and a control character once decoded is refused.
TEST_F(RestTest, AnEncodedSlashInAnIdIsPartOfTheIdAndControlCharactersAreRefused) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  const auto c = client();
  // Decoded whole, this was GET /api/dialogs/{id}/transcript: another dialog route, answered 200.
  auto reply = c.get("/api/dialogs/" + id + "%2Ftranscript");
  EXPECT_EQ(reply.status, 404) << reply.body;
  EXPECT_NE(message_of(reply).find(id + "/transcript"), std::string::npos) << reply.body;
  reply = c.post("/api/dialogs/" + id + "%2Fmessages", boost::json::value{{"content", "x"}});
  EXPECT_EQ(reply.status, 405) << reply.body;  // POST /api/dialogs/{id} is no route
  for (const std::string& target :
       std::vector<std::string>{"/api/dialogs/" + id + "%00", "/api/dialogs/%1b%5b31m", "/api/dialogs?status=%00"}) {
    reply = c.get(target);
    EXPECT_EQ(reply.status, 400) << target;
    EXPECT_EQ(code_of(reply), "bad_request") << target;
    EXPECT_NE(message_of(reply).find("holds a control character"), std::string::npos) << message_of(reply);
  }
  reply = c.get("/api/dialogs/%zz");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply).rfind("target: not a valid request target", 0), 0U) << message_of(reply);
  reply = c.get("/api/dialogues/" + id + "/sessions?since=2026-01-01T-1:-5:00Z");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(message_of(reply),
            "since: expected an RFC 3339 time like 2026-11-22T03:14:15Z or "
            "2026-11-22T11:14:15.5+08:00: the hour is not 2 digits");
  EXPECT_EQ(messages(id).size(), 2U);  // nothing was added
}

TEST_F(RestTest, OversizedBodyIs413AndTheServerGoesOn) {
  start("q4h");
  // The header announces 2 MiB; the server answers as soon as it has read the header. The token
  // is given: without it the answer is a 401, also before any body is read (rest_limits_test).
  const std::string auth = "Authorization: Bearer " + server_->token() + "\r\n";
  const std::string head = "POST /api/dialogs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
                           auth + "Content-Length: 2097152\r\n\r\n{\"content\": \"";
  const auto reply = client().raw(head);
  EXPECT_EQ(reply.status, 413) << reply.body;
  EXPECT_EQ(code_of(reply), "too_large");
  // Chunked, without a length up front: refused once the body passes the limit.
  std::string chunked =
      "POST /api/dialogs HTTP/1.1\r\nHost: 127.0.0.1\r\n" + auth + "Transfer-Encoding: chunked\r\n\r\n";
  const std::string piece(64 * 1024, 'x');
  char size_line[32];
  std::snprintf(size_line, sizeof size_line, "%zx\r\n", piece.size());
  for (int i = 0; i < 20; ++i) chunked += size_line + piece + "\r\n";
  chunked += "0\r\n\r\n";
  EXPECT_EQ(client().raw(chunked).status, 413);
  EXPECT_EQ(client().get("/api/status").status, 200);
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 0);
}

TEST_F(RestTest, MalformedHttpGets400) {
  start("q4h");
  const auto reply = client().raw("THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(client().get("/api/status").status, 200);
}

}  // namespace
}  // namespace parley::test
