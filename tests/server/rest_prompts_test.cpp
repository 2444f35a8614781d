// Seed 002's ActivePromptLog over REST: each version of a dialog's prompt (system prompt and tools)
// is logged once, when the prompt takes it; every generation names the version it was given; a
// restart does not log an unchanged prompt again (another user's dialog: rest_users_test.cpp).
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

class prompts_rest : public RestTest {
 protected:
  json::array prompts(const std::string& id) const {
    const auto reply = client().get("/api/dialogs/" + id + "/prompts");
    EXPECT_EQ(reply.status, 200) << reply.body;
    const auto body = reply.json();
    return body.is_object() ? body.at("prompts").as_array() : json::array{};
  }
  static std::string text_of(const json::value& value) { return std::string(value.as_string()); }
};
using PromptsRest = prompts_rest;

TEST_F(PromptsRest, EachPromptVersionIsLoggedOnceWithTheGenerationsThatUsedIt) {
  start("q4h");
  const auto id = create_dialog("remember");
  ASSERT_TRUE(eventually_says(id, "noted"));

  // The reminder the first call added is in the second call's system prompt: two versions.
  auto logged = prompts(id);
  ASSERT_EQ(logged.size(), 2U) << json::serialize(logged);
  const auto first = logged.at(0).as_object();
  const auto second = logged.at(1).as_object();
  EXPECT_EQ(text_of(first.at("version")).rfind("pv-", 0), 0U);
  EXPECT_NE(first.at("version"), second.at("version"));
  EXPECT_NE(text_of(first.at("systemPrompt")).find("You lead."), std::string::npos);
  EXPECT_EQ(text_of(first.at("systemPrompt")).find("buy milk"), std::string::npos);
  EXPECT_NE(text_of(second.at("systemPrompt")).find("1. buy milk"), std::string::npos);
  EXPECT_EQ(first.at("model"), "scripted");
  const auto& tools = first.at("tools").as_array();
  EXPECT_NE(std::find(tools.begin(), tools.end(), json::value("add_reminder")), tools.end()) << json::serialize(tools);
  EXPECT_EQ(first.at("genseqs"), (json::array{1}));
  EXPECT_EQ(second.at("genseqs"), (json::array{2}));

  // The same prompt again — also after a restart — is not logged again; its generations add up.
  ASSERT_EQ(client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "hello"}}).status, 202);
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  restart();
  ASSERT_EQ(client().post("/api/dialogs/" + id + "/messages", json::value{{"content", "again"}}).status, 202);
  ASSERT_TRUE(eventually_says(id, "ok: again"));
  logged = prompts(id);
  ASSERT_EQ(logged.size(), 2U) << json::serialize(logged);
  EXPECT_EQ(logged.at(1).at("version"), second.at("version"));
  EXPECT_EQ(logged.at(1).at("genseqs"), (json::array{2, 3, 4}));
}

}  // namespace
}  // namespace parley::test
