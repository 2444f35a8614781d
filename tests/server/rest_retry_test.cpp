// A retried request never duplicates: a create or a post carrying the same msgId (or
// Idempotency-Key) as one the server already took returns the first result and adds nothing.
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

TEST_F(RestTest, ARetriedCreateReturnsTheFirstDialogAndMakesNoOther) {
  start("q4h");
  const json::value body{{"content", "hello"}, {"msgId", "retry-1"}};
  const auto first = client().post("/api/dialogs", body);
  ASSERT_EQ(first.status, 201) << first.body;
  const auto again = client().post("/api/dialogs", body);
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_EQ(dialog_id_of(again), dialog_id_of(first));

  // The Idempotency-Key header does the same for a client that sends no msgId.
  const std::string plain = R"({"content":"keyed"})";
  const std::map<std::string, std::string> keyed{{"Idempotency-Key", "key-7"}};
  const auto by_key = client().request("POST", "/api/dialogs", plain, keyed);
  ASSERT_EQ(by_key.status, 201) << by_key.body;
  const auto by_key_again = client().request("POST", "/api/dialogs", plain, keyed);
  EXPECT_EQ(dialog_id_of(by_key_again), dialog_id_of(by_key));
  EXPECT_NE(dialog_id_of(by_key), dialog_id_of(first));

  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 2);
  const auto id = dialog_id_of(first);
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  EXPECT_EQ(user_messages(messages(id)), 1);
}

TEST_F(RestTest, ARetriedPostIsTakenOnceAndAReusedIdElsewhereIsAConflict) {
  start("q4h");
  const auto id = create_dialog("first");
  ASSERT_TRUE(eventually_says(id, "ok: first"));
  const json::value body{{"content", "second"}, {"msgId", "post-1"}};
  for (int attempt = 0; attempt < 3; ++attempt) {
    const auto posted = client().post("/api/dialogs/" + id + "/messages", body);
    ASSERT_EQ(posted.status, 202) << posted.body;
    EXPECT_EQ(posted.json().at("msgId"), "post-1");
  }
  ASSERT_TRUE(eventually_says(id, "ok: second"));
  EXPECT_TRUE(eventually([&] { return settled(id); }));
  EXPECT_EQ(user_messages(messages(id)), 2);

  const auto other = create_dialog("another");
  const auto reused = client().post("/api/dialogs/" + other + "/messages", body);
  EXPECT_EQ(reused.status, 409) << reused.body;
  EXPECT_NE(reused.body.find("msgId"), std::string::npos) << reused.body;
}

TEST_F(RestTest, AMessageIdOverItsLimitIsRefusedNamingTheField) {
  start("q4h");
  const auto reply = client().post("/api/dialogs", json::value{{"content", "hi"}, {"msgId", std::string(300, 'x')}});
  EXPECT_EQ(reply.status, 400) << reply.body;
  EXPECT_NE(reply.body.find("msgId: 300 bytes"), std::string::npos) << reply.body;
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 0);
}

}  // namespace
}  // namespace parley::test
