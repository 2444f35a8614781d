// The store contract, run against every implementation: the same cases must pass for the
// in-memory store and the SQLite store.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <thread>
#include <type_traits>

#include "parley/model/projection.hpp"
#include "support/pg_test_schema.hpp"
#include "store_scenarios.hpp"

namespace parley {
namespace {

using test::dialog_script;
using test::temp_dir;

struct memory_kind {
  static std::unique_ptr<store> open(const temp_dir&) { return make_memory_store(); }
};

struct sqlite_kind {
  static std::unique_ptr<store> open(const temp_dir& dir) {
    auto opened = open_sqlite_store(dir.str());
    if (!opened) {
      ADD_FAILURE() << opened.err().message;
      return nullptr;
    }
    return std::move(*opened);
  }
};

struct postgres_kind {
  static std::unique_ptr<store> open(const temp_dir&) {
    const std::string url = test::pg_fresh_schema_url();
    if (url.empty()) return nullptr;
    auto opened = open_postgres_store(url);
    if (!opened) {
      ADD_FAILURE() << opened.err().message;
      return nullptr;
    }
    return std::move(*opened);
  }
};

template <class Kind>
class StoreConformance : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NE(store_, nullptr); }

  void append_ok(std::vector<event> batch) {
    auto appended = test::append_sync(*store_, std::move(batch));
    ASSERT_TRUE(appended) << appended.err().message;
  }
  dialog_row dialog(const std::string& id) {
    auto row = store_->get_dialog(id);
    EXPECT_TRUE(row && row->has_value()) << "no dialog " << id;
    return row && row->has_value() ? **row : dialog_row{};
  }
  std::vector<message_row> messages(const std::string& id, std::int64_t course) {
    auto rows = store_->messages(id, course);
    EXPECT_TRUE(rows);
    return rows ? *rows : std::vector<message_row>{};
  }
  std::vector<dialog_row> list(const dialog_filter& filter) {
    auto rows = store_->list_dialogs(filter);
    EXPECT_TRUE(rows);
    return rows ? *rows : std::vector<dialog_row>{};
  }
  static std::vector<std::string> ids(const std::vector<dialog_row>& rows) {
    std::vector<std::string> out;
    for (const auto& row : rows) out.push_back(row.id);
    return out;
  }

  temp_dir dir_;
  std::unique_ptr<store> store_ = Kind::open(dir_);
};

using store_kinds = ::testing::Types<memory_kind, sqlite_kind, postgres_kind>;
class kind_names {
 public:
  template <class T>
  static std::string GetName(int) {  // NOLINT(readability-identifier-naming): GoogleTest's hook
    if (std::is_same_v<T, memory_kind>) return "Memory";
    return std::is_same_v<T, sqlite_kind> ? "Sqlite" : "Postgres";
  }
};
TYPED_TEST_SUITE(StoreConformance, store_kinds, kind_names);

TYPED_TEST(StoreConformance, AppendedEventsReadBackWithPayloadsInSeqOrder) {
  dialog_script d("d1", "d1");
  const std::vector<event> batch = test::realistic_dialog(d);
  this->append_ok(batch);
  auto events = this->store_->read_events("d1");
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    EXPECT_EQ((*events)[i].dialog_id, batch[i].dialog_id);
    EXPECT_EQ((*events)[i].root_id, batch[i].root_id);
    EXPECT_EQ((*events)[i].seq, batch[i].seq);
    EXPECT_EQ((*events)[i].type(), batch[i].type());
    EXPECT_EQ((*events)[i].payload, batch[i].payload);
    EXPECT_EQ((*events)[i].ts_ms, batch[i].ts_ms);
  }
}

TYPED_TEST(StoreConformance, ReadEventsAfterSeqReturnsOnlyLaterEvents) {
  dialog_script d("d1", "d1");
  this->append_ok({d.created("alice"), d.user("a"), d.user("b"), d.user("c")});
  auto later = this->store_->read_events("d1", 2);
  ASSERT_TRUE(later);
  ASSERT_EQ(later->size(), 2U);
  EXPECT_EQ((*later)[0].seq, 3);
  EXPECT_EQ((*later)[1].seq, 4);
  auto none = this->store_->read_events("nobody");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

TYPED_TEST(StoreConformance, ReadAllEventsFollowsCommitOrderAcrossDialogs) {
  dialog_script a("a", "a");
  dialog_script b("b", "b");
  this->append_ok({a.created("alice")});
  this->append_ok({b.created("bob"), b.user("b1")});
  this->append_ok({a.user("a1")});
  auto all = this->store_->read_all_events();
  ASSERT_TRUE(all);
  std::vector<std::pair<std::string, std::int64_t>> order;
  for (const auto& ev : *all) order.emplace_back(ev.dialog_id, ev.seq);
  const std::vector<std::pair<std::string, std::int64_t>> expected{{"a", 1}, {"b", 1}, {"b", 2}, {"a", 2}};
  EXPECT_EQ(order, expected);
}

TYPED_TEST(StoreConformance, ProjectionsFollowARealisticDialog) {
  dialog_script d("d1", "d1", 1000);
  this->append_ok(test::realistic_dialog(d));

  const dialog_row row = this->dialog("d1");
  EXPECT_EQ(row.member_id, "alice");
  EXPECT_EQ(row.kind, events::dialog_kind::root);
  EXPECT_EQ(row.title, "Plan");
  EXPECT_EQ(row.task_doc_path, "tasks/plan.md");
  EXPECT_EQ(row.status, events::dialog_status::completed);
  EXPECT_EQ(row.course, 2);
  EXPECT_EQ(row.last_seq, 10);
  EXPECT_EQ(row.last_genseq, 2);
  EXPECT_EQ(row.message_count, 1);
  EXPECT_EQ(row.input_tokens, 250);
  EXPECT_EQ(row.output_tokens, 50);
  EXPECT_FALSE(row.generating);
  EXPECT_EQ(row.created_at_ms, 1000);
  EXPECT_EQ(row.updated_at_ms, 1009);

  const auto first = this->messages("d1", 1);
  ASSERT_EQ(first.size(), 4U);
  EXPECT_EQ(first[0].role, parley::events::message_role::user);
  EXPECT_EQ(first[0].content, "hello");
  EXPECT_EQ(first[1].role, parley::events::message_role::assistant);
  EXPECT_EQ(first[1].content, "let me look");
  EXPECT_EQ(first[1].thinking, "hmm");
  EXPECT_EQ(first[1].genseq, 1);
  EXPECT_EQ(test::json::value(parley::events::encode_value(first[1].tool_calls)),
            test::json::value(test::sample_tool_calls()));
  EXPECT_EQ(first[2].role, parley::events::message_role::tool);
  EXPECT_EQ(first[2].tool_call_id, "c1");
  EXPECT_EQ(first[2].tool_name, "read_file");
  EXPECT_TRUE(first[2].ok);
  EXPECT_EQ(first[2].content, "file text");
  EXPECT_EQ(first[3].content, "done");
  EXPECT_TRUE(first[3].tool_calls.empty());

  const auto second = this->messages("d1", 2);
  ASSERT_EQ(second.size(), 1U);
  EXPECT_EQ(second[0].content, "again");
  EXPECT_EQ(second[0].origin, parley::events::message_origin::system);
  EXPECT_EQ(second[0].course, 2);
  EXPECT_EQ(second[0].seq, 10);

  const auto all = this->messages("d1", 0);
  ASSERT_EQ(all.size(), 5U);
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1].seq, all[i].seq);
}

TYPED_TEST(StoreConformance, ProjectionsEqualTheReferenceFoldOfApplyEvent) {
  const auto history = test::varied_history(7, 2, 120);
  std::map<std::string, dialog_row> rows;
  std::map<std::string, std::vector<message_row>> msgs;
  for (const auto& batch : history) {
    this->append_ok(batch);
    for (const auto& ev : batch) {
      auto step = apply_event(ev, rows[ev.dialog_id]);
      ASSERT_TRUE(step) << step.err().message;
      if (step->new_message) msgs[ev.dialog_id].push_back(*step->new_message);
    }
  }
  for (const auto& [id, expected] : rows) {
    EXPECT_EQ(this->dialog(id), expected) << id;
    EXPECT_EQ(this->messages(id, 0), msgs[id]) << id;
  }
}

TYPED_TEST(StoreConformance, BatchWithSeqGapIsRejectedAndChangesNothing) {
  dialog_script d("d1", "d1");
  this->append_ok({d.created("alice")});
  const dialog_row before = this->dialog("d1");
  d.skip_seq();
  auto rejected = test::append_sync(*this->store_, {d.user("lost")});
  ASSERT_FALSE(rejected);
  EXPECT_EQ(rejected.err().code, errc::conflict);
  EXPECT_EQ(this->dialog("d1"), before);
  EXPECT_TRUE(this->messages("d1", 0).empty());
  EXPECT_EQ(this->store_->read_all_events()->size(), 1U);
}

TYPED_TEST(StoreConformance, BatchIsAllOrNothingWhenALaterEventFails) {
  dialog_script d("d1", "d1");
  this->append_ok({d.created("alice")});
  std::vector<event> batch{d.user("first"), d.user("second")};
  batch.push_back(batch.back());  // a repeated seq
  auto rejected = test::append_sync(*this->store_, std::move(batch));
  ASSERT_FALSE(rejected);
  EXPECT_EQ(this->dialog("d1").last_seq, 1);
  EXPECT_TRUE(this->messages("d1", 0).empty());
  EXPECT_EQ(this->store_->read_events("d1")->size(), 1U);
  // Seq 2 is still free: the rejected batch left no trace.
  this->append_ok({test::make_event("d1", "d1", 2, event_type::user_message, {{"content", "retry"}}, 50)});
}

TYPED_TEST(StoreConformance, EventForUnknownDialogIsRejectedAsNotFound) {
  dialog_script d("ghost", "ghost");
  d.skip_seq();
  auto rejected = test::append_sync(*this->store_, {d.user("boo")});
  ASSERT_FALSE(rejected);
  EXPECT_EQ(rejected.err().code, errc::not_found);
  EXPECT_FALSE(this->store_->get_dialog("ghost")->has_value());
}

TYPED_TEST(StoreConformance, CreatingADialogTwiceIsAConflict) {
  dialog_script d("d1", "d1");
  this->append_ok({d.created("alice")});
  auto again = test::append_sync(*this->store_, {test::make_event("d1", "d1", 2, event_type::dialog_created, {}, 5)});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.err().code, errc::conflict);
}

TYPED_TEST(StoreConformance, EventWithoutDialogIdIsRejected) {
  auto rejected = test::append_sync(*this->store_, {test::make_event("", "", 1, event_type::dialog_created, {}, 5)});
  ASSERT_FALSE(rejected);
  EXPECT_EQ(rejected.err().code, errc::invalid_argument);
  EXPECT_TRUE(this->store_->read_all_events()->empty());
}

TYPED_TEST(StoreConformance, BatchSpanningTwoDialogsAppliesToBoth) {
  dialog_script a("a", "a");
  dialog_script b("b", "a");
  this->append_ok({a.created("alice"), b.created("bob", "a"), a.user("to a"), b.user("to b")});
  EXPECT_EQ(this->dialog("a").message_count, 1);
  EXPECT_EQ(this->dialog("b").message_count, 1);
  EXPECT_EQ(this->dialog("b").parent_id, "a");
}

TYPED_TEST(StoreConformance, ListDialogsFiltersByStatusMemberRootAndRootsOnly) {
  dialog_script r1("r1", "r1", 100);
  dialog_script s1("s1", "r1", 200);
  dialog_script r2("r2", "r2", 300);
  this->append_ok({r1.created("alice"), s1.created("bob", "r1"), r2.created("bob")});
  this->append_ok({r2.status("completed")});

  EXPECT_EQ(this->ids(this->list({})), (std::vector<std::string>{"r1", "s1", "r2"}));
  EXPECT_EQ(this->ids(this->list({.status = events::dialog_status::completed})), (std::vector<std::string>{"r2"}));
  EXPECT_EQ(this->ids(this->list({.status = events::dialog_status::running})), (std::vector<std::string>{"r1", "s1"}));
  EXPECT_EQ(this->ids(this->list({.member_id = "bob"})), (std::vector<std::string>{"s1", "r2"}));
  EXPECT_EQ(this->ids(this->list({.root_id = "r1"})), (std::vector<std::string>{"r1", "s1"}));
  EXPECT_EQ(this->ids(this->list({.roots_only = true})), (std::vector<std::string>{"r1", "r2"}));
  EXPECT_EQ(this->ids(this->list({.member_id = "bob", .roots_only = true})), (std::vector<std::string>{"r2"}));
  EXPECT_TRUE(this->list({.status = events::dialog_status::archived}).empty());
}

TYPED_TEST(StoreConformance, ListDialogsFindsThoseARestartMustLookAtAndThoseThatAskAHuman) {
  dialog_script idle("idle", "idle", 100);
  dialog_script owed("owed", "owed", 200);
  dialog_script asking("asking", "asking", 300);
  this->append_ok({idle.created("m"), owed.created("m"), asking.created("m")});
  this->append_ok({owed.user("do it")});  // a drive is owed
  this->append_ok({asking.next(event_type::question_asked, {{"course", 1},
                                                            {"genseq", 1},
                                                            {"callId", "c1"},
                                                            {"questionId", "q1"},
                                                            {"mentionList", "@human"},
                                                            {"tellaskContent", "which day?"},
                                                            {"askedAt", "2026-11-26T09:00:00.000Z"}})});
  EXPECT_EQ(this->ids(this->list({.status = events::dialog_status::running, .needing_recovery = true})),
            (std::vector<std::string>{"owed"}));
  EXPECT_EQ(this->ids(this->list({.with_open_questions = true})), (std::vector<std::string>{"asking"}));
}

TYPED_TEST(StoreConformance, ListDialogsOrdersByCreatedAtThenIdWithLimitAndOffset) {
  // "b" and "a" share a creation time, so the id breaks the tie.
  dialog_script c("c", "c", 10);
  dialog_script b("b", "b", 20);
  dialog_script a("a", "a", 20);
  dialog_script z("z", "z", 5);
  this->append_ok({c.created("m"), b.created("m"), a.created("m"), z.created("m")});
  EXPECT_EQ(this->ids(this->list({})), (std::vector<std::string>{"z", "c", "a", "b"}));
  EXPECT_EQ(this->ids(this->list({.limit = 2})), (std::vector<std::string>{"z", "c"}));
  EXPECT_EQ(this->ids(this->list({.limit = 2, .offset = 1})), (std::vector<std::string>{"c", "a"}));
  EXPECT_EQ(this->ids(this->list({.offset = 3})), (std::vector<std::string>{"b"}));
  EXPECT_TRUE(this->list({.offset = 10}).empty());
}

// Roots newest first: each page starts after the key of the one before (keyset), subdialogs
// never show, `more` says whether another page follows and `total` counts every match.
TYPED_TEST(StoreConformance, RootsListNewestFirstAndPageByTheKeyOfTheLastRowShown) {
  dialog_script r1("r1", "r1", 100);
  dialog_script r2("r2", "r2", 200);
  dialog_script r3b("r3b", "r3b", 300);
  dialog_script r3a("r3a", "r3a", 300);  // same millisecond as r3b: the id breaks the tie
  dialog_script s1("s1", "r1", 400);
  this->append_ok({r1.created("m"), r2.created("m"), r3b.created("m"), r3a.created("m"), s1.created("m", "r1")});

  root_listing listing{.limit = 2, .with_total = true};
  auto first = this->store_->list_roots(listing);
  ASSERT_TRUE(first) << first.err().message;
  EXPECT_EQ(this->ids(first->rows), (std::vector<std::string>{"r3b", "r3a"}));
  EXPECT_TRUE(first->more);
  EXPECT_EQ(first->total, 4);

  listing.after = page_key_of(first->rows.back());
  listing.with_total = false;
  auto second = this->store_->list_roots(listing);
  ASSERT_TRUE(second) << second.err().message;
  EXPECT_EQ(this->ids(second->rows), (std::vector<std::string>{"r2", "r1"}));
  EXPECT_FALSE(second->more);
  EXPECT_FALSE(second->total.has_value());

  // A root created after the first page was read does not shift the pages that follow it.
  dialog_script newest("r9", "r9", 900);
  this->append_ok({newest.created("m")});
  auto again = this->store_->list_roots(listing);
  ASSERT_TRUE(again);
  EXPECT_EQ(this->ids(again->rows), (std::vector<std::string>{"r2", "r1"}));

  // offset, for old clients, skips rows after the key.
  auto skipped = this->store_->list_roots({.limit = 2, .offset = 3});
  ASSERT_TRUE(skipped);
  EXPECT_EQ(this->ids(skipped->rows), (std::vector<std::string>{"r2", "r1"}));
  EXPECT_FALSE(skipped->more);
}

TYPED_TEST(StoreConformance, RootsFilterByStatusMemberViewerAndTextOfTitlesAndHumanMessages) {
  const auto root_of = [](dialog_script& d, std::string_view member, std::string_view title,
                          boost::json::array humans) {
    boost::json::object payload{{"memberId", member}, {"kind", "root"}, {"depth", 0}};
    if (!title.empty()) payload["title"] = title;
    if (!humans.empty()) payload["humans"] = std::move(humans);
    return d.next(event_type::dialog_created, std::move(payload));
  };
  dialog_script plan("plan", "plan", 100);
  dialog_script ship("ship", "ship", 200);
  dialog_script lone("lone", "lone", 300);
  dialog_script sub("sub", "plan", 400);
  this->append_ok({root_of(plan, "alice", "Quarterly PLAN", {"ann"}), root_of(ship, "bob", "", {"ann", "ben"}),
                   root_of(lone, "alice", "", {}), sub.created("bob", "plan")});
  this->append_ok({ship.user("please Ship the release"), lone.user("nothing here"), sub.user("ship it too")});
  // A Tellask is an AI speaking: not a human's words, so `q` does not find its dialog by them.
  this->append_ok({lone.user("a tellask about shipping", 1, "tellask")});
  this->append_ok({lone.status("completed")});

  const auto roots = [&](const root_listing& listing) {
    auto page = this->store_->list_roots(listing);
    EXPECT_TRUE(page) << page.err().message;
    return page ? this->ids(page->rows) : std::vector<std::string>{};
  };
  using ids = std::vector<std::string>;
  EXPECT_EQ(roots({.status = events::dialog_status::completed}), ids{"lone"});
  EXPECT_EQ(roots({.status = events::dialog_status::running}), (ids{"ship", "plan"}));
  EXPECT_EQ(roots({.member_id = "alice"}), (ids{"lone", "plan"}));
  EXPECT_EQ(roots({.member_id = "bob"}), ids{"ship"});
  EXPECT_EQ(roots({.viewer = root_viewer{"ann", false}}), (ids{"ship", "plan"}));
  EXPECT_EQ(roots({.viewer = root_viewer{"ben", false}}), ids{"ship"});
  EXPECT_EQ(roots({.viewer = root_viewer{"ops", true}}), ids{"lone"});
  EXPECT_EQ(roots({.viewer = root_viewer{"an", false}}), ids{});  // a prefix of an id is not the id
  EXPECT_EQ(roots({.text = "plan"}), ids{"plan"});                // title, any case
  EXPECT_EQ(roots({.text = "SHIP THE"}), ids{"ship"});            // a human's message, any case
  EXPECT_EQ(roots({.text = "hip"}), ids{"ship"});                 // a substring
  EXPECT_EQ(roots({.text = "sh"}), ids{"ship"});                  // shorter than a trigram
  EXPECT_EQ(roots({.text = "tellask"}), ids{});
  EXPECT_EQ(roots({.text = "\"quoted\""}), ids{});
  EXPECT_EQ(roots({.member_id = "alice", .text = "nothing"}), ids{"lone"});
  EXPECT_EQ(roots({.status = events::dialog_status::running, .viewer = root_viewer{"ann", false}, .text = "release"}),
            ids{"ship"});
  auto counted = this->store_->list_roots({.viewer = root_viewer{"ann", false}, .limit = 1, .with_total = true});
  ASSERT_TRUE(counted);
  EXPECT_EQ(counted->total, 2);
  EXPECT_TRUE(counted->more);
}

// A term in nearly every root and a term in a few old ones page alike, whichever way the store
// finds them (the SQLite store reads a window of the newest roots before it asks its full-text
// indexes); `total` comes with a text filter only on the last page.
TYPED_TEST(StoreConformance, RootsByACommonTermAndByARareOnePageAlikeAndCountOnlyOnTheLastPage) {
  constexpr int kRoots = 260;
  std::vector<std::string> newest_first;
  std::vector<dialog_script> scripts;
  scripts.reserve(kRoots);
  for (int i = 0; i < kRoots; ++i) {
    const std::string id = "root-" + std::to_string(1000 + i);
    scripts.emplace_back(id, id, 1'000 + 10 * i);
    const bool rare = i == 3 || i == 7;
    this->append_ok({scripts.back().created("m", {}, rare ? "Common task, RARE too" : "common task")});
    newest_first.insert(newest_first.begin(), id);
  }
  this->append_ok({scripts[1].user("a Zebra crossing")});  // the oldest but one, by a human message alone

  root_listing common{.text = "COMMON", .limit = 7, .with_total = true};
  std::vector<std::string> paged;
  for (int pages = 0; pages < 100; ++pages) {
    auto page = this->store_->list_roots(common);
    ASSERT_TRUE(page) << page.err().message;
    for (const auto& row : page->rows) paged.push_back(row.id);
    EXPECT_EQ(page->total.has_value(), common.with_total && !page->more);
    if (!page->more) break;
    common.after = page_key_of(page->rows.back());
  }
  EXPECT_EQ(paged, newest_first);

  auto rare = this->store_->list_roots({.text = "rare", .limit = 5, .with_total = true});
  ASSERT_TRUE(rare);
  EXPECT_EQ(this->ids(rare->rows), (std::vector<std::string>{"root-1007", "root-1003"}));
  EXPECT_FALSE(rare->more);
  EXPECT_EQ(rare->total, 2);
  auto zebra = this->store_->list_roots({.text = "zebra", .limit = 5});
  ASSERT_TRUE(zebra);
  EXPECT_EQ(this->ids(zebra->rows), std::vector<std::string>{"root-1001"});
  auto short_text = this->store_->list_roots({.text = "ra", .limit = 2});
  ASSERT_TRUE(short_text);
  EXPECT_EQ(this->ids(short_text->rows), (std::vector<std::string>{"root-1007", "root-1003"}));
  EXPECT_TRUE(short_text->more);  // and the zebra
}

TYPED_TEST(StoreConformance, GetDialogOfUnknownIdIsEmptyAndMessagesOfItAreNone) {
  auto row = this->store_->get_dialog("nobody");
  ASSERT_TRUE(row);
  EXPECT_FALSE(row->has_value());
  EXPECT_TRUE(this->messages("nobody", 0).empty());
}

TYPED_TEST(StoreConformance, NegativeCourseIsAnInvalidArgument) {
  auto rows = this->store_->messages("d1", -1);
  ASSERT_FALSE(rows);
  EXPECT_EQ(rows.err().code, errc::invalid_argument);
}

TYPED_TEST(StoreConformance, CallbacksFireOnceEachInAppendOrder) {
  dialog_script d("d1", "d1");
  std::mutex mutex;
  std::vector<int> fired;
  auto record = [&](int n) {
    return [&, n](result<void> r) {
      EXPECT_TRUE(r);
      std::lock_guard lock(mutex);
      fired.push_back(n);
    };
  };
  this->store_->append({d.created("alice")}, record(0));
  for (int n = 1; n <= 50; ++n) this->store_->append({d.user("m" + std::to_string(n))}, record(n));
  this->store_->flush();
  std::lock_guard lock(mutex);
  ASSERT_EQ(fired.size(), 51U);
  for (int n = 0; n <= 50; ++n) EXPECT_EQ(fired[static_cast<std::size_t>(n)], n);
}

TYPED_TEST(StoreConformance, ConcurrentAppendsFromManyThreadsAllLand) {
  constexpr int kThreads = 6;
  constexpr int kPerThread = 40;
  std::atomic<int> succeeded{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      dialog_script d("t" + std::to_string(t), "t" + std::to_string(t));
      auto count = [&](result<void> r) {
        if (r) ++succeeded;
      };
      this->store_->append({d.created("alice")}, count);
      for (int i = 0; i < kPerThread; ++i) this->store_->append({d.user("hi")}, count);
    });
  }
  for (auto& thread : threads) thread.join();
  this->store_->flush();
  EXPECT_EQ(succeeded.load(), kThreads * (kPerThread + 1));
  EXPECT_EQ(this->store_->read_all_events()->size(), static_cast<std::size_t>(kThreads * (kPerThread + 1)));
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(this->dialog("t" + std::to_string(t)).message_count, kPerThread);
}

TYPED_TEST(StoreConformance, RebuildReproducesTheProjections) {
  for (auto& batch : test::varied_history(11, 3, 150)) this->append_ok(std::move(batch));
  const auto dialogs_before = this->list({});
  std::map<std::string, std::vector<message_row>> before;
  for (const auto& row : dialogs_before) before[row.id] = this->messages(row.id, 0);

  ASSERT_TRUE(this->store_->rebuild_projections());
  EXPECT_EQ(this->list({}), dialogs_before);
  for (const auto& row : dialogs_before) EXPECT_EQ(this->messages(row.id, 0), before[row.id]) << row.id;
}

TYPED_TEST(StoreConformance, StatsCountCommittedEventsAndTransactions) {
  dialog_script d("d1", "d1");
  this->append_ok({d.created("alice"), d.user("a")});
  this->append_ok({d.user("b")});
  d.skip_seq();
  ASSERT_FALSE(test::append_sync(*this->store_, {d.user("gap")}));
  const store_stats stats = this->store_->stats();
  EXPECT_EQ(stats.events, 3);
  EXPECT_EQ(stats.transactions, 2);
}

// What a retry is compared with (engine/input_retry.hpp): the first user message or answer taken
// with a msgId, whatever came after it with the same id.
TYPED_TEST(StoreConformance, FindInputNamesTheFirstMessageOrAnswerTakenWithAMsgId) {
  dialog_script d("d1", "d1");
  auto created = d.created("alice");
  auto message = d.next(event_type::user_message,
                        {{"course", 1}, {"content", "hello"}, {"msgId", "m-1"}, {"origin", "user"}, {"from", "ann"}});
  auto asked = d.next(event_type::question_asked, {{"course", 1},
                                                   {"genseq", 1},
                                                   {"callId", "ask1"},
                                                   {"questionId", "q1"},
                                                   {"mentionList", "Which day?"},
                                                   {"tellaskContent", "Which day?"},
                                                   {"askedAt", "x"}});
  auto answer = d.next(event_type::question_answered, {{"course", 1},
                                                       {"questionId", "q1"},
                                                       {"callId", "ask1"},
                                                       {"content", "Friday"},
                                                       {"msgId", "a-1"},
                                                       {"from", "ann"}});
  auto again = d.next(event_type::user_message,
                      {{"course", 1}, {"content", "other"}, {"msgId", "m-1"}, {"origin", "user"}, {"from", "bob"}});
  this->append_ok({created, message, asked});
  this->append_ok({answer, again});

  auto found = this->store_->find_input("m-1");
  ASSERT_TRUE(found) << found.err().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->kind, input_kind::message);
  EXPECT_EQ((*found)->dialog_id, "d1");
  EXPECT_EQ((*found)->seq, 2);
  EXPECT_EQ((*found)->from, "ann");
  EXPECT_EQ((*found)->content, "hello");
  EXPECT_EQ((*found)->question_id, "");

  auto answered = this->store_->find_input("a-1");
  ASSERT_TRUE(answered) << answered.err().message;
  ASSERT_TRUE(answered->has_value());
  EXPECT_EQ((*answered)->kind, input_kind::answer);
  EXPECT_EQ((*answered)->seq, 4);
  EXPECT_EQ((*answered)->content, "Friday");
  EXPECT_EQ((*answered)->question_id, "q1");
  EXPECT_EQ((*answered)->from, "ann");  // who answered: another user's copy is no retry

  auto unknown = this->store_->find_input("never-sent");
  ASSERT_TRUE(unknown);
  EXPECT_FALSE(unknown->has_value());
}

// A message sent to a flow is recorded on the flow event that took it in (`input`): found by its
// msgId like a user message, whether it started the thread or was posted to it.
TYPED_TEST(StoreConformance, FindInputNamesTheMessageAFlowTookInWithAMsgId) {
  dialog_script f("f1", "f1");
  auto created = f.created("article_writer");
  const boost::json::object thread{{"id", "f1"}, {"messages", boost::json::array{}}};
  auto started = f.next(event_type::flow_thread_saved,
                        {{"thread", thread}, {"input", {{"msgId", "fm-1"}, {"from", "ann"}, {"content", "Write"}}}});
  auto plain = f.next(event_type::flow_thread_appended, {{"appends", boost::json::array{}}});
  auto posted = f.next(event_type::flow_thread_appended,
                       {{"appends", boost::json::array{}}, {"input", {{"msgId", "fm-2"}, {"content", "Tea"}}}});
  this->append_ok({created, started});
  this->append_ok({plain, posted});

  auto first = this->store_->find_input("fm-1");
  ASSERT_TRUE(first) << first.err().message;
  ASSERT_TRUE(first->has_value());
  EXPECT_EQ((*first)->kind, input_kind::message);
  EXPECT_EQ((*first)->dialog_id, "f1");
  EXPECT_EQ((*first)->seq, 2);
  EXPECT_EQ((*first)->from, "ann");
  EXPECT_EQ((*first)->content, "Write");
  auto second = this->store_->find_input("fm-2");
  ASSERT_TRUE(second && second->has_value());
  EXPECT_EQ((*second)->seq, 4);
  EXPECT_EQ((*second)->from, "");
  EXPECT_EQ((*second)->content, "Tea");
}

}  // namespace
}  // namespace parley
