// PUT /api/dialogs/{id}/title (issue 43): a human names a dialog; the title is in the dialog's
// summary and the list at once, kept in the log (a restart keeps it), and a bad title is a 400
// naming `title` that changes nothing.
#include "parley/store/store.hpp"
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

class rest_title : public RestTest {
 protected:
  http_reply put_title(const std::string& id, const boost::json::value& body) {
    return client().request("PUT", "/api/dialogs/" + id + "/title", boost::json::serialize(body));
  }
  std::string title_of(const std::string& id) const {
    return std::string(dialog(id).at("dialog").at("title").as_string());
  }
};
using RestTitle = rest_title;

TEST_F(RestTitle, AHumansTitleIsStoredListedAndKeptAcrossARestart) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  const auto named = put_title(id, boost::json::object{{"title", "  Budget review Q3  "}});
  ASSERT_EQ(named.status, 200) << named.body;
  EXPECT_EQ(named.json(), (boost::json::value{{"title", "Budget review Q3"}}));
  EXPECT_EQ(title_of(id), "Budget review Q3");
  const auto listed = client().get("/api/dialogs").json().at("dialogs").as_array();
  ASSERT_EQ(listed.size(), 1U);
  EXPECT_EQ(listed[0].at("title"), "Budget review Q3");
  restart();
  EXPECT_EQ(title_of(id), "Budget review Q3");
}

TEST_F(RestTitle, AnEmptyLongOrControlCharacterTitleIsA400NamingTitleAndChangesNothing) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  const std::string before = title_of(id);
  for (const boost::json::value& body :
       {boost::json::value{{"title", ""}}, boost::json::value{{"title", "   "}},
        boost::json::value{{"title", std::string(10000, 'x')}}, boost::json::value{{"title", "two\nlines"}},
        boost::json::value{{"title", "bell\x07"}}, boost::json::value(boost::json::object{}),
        boost::json::value{{"title", 5}}, boost::json::value{{"title", "ok"}, {"tilte", "typo"}}}) {
    const auto refused = put_title(id, body);
    EXPECT_EQ(refused.status, 400) << boost::json::serialize(body) << ": " << refused.body;
    const std::string message = message_of(refused);
    EXPECT_TRUE(message.rfind("title", 0) == 0 || message.rfind("tilte", 0) == 0) << refused.body;
  }
  EXPECT_EQ(title_of(id), before);
  EXPECT_EQ(put_title("no-such-dialog", boost::json::object{{"title", "x"}}).status, 404);
}

}  // namespace
}  // namespace parley::test
