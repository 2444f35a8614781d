// Seed 001's root lifecycle over REST: running → completed → archived and reopen; a completed root
// refuses new input until it is reopened; a root with work in flight (a question for a human, a
// subdialog working) is not completed or archived, and the refusal names the work; every refusal
// leaves the log as it was.
#include <memory>

#include "parley/store/store.hpp"
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

class root_lifecycle : public RestTest {
 protected:
  http_reply act(const std::string& id, const std::string& verb) {
    return client().post("/api/dialogs/" + id + "/" + verb, std::string(""));
  }
  std::string status(const std::string& id) const {
    return std::string(dialog(id).at("dialog").at("status").as_string());
  }
  // The root's stored events, read beside the server that writes them (a read-only snapshot).
  std::size_t events_of(const std::string& id) const {
    auto opened = open_sqlite_store_read_only((data_dir()).string());
    if (!opened) return 0;
    auto events = (*opened)->read_events(id);
    return events ? events->size() : 0;
  }
};
using RootLifecycle = root_lifecycle;

TEST_F(RootLifecycle, ARootIsCompletedArchivedAndReopenedAndACompletedRootRefusesInputUntilReopened) {
  start("q4h");
  const auto id = create_dialog("hello");
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  ASSERT_TRUE(eventually([&] { return settled(id); }));

  const auto completed = act(id, "complete");
  ASSERT_EQ(completed.status, 200) << completed.body;
  EXPECT_EQ(completed.json().at("dialog").at("status"), "completed");
  EXPECT_EQ(status(id), "completed");

  // A completed root takes no input: the refusal says how to go on, and the log is unchanged.
  const auto before = events_of(id);
  const auto refused = client().post("/api/dialogs/" + id + "/messages", boost::json::value{{"content", "more"}});
  EXPECT_EQ(refused.status, 409) << refused.body;
  EXPECT_NE(message_of(refused).find("reopen"), std::string::npos) << refused.body;
  const auto again = act(id, "complete");
  EXPECT_EQ(again.status, 409) << again.body;
  EXPECT_NE(message_of(again).find("already completed"), std::string::npos) << again.body;
  EXPECT_EQ(events_of(id), before);

  // The lists' tabs mean something now.
  const auto listed = client().get("/api/dialogs?status=completed").json().at("dialogs").as_array();
  ASSERT_EQ(listed.size(), 1U);
  EXPECT_EQ(listed[0].at("id"), id.c_str());
  EXPECT_TRUE(client().get("/api/dialogs?status=running").json().at("dialogs").as_array().empty());

  ASSERT_EQ(act(id, "archive").status, 200);
  EXPECT_EQ(status(id), "archived");
  const auto complete_archived = act(id, "complete");
  EXPECT_EQ(complete_archived.status, 409) << complete_archived.body;
  EXPECT_NE(message_of(complete_archived).find("archived"), std::string::npos);

  const auto reopened = act(id, "reopen");
  ASSERT_EQ(reopened.status, 200) << reopened.body;
  EXPECT_EQ(status(id), "running");
  EXPECT_EQ(act(id, "reopen").status, 409);
  EXPECT_EQ(client().post("/api/dialogs/" + id + "/messages", boost::json::value{{"content", "again"}}).status, 202);
  EXPECT_TRUE(eventually_says(id, "ok: again"));
}

TEST_F(RootLifecycle, WorkInFlightIsNamedAndNothingChanges) {
  start("q4h");
  const auto root = create_dialog("delegate the trip");
  // The clerk's subdialog asks a human; the root waits for the subdialog.
  ASSERT_TRUE(eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
  const auto question = client().get("/api/questions").json().at("questions").at(0);
  const std::string sub(question.at("dialog").at("selfId").as_string());
  ASSERT_TRUE(eventually([&] {
    const auto summary = dialog(root).at("dialog");
    return summary.at("generating") == false && summary.at("pendingSubdialogs") == 1;
  }));
  const auto before = events_of(root);

  for (const std::string verb : {"complete", "archive"}) {
    const auto refused = act(root, verb);
    EXPECT_EQ(refused.status, 409) << verb << ": " << refused.body;
    EXPECT_NE(message_of(refused).find("waits for subdialog(s) " + sub), std::string::npos) << refused.body;
    EXPECT_NE(message_of(refused).find("nothing was changed"), std::string::npos) << refused.body;
  }
  EXPECT_EQ(status(root), "running");
  EXPECT_EQ(events_of(root), before);

  // Only a root has this lifecycle; a subdialog completes by replying.
  const auto on_sub = act(sub, "complete");
  EXPECT_EQ(on_sub.status, 400) << on_sub.body;
  EXPECT_NE(message_of(on_sub).find("subdialog"), std::string::npos);

  // Unknown dialogs, and a body with fields these verbs do not take.
  EXPECT_EQ(act("no-such-dialog", "archive").status, 404);
  const auto with_body = client().post("/api/dialogs/" + root + "/complete", boost::json::value{{"force", true}});
  EXPECT_EQ(with_body.status, 400) << with_body.body;
  EXPECT_NE(message_of(with_body).find("force"), std::string::npos);
  EXPECT_EQ(events_of(root), before);
}

// Run control: stop all records its reason with the stopped generation, the status counts what runs
// and what resume would drive, and resume all drives it again.
TEST_F(RootLifecycle, StopAllRecordsItsReasonAndResumeAllDrivesWhatItStopped) {
  start("slow");
  const auto id = create_dialog("talk slowly");
  ASSERT_TRUE(eventually([&] { return client().get("/api/status").json().at("dialogs").at("running") == 1; }));

  const auto stopped = client().post("/api/stop_all", boost::json::value{{"reason", "lunch break"}});
  ASSERT_EQ(stopped.status, 200) << stopped.body;
  EXPECT_EQ(stopped.json().at("stopped"), (boost::json::array{id.c_str()}));
  ASSERT_TRUE(eventually([&] { return settled(id); }));
  const auto counts = client().get("/api/status").json().at("dialogs");
  EXPECT_EQ(counts.at("running"), 0);
  EXPECT_EQ(counts.at("resumable"), 1);

  // The stop's reason is in the log, with the interrupted generation.
  bool recorded = false;
  {
    auto opened = open_sqlite_store_read_only(data_dir().string());
    ASSERT_TRUE(opened) << opened.err().message;
    auto events = (*opened)->read_events(id);
    ASSERT_TRUE(events);
    for (const auto& ev : *events) {
      if (const auto* finished = ev.as<events::generation_finished>(); finished && finished->interrupted) {
        ASSERT_TRUE(finished->stop_reason.has_value());
        EXPECT_NE(finished->stop_reason->find("(stop all): lunch break"), std::string::npos) << *finished->stop_reason;
        recorded = true;
      }
    }
  }
  EXPECT_TRUE(recorded);

  // A reason that is not text is refused, naming the field.
  const auto bad = client().post("/api/stop_all", boost::json::value{{"reason", 7}});
  EXPECT_EQ(bad.status, 400) << bad.body;
  EXPECT_NE(message_of(bad).find("reason"), std::string::npos);

  const auto resumed = client().post("/api/resume_all", std::string(""));
  ASSERT_EQ(resumed.status, 200) << resumed.body;
  EXPECT_EQ(resumed.json().at("resumed"), (boost::json::array{id.c_str()}));
  EXPECT_TRUE(eventually([&] { return dialog(id).at("dialog").at("generating") == true; }));
  EXPECT_EQ(client().post("/api/stop_all", std::string("")).status, 200);
}

}  // namespace
}  // namespace parley::test
