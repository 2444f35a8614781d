// POST /api/dialogs/{id}/replay (docs/fork.md "Replay"): a replay of a root made over REST and
// driven in the background with the change, naming its origin; a bad body is refused naming the
// field, and writes nothing.
#include <filesystem>

#include "rest_fixture.hpp"

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

}  // namespace
}  // namespace parley::test
