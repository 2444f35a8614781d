// The PostgreSQL store beyond the shared contract (store_conformance_test.cpp): tree leases and
// the fence on every append, several processes on one database, and what a bad URL, a password
// that is wrong or a schema from a newer Parley get.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "store_scenarios.hpp"
#include "support/pg_test_schema.hpp"

namespace parley {
namespace {

using test::dialog_script;

postgres_options node(std::string name) {
  postgres_options options;
  options.node_id = std::move(name);
  options.lease_ttl = std::chrono::milliseconds(1500);
  return options;
}

std::unique_ptr<store> open_node(const std::string& url, const std::string& name) {
  auto opened = open_postgres_store(url, node(name));
  EXPECT_TRUE(opened) << opened.err().message;
  return opened ? std::move(*opened) : nullptr;
}

// What the log holds for one dialog, as (seq, type).
std::vector<std::pair<std::int64_t, std::string>> log_of(store& s, const std::string& dialog) {
  std::vector<std::pair<std::int64_t, std::string>> out;
  auto events = s.read_events(dialog);
  EXPECT_TRUE(events) << events.err().message;
  if (events) {
    for (const auto& ev : *events) out.emplace_back(ev.seq, std::string(ev.type()));
  }
  return out;
}

class PostgresStore : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(url_.empty()); }
  // Makes the tree's lease look expired, as it is when its holder was paused past it.
  void expire_lease(const std::string& root) {
    const std::string schema = url_.substr(url_.find("%3D") + 3);
    ASSERT_TRUE(test::pg_admin(test::pg_cluster_url(), "UPDATE " + schema +
                                                           ".tree_leases SET expires_at = now() - interval '1 second' "
                                                           "WHERE root_id = '" +
                                                           root + "'"));
  }

  std::string url_ = test::pg_fresh_schema_url();
};

TEST_F(PostgresStore, ATreeCreatedByOneNodeIsRefusedToAnotherWhileTheFirstHoldsIt) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  dialog_script d("r1", "r1");
  ASSERT_TRUE(test::append_sync(*a, {d.created("alice"), d.user("hello")}));

  auto claimed = b->claim_tree("r1");
  ASSERT_TRUE(claimed) << claimed.err().message;
  EXPECT_FALSE(*claimed);
  const auto refused = test::append_sync(*b, {d.user("from b")});
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::conflict);
  EXPECT_NE(refused.err().message.find("driven by another Parley process"), std::string::npos) << refused.err().message;
  EXPECT_EQ(log_of(*a, "r1").size(), 2U);
}

TEST_F(PostgresStore, ANodePausedPastItsLeaseCanNeverAppendToTheTreeTakenOverAgain) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  dialog_script d("r1", "r1");
  ASSERT_TRUE(test::append_sync(*a, {d.created("alice"), d.user("hello")}));

  expire_lease("r1");
  auto claimed = b->claim_tree("r1");
  ASSERT_TRUE(claimed && *claimed);
  // B goes on from the log; A's next append carries the epoch it held and is refused whole.
  dialog_script from_b("r1", "r1");
  from_b.skip_seq();
  from_b.skip_seq();
  ASSERT_TRUE(test::append_sync(*b, {from_b.user("b took over")}));
  const auto stale = test::append_sync(*a, {d.user("a after the pause")});
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.err().code, errc::conflict);
  // Nor does A get the tree back by asking while B holds it.
  const auto again = test::append_sync(*a, {d.user("a again")});
  EXPECT_FALSE(again);

  const auto log = log_of(*b, "r1");
  ASSERT_EQ(log.size(), 3U);
  EXPECT_EQ(log.back().first, 3);
  auto events = b->read_events("r1", 2);
  ASSERT_TRUE(events && events->size() == 1U);
  EXPECT_EQ(events->front().as<events::user_message>()->content, "b took over");
}

TEST_F(PostgresStore, ANodeThatLostATreeNeverClaimsItBackByAppendingEvenWhenItsSeqsFit) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  dialog_script d("r1", "r1");
  ASSERT_TRUE(test::append_sync(*a, {d.created("alice"), d.user("hello")}));
  expire_lease("r1");
  ASSERT_TRUE(b->claim_tree("r1").value());
  dialog_script from_b("r1", "r1");
  from_b.skip_seq();
  from_b.skip_seq();
  ASSERT_TRUE(test::append_sync(*b, {from_b.user("b took over")}));  // seq 3
  b->release_tree("r1");
  b->flush();
  // A's stale batch is refused by the fence; its next one would fit the log (seq 4) and the
  // lease is free, yet it is refused too: what A holds of the tree in memory is stale.
  ASSERT_FALSE(test::append_sync(*a, {d.user("stale 3")}));
  const auto refused = test::append_sync(*a, {d.user("stale 4")});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.err().message.find("taken over"), std::string::npos) << refused.err().message;
  EXPECT_EQ(log_of(*b, "r1").size(), 3U);
  // Claimed explicitly (as recovery does before it reads the tree again), it writes again.
  ASSERT_TRUE(a->claim_tree("r1").value());
  dialog_script fresh("r1", "r1");
  for (int i = 0; i < 3; ++i) fresh.skip_seq();
  EXPECT_TRUE(test::append_sync(*a, {fresh.user("a again, from the log")}));
}

TEST_F(PostgresStore, AReleasedTreeIsTakenByAnotherNodeAtOnce) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  dialog_script d("r1", "r1");
  ASSERT_TRUE(test::append_sync(*a, {d.created("alice")}));
  a->release_tree("r1");
  a->flush();
  auto claimed = b->claim_tree("r1");
  ASSERT_TRUE(claimed) << claimed.err().message;
  EXPECT_TRUE(*claimed);
  EXPECT_TRUE(test::append_sync(*b, {d.user("b's turn")}));
}

TEST_F(PostgresStore, ATreeThatOwesWorkAndWhoseHolderStoppedIsOrphaned) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  dialog_script owes("owes", "owes");
  dialog_script done("done", "done");
  ASSERT_TRUE(test::append_sync(*a, {owes.created("alice"), owes.user("do it")}));  // needs a drive
  ASSERT_TRUE(test::append_sync(*a, {done.created("alice"), done.status("completed")}));

  auto none = b->orphaned_trees();
  ASSERT_TRUE(none) << none.err().message;
  EXPECT_TRUE(none->empty()) << "A still holds its trees";

  expire_lease("owes");
  expire_lease("done");
  auto orphaned = b->orphaned_trees();
  ASSERT_TRUE(orphaned);
  EXPECT_EQ(*orphaned, std::vector<std::string>{"owes"});
}

TEST_F(PostgresStore, LeasesAreRenewedWhileHeldSoATreeIsNeverOrphanedUnderALiveNode) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  dialog_script d("r1", "r1");
  ASSERT_TRUE(test::append_sync(*a, {d.created("alice"), d.user("hello")}));
  // Three lease lengths without an append: the holder's renewals keep it.
  std::this_thread::sleep_for(std::chrono::milliseconds(4500));
  auto orphaned = b->orphaned_trees();
  ASSERT_TRUE(orphaned);
  EXPECT_TRUE(orphaned->empty());
  auto claimed = b->claim_tree("r1");
  ASSERT_TRUE(claimed);
  EXPECT_FALSE(*claimed);
}

TEST_F(PostgresStore, ClosingANodeGivesItsLeasesBack) {
  dialog_script d("r1", "r1");
  {
    auto a = open_node(url_, "node-a");
    ASSERT_TRUE(a);
    ASSERT_TRUE(test::append_sync(*a, {d.created("alice"), d.user("hello")}));
  }
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(b);
  auto orphaned = b->orphaned_trees();
  ASSERT_TRUE(orphaned);
  EXPECT_EQ(*orphaned, std::vector<std::string>{"r1"});
}

TEST_F(PostgresStore, AWrongPasswordIsOneLineThatNeverShowsThePassword) {
  std::string url = url_;
  const auto at = url.find('@');
  const auto colon = url.rfind(':', at);
  url.replace(colon + 1, at - colon - 1, "not-the-Secret-42");
  auto opened = open_postgres_store(url);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.err().code, errc::config_error);
  EXPECT_EQ(opened.err().message.find("not-the-Secret-42"), std::string::npos) << opened.err().message;
  EXPECT_NE(opened.err().message.find("***"), std::string::npos) << opened.err().message;
  EXPECT_EQ(opened.err().message.find('\n'), std::string::npos);
}

TEST_F(PostgresStore, NothingListeningFailsAsUnavailableAfterItsWait) {
  postgres_options options;
  options.connect_wait = std::chrono::milliseconds(300);
  auto opened = open_postgres_store("postgresql://parley:pw@127.0.0.1:1/postgres", options);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.err().code, errc::unavailable);
  EXPECT_NE(opened.err().message.find("127.0.0.1"), std::string::npos) << opened.err().message;
  EXPECT_EQ(opened.err().message.find(":pw@"), std::string::npos) << opened.err().message;
}

TEST_F(PostgresStore, ASchemaFromANewerParleyIsRefusedNamingBothVersions) {
  { ASSERT_TRUE(open_node(url_, "first")); }
  const std::string schema = url_.substr(url_.find("%3D") + 3);
  ASSERT_TRUE(test::pg_admin(test::pg_cluster_url(), "INSERT INTO " + schema + ".parley_schema VALUES (99)"));
  auto opened = open_postgres_store(url_);
  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.err().code, errc::config_error);
  EXPECT_NE(opened.err().message.find("version 99"), std::string::npos) << opened.err().message;
}

TEST_F(PostgresStore, TwoNodesMigratingAtOnceMakeOneSchema) {
  std::unique_ptr<store> first;
  std::unique_ptr<store> second;
  std::thread other([&] { second = open_node(url_, "node-b"); });
  first = open_node(url_, "node-a");
  other.join();
  ASSERT_TRUE(first && second);
  dialog_script d("r1", "r1");
  ASSERT_TRUE(test::append_sync(*first, {d.created("alice")}));
  auto row = second->get_dialog("r1");
  ASSERT_TRUE(row && row->has_value());
}

// What one node appends reaches another as a hint (pg_change_feed.hpp), sent by neither append.
TEST_F(PostgresStore, AnotherNodeHearsOfWhatOneAppendsAndOfInputForwardedToIt) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  std::mutex mutex;
  std::condition_variable heard;
  std::vector<appended_hint> appended;
  std::vector<std::string> inputs_for;
  bool missed = false;
  b->watch_changes([&](change_hints hints) {
    std::lock_guard lock(mutex);
    missed = missed || hints.missed;
    for (auto& hint : hints.appended) appended.push_back(std::move(hint));
    for (auto& root : hints.inputs_for) inputs_for.push_back(std::move(root));
    heard.notify_all();
  });
  dialog_script d("r1", "r1");
  ASSERT_TRUE(test::append_sync(*a, {d.created("alice"), d.user("hello")}));
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(heard.wait_for(lock, std::chrono::seconds(20), [&] { return !appended.empty(); }));
    EXPECT_TRUE(missed) << "watching starts with a catch-up";
    EXPECT_EQ(appended.back().dialog_id, "r1");
    EXPECT_EQ(appended.back().seq, 2);
    EXPECT_TRUE(appended.back().list_changed) << "a new root changes the list";
  }

  // Input for node a's tree, posted to node b: kept until a drops it.
  const forwarded_input input{0, "r1", "r1", "", "from b", "msg-1", "bob"};
  ASSERT_TRUE(b->forward_input(input));
  auto pending = a->pending_inputs();
  ASSERT_TRUE(pending) << pending.err().message;
  ASSERT_EQ(pending->size(), 1U);
  EXPECT_EQ((*pending)[0].content, "from b");
  EXPECT_EQ((*pending)[0].msg_id, "msg-1");
  EXPECT_EQ((*pending)[0].from, "bob");
  ASSERT_TRUE(a->drop_input((*pending)[0].id));
  pending = b->pending_inputs();
  ASSERT_TRUE(pending);
  EXPECT_TRUE(pending->empty());

  // Node b hears nothing of its own forwarding, but node a does: watch it too.
  std::vector<std::string> heard_by_a;
  a->watch_changes([&](change_hints hints) {
    std::lock_guard lock(mutex);
    for (auto& root : hints.inputs_for) heard_by_a.push_back(std::move(root));
    heard.notify_all();
  });
  ASSERT_TRUE(b->forward_input(input));
  std::unique_lock lock(mutex);
  ASSERT_TRUE(heard.wait_for(lock, std::chrono::seconds(20), [&] { return !heard_by_a.empty(); }));
  EXPECT_EQ(heard_by_a.front(), "r1");
  EXPECT_TRUE(inputs_for.empty()) << "a node's own hints are not delivered to it";
}

TEST_F(PostgresStore, AWatcherReadsWhatSeveralDialogsHavePastItsSeqsInOneCall) {
  auto a = open_node(url_, "node-a");
  auto b = open_node(url_, "node-b");
  ASSERT_TRUE(a && b);
  dialog_script d1("r1", "r1");
  dialog_script d2("r2", "r2");
  ASSERT_TRUE(test::append_sync(*a, {d1.created("alice"), d1.user("one"), d1.user("two")}));
  ASSERT_TRUE(test::append_sync(*a, {d2.created("alice"), d2.user("three")}));
  auto found = b->read_since({{"r1", 1}, {"r2", 2}, {"missing", 0}});
  ASSERT_TRUE(found) << found.err().message;
  ASSERT_EQ(found->size(), 2U);
  for (const auto& since : *found) {
    if (since.row.id == "r1") {
      ASSERT_EQ(since.events.size(), 2U);
      EXPECT_EQ(since.events[0].seq, 2);
      EXPECT_EQ(since.events[1].seq, 3);
      EXPECT_EQ(since.row.last_seq, 3);
    } else {
      EXPECT_EQ(since.row.id, "r2");
      EXPECT_TRUE(since.events.empty());
    }
  }
}

TEST_F(PostgresStore, RedactedUrlsMaskEveryFormOfPassword) {
  EXPECT_EQ(redacted_postgres_url("postgresql://u:secret@h:5432/db"), "postgresql://u:***@h:5432/db");
  EXPECT_EQ(redacted_postgres_url("postgresql://h/db?user=u&password=secret&x=1"),
            "postgresql://h/db?user=u&password=***&x=1");
  EXPECT_EQ(redacted_postgres_url("postgresql://u@h/db"), "postgresql://u@h/db");
}

}  // namespace
}  // namespace parley
