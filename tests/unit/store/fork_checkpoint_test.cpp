// Fork checkpoints (store/fork_checkpoint.hpp, docs/fork.md): a fork planned from them is the fork
// planned by decoding every event — same cut, same rows, same rest checks — on every store that
// keeps them; a store older than them opens, forks by decoding, and gets them from a rebuild.
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <type_traits>

#include <boost/json/serialize.hpp>

#include "parley/model/event_codec.hpp"
#include "parley/store/fork_checkpoint.hpp"
#include "parley/store/fork_plan.hpp"
#include "parley/store/fork_plan_parts.hpp"
#include "sqlite_raw.hpp"
#include "store_test_support.hpp"

namespace parley {
namespace {

namespace ev_t = events;
using test::temp_dir;

// A root that asks two subdialogs, then rounds of a message, a tool call and its result and a
// final answer on the root, while the subdialogs answer a message of their own now and then.
class checkpoint_tree {
 public:
  event next(const std::string& dialog, ev_t::event_payload payload) {
    event ev;
    ev.dialog_id = dialog;
    ev.root_id = "r";
    ev.seq = ++seqs_[dialog];
    ev.ts_ms = ts_ += 10;
    ev.payload = std::move(payload);
    return ev;
  }
  std::vector<event> start() {
    std::vector<event> out;
    ev_t::dialog_created root;
    root.member_id = "lead";
    out.push_back(next("r", root));
    for (const std::string sub : {"s0", "s1"}) {
      ev_t::dialog_created created;
      created.member_id = "worker";
      created.kind = ev_t::dialog_kind::sub;
      created.parent_id = "r";
      created.depth = 1;
      created.call = ev_t::call_kind::tellask;
      out.push_back(next(sub, created));
    }
    return out;
  }
  // One round of `dialog`: a message, a generation with a call, its result, a final generation.
  std::vector<event> round(const std::string& dialog, const std::string& caller = "") {
    const std::int64_t n = ++rounds_;
    std::vector<event> out;
    ev_t::user_message msg;
    msg.content = "round " + std::to_string(n);
    msg.msg_id = "m" + std::to_string(n);
    if (!caller.empty()) msg.assigned = ev_t::assignment{caller, "lead", "t" + std::to_string(n), {}, "", ""};
    out.push_back(next(dialog, msg));
    out.push_back(next(dialog, ev_t::generation_started{1, ++genseqs_[dialog], 1}));
    ev_t::generation_finished asked;
    asked.genseq = genseqs_[dialog];
    asked.tool_calls = {{"c" + std::to_string(n), "read_file", "{}"}};
    asked.usage.input_tokens = n;
    out.push_back(next(dialog, asked));
    ev_t::tool_result result;
    result.genseq = genseqs_[dialog];
    result.call_id = "c" + std::to_string(n);
    result.name = "read_file";
    out.push_back(next(dialog, result));
    out.push_back(next(dialog, ev_t::generation_started{1, ++genseqs_[dialog], 2}));
    ev_t::generation_finished done;
    done.genseq = genseqs_[dialog];
    done.usage.output_tokens = n;
    out.push_back(next(dialog, done));
    return out;
  }
  std::int64_t seq_of(const std::string& dialog) { return seqs_[dialog]; }

 private:
  std::map<std::string, std::int64_t> seqs_, genseqs_;
  std::int64_t ts_ = 1'700'000'000'000;
  std::int64_t rounds_ = 0;
};

// A plan with the fork's new ids given back their origin's, so two plans of one point compare
// equal: each event as its ids, seq, time and payload's JSON.
std::vector<std::string> with_origin_ids(fork_plan plan) {
  fork_id_map back;
  for (const auto& pair : std::get<ev_t::dialog_forked>(plan.batch.front().payload).dialogs) {
    back.emplace(pair.fork, pair.origin);
  }
  for (auto& ev : plan.batch) {
    give_fork_ids(ev, back, "r");
    auto& forked = std::get<ev_t::dialog_forked>(ev.payload);
    for (auto& pair : forked.dialogs) pair.fork = back.at(pair.fork);
  }
  std::vector<std::string> described;
  for (const auto& ev : plan.batch) {
    described.push_back(ev.dialog_id + " " + ev.root_id + " " + std::to_string(ev.seq) + " " +
                        std::to_string(ev.ts_ms) + " " + boost::json::serialize(encode_payload(ev.payload)));
  }
  return described;
}

struct checkpoint_memory {
  static std::unique_ptr<store> open(const temp_dir&) { return make_memory_store(); }
};
struct checkpoint_sqlite {
  static std::unique_ptr<store> open(const temp_dir& dir) { return test::open_or_fail(dir); }
};

template <class Kind>
class StoreForkCheckpoints : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_NE(store_, nullptr); }
  void append_ok(std::vector<event> batch) {
    auto appended = test::append_sync(*store_, std::move(batch));
    ASSERT_TRUE(appended) << appended.err().message;
  }
  // Forty rounds of the root (its events 1..241) with a round of each subdialog every fifth.
  std::vector<std::int64_t> write_tree() {
    append_ok(tree_.start());
    std::vector<std::int64_t> rest_points;
    for (int i = 1; i <= 40; ++i) {
      append_ok(tree_.round("r"));
      rest_points.push_back(tree_.seq_of("r"));
      if (i % 5 == 0) append_ok(tree_.round(i % 10 == 0 ? "s0" : "s1", "r"));
    }
    return rest_points;
  }
  // Plans `point` both ways and expects one plan, made from the checkpoints.
  void expect_same_plans(const fork_point& point) {
    const std::string at = point.at_seq          ? std::to_string(*point.at_seq)
                           : point.at_generation ? "generation " + std::to_string(*point.at_generation)
                                                 : "the end";
    auto root = store_->get_dialog("r");
    ASSERT_TRUE(root && *root);
    auto fast = fork_parts::plan_fork_from_checkpoints(*store_, **root, point, 7);
    ASSERT_TRUE(fast) << fast.err().message;
    ASSERT_TRUE(fast->has_value()) << "planned from the checkpoints at " << at;
    auto decoded = plan_fork_by_decode(*store_, "r", point, 7);
    ASSERT_TRUE(decoded) << decoded.err().message;
    EXPECT_EQ((*fast)->through_seq, decoded->through_seq);
    EXPECT_EQ(with_origin_ids(std::move(**fast)), with_origin_ids(std::move(*decoded))) << "at " << at;
  }

  checkpoint_tree tree_;
  temp_dir dir_;
  std::unique_ptr<store> store_ = Kind::open(dir_);
};

using checkpoint_store_kinds = ::testing::Types<checkpoint_memory, checkpoint_sqlite>;
class checkpoint_kind_names {
 public:
  template <class T>
  static std::string GetName(int) {  // NOLINT(readability-identifier-naming): GoogleTest's hook
    return std::is_same_v<T, checkpoint_memory> ? "Memory" : "Sqlite";
  }
};
TYPED_TEST_SUITE(StoreForkCheckpoints, checkpoint_store_kinds, checkpoint_kind_names);

TYPED_TEST(StoreForkCheckpoints, AForkFromCheckpointsIsTheForkOfTheWholeDecode) {
  const auto rest_points = this->write_tree();
  auto* source = dynamic_cast<fork_checkpoint_source*>(this->store_.get());
  ASSERT_NE(source, nullptr);
  auto checkpoint = source->fork_checkpoint_before("r", 200, std::numeric_limits<std::int64_t>::max());
  ASSERT_TRUE(checkpoint && *checkpoint);
  EXPECT_EQ((*checkpoint)->seq, 192);
  // Before, at and after a checkpoint, in the last window of a subdialog, and the tree as it stands.
  for (const std::int64_t at : {rest_points[0], rest_points[10], rest_points[20], rest_points[31], rest_points[39]}) {
    this->expect_same_plans(fork_point{at, std::nullopt});
  }
  this->expect_same_plans(fork_point{});
  // By generation: found from the checkpoints, before the first, around them and at the last.
  for (const std::int64_t generation : {1, 2, 37, 50, 80})
    this->expect_same_plans(fork_point{std::nullopt, generation});
  auto written = plan_fork(*this->store_, "r", fork_point{rest_points[20], std::nullopt}, 7);
  ASSERT_TRUE(written);
  this->append_ok(std::move(written->batch));
}

TYPED_TEST(StoreForkCheckpoints, APointInsideAStepPastACheckpointIsRefusedNamingTheNearestValidOnes) {
  const auto rest_points = this->write_tree();
  const std::int64_t inside = rest_points[33] - 3;  // between a call and its result
  auto refused = plan_fork(*this->store_, "r", fork_point{inside, std::nullopt}, 7);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.err().code, errc::invalid_argument);
  const std::string nearest = "--at " + std::to_string(rest_points[32] + 1) + " and --at " + std::to_string(inside + 1);
  EXPECT_NE(refused.err().message.find("has no result yet"), std::string::npos) << refused.err().message;
  EXPECT_NE(refused.err().message.find(nearest), std::string::npos) << refused.err().message;
}

TEST(StoreForkCheckpoints, AStoreOlderThanCheckpointsOpensForksByDecodeAndGetsThemFromARebuild) {
  temp_dir dir;
  checkpoint_tree tree;
  {
    auto old = test::open_or_fail(dir);
    ASSERT_NE(old, nullptr);
    ASSERT_TRUE(test::append_sync(*old, tree.start()));
    for (int i = 0; i < 30; ++i) ASSERT_TRUE(test::append_sync(*old, tree.round("r")));
  }
  // Schema version 24's layout: no fork_checkpoints.
  test::exec(dir.db_file(), "DROP TABLE fork_checkpoints; UPDATE schema_version SET version = 24;");
  auto reopened = test::open_or_fail(dir);
  ASSERT_NE(reopened, nullptr);
  auto* source = dynamic_cast<fork_checkpoint_source*>(reopened.get());
  ASSERT_NE(source, nullptr);
  auto root = reopened->get_dialog("r");
  ASSERT_TRUE(root && *root);
  auto none = source->fork_checkpoint_before("r", 180, std::numeric_limits<std::int64_t>::max());
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value()) << "the events before the migration have no checkpoints";
  auto decoded = plan_fork(*reopened, "r", fork_point{121, std::nullopt}, 7);
  ASSERT_TRUE(decoded) << decoded.err().message;
  EXPECT_EQ(decoded->through_seq, 121);

  ASSERT_TRUE(reopened->rebuild_projections());
  auto rebuilt = source->fork_checkpoint_before("r", 180, std::numeric_limits<std::int64_t>::max());
  ASSERT_TRUE(rebuilt && *rebuilt);
  EXPECT_EQ((*rebuilt)->seq, 128);
  auto fast = fork_parts::plan_fork_from_checkpoints(*reopened, **root, fork_point{151, std::nullopt}, 7);
  ASSERT_TRUE(fast && *fast);
  auto slow = plan_fork_by_decode(*reopened, "r", fork_point{151, std::nullopt}, 7);
  ASSERT_TRUE(slow);
  EXPECT_EQ(with_origin_ids(std::move(**fast)), with_origin_ids(std::move(*slow)));
}

TEST(StoreForkCheckpoints, ADialogsCheckpointsGoOnAfterTheStoreIsOpenedAgain) {
  temp_dir dir;
  checkpoint_tree tree;
  {
    auto first = test::open_or_fail(dir);
    ASSERT_NE(first, nullptr);
    ASSERT_TRUE(test::append_sync(*first, tree.start()));
    for (int i = 0; i < 12; ++i) ASSERT_TRUE(test::append_sync(*first, tree.round("r")));  // events 1..73
  }
  auto second = test::open_or_fail(dir);
  ASSERT_NE(second, nullptr);
  for (int i = 0; i < 12; ++i) ASSERT_TRUE(test::append_sync(*second, tree.round("r")));  // 74..145
  auto* source = dynamic_cast<fork_checkpoint_source*>(second.get());
  ASSERT_NE(source, nullptr);
  auto latest = source->fork_checkpoint_before("r", 145, std::numeric_limits<std::int64_t>::max());
  ASSERT_TRUE(latest && *latest);
  EXPECT_EQ((*latest)->seq, 128) << "the rest state read back from the checkpoint at 64";
  auto root = second->get_dialog("r");
  ASSERT_TRUE(root && *root);
  auto fast = fork_parts::plan_fork_from_checkpoints(*second, **root, fork_point{139, std::nullopt}, 7);
  ASSERT_TRUE(fast && *fast);
  auto slow = plan_fork_by_decode(*second, "r", fork_point{139, std::nullopt}, 7);
  ASSERT_TRUE(slow);
  EXPECT_EQ(with_origin_ids(std::move(**fast)), with_origin_ids(std::move(*slow)));
}

TEST(ForkCheckpoint, ItsStoredFormReadsBackAndAMissingFieldIsNamed) {
  fork_checkpoint checkpoint;
  checkpoint.seq = 64;
  checkpoint.row.course = 2;
  checkpoint.row.input_tokens = 5;
  checkpoint.row.created_at_ms = 9;
  checkpoint.rest.owed = {owed_call{"c1", "read_file"}};
  fork_checkpoint read;
  read.seq = 64;
  ASSERT_TRUE(decode_fork_checkpoint(encode_fork_checkpoint(checkpoint), read));
  EXPECT_EQ(read, checkpoint);
  auto missing = decode_fork_checkpoint(R"({"row":{"status":"running","course":1}})", read);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.err().message.find("createdAtMs"), std::string::npos) << missing.err().message;
}

}  // namespace
}  // namespace parley
