// PubChan in process: the engine drives the WebSocket test team on the in-memory store and a fake
// subscriber records the wire events, their numbering, replay and resync.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <memory>
#include <set>
#include <vector>

#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/server/pubchan.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;

struct pubchan_recorder final : pubchan_subscriber {
  std::vector<boost::json::object> packets;
  std::uint16_t closed_with = 0;
  void deliver(const packet_ptr& packet) override { packets.push_back(boost::json::parse(packet->json).as_object()); }
  bool sees_root(const dialog_row& /*root*/) const override { return true; }
  void close(std::uint16_t code, std::string_view) override { closed_with = code; }
  std::vector<std::string> types() const {
    std::vector<std::string> out;
    for (const auto& p : packets) out.emplace_back(p.at("type").as_string());
    return out;
  }
};

class PubchanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto team = config::load_team_file(std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/ws_teams/team.yaml");
    ASSERT_TRUE(team) << team.err().message;
    auto providers = engine::build_providers(*team);
    ASSERT_TRUE(providers) << providers.err().message;
    log_ = make_memory_store();
    auto created =
        engine::engine::create(io_.get_executor(), *log_, *team, std::move(*providers), engine::build_builtin_tools());
    ASSERT_TRUE(created) << created.err().message;
    engine_ = std::move(*created);
    options_.replay_window_events = 64;
    channels_ = std::make_unique<pubchan>(*engine_, *log_, options_);
  }

  // Coroutines are free functions with their arguments in the frame: a capturing lambda would
  // dangle once co_spawn returns.
  static asio::awaitable<void> create_co(engine::engine& eng, std::string& id) {
    engine::new_dialog spec{"lead", "t", ""};
    auto created = co_await eng.create_root_dialog(std::move(spec));
    if (created) id = *created;
  }
  static asio::awaitable<void> say_co(engine::engine& eng, std::string id, std::string text) {
    auto posted = co_await eng.post_user_message(id, text);
    EXPECT_TRUE(posted);
    co_await eng.runs().wait_until_settled(id);
  }

  std::string create_dialog() {
    std::string id;
    asio::co_spawn(io_, create_co(*engine_, id), asio::detached);
    io_.run();
    io_.restart();
    return id;
  }

  void say(const std::string& id, const std::string& text) {
    asio::co_spawn(io_, say_co(*engine_, id, text), asio::detached);
    io_.run();
    io_.restart();
  }

  asio::io_context io_{1};
  std::unique_ptr<store> log_;
  std::unique_ptr<engine::engine> engine_;
  server_options options_;
  std::unique_ptr<pubchan> channels_;
};

TEST_F(PubchanTest, StreamsADialogInOrderWithSeqStrictlyPlusOne) {
  pubchan_recorder sub;
  channels_->attach(sub);
  const auto id = create_dialog();
  ASSERT_FALSE(id.empty());
  ASSERT_TRUE(channels_->subscribe(sub, id, std::nullopt, ""));
  say(id, "stream please");

  std::vector<std::string> dialog_types;
  std::int64_t seq = 0;
  for (const auto& p : sub.packets) {
    if (!p.contains("seq") || p.at("type").as_string() == "resync") continue;
    EXPECT_EQ(p.at("seq").as_int64(), ++seq) << boost::json::serialize(p);
    EXPECT_EQ(p.at("dialog").at("selfId").as_string(), id);
    dialog_types.emplace_back(p.at("type").as_string());
  }
  // Attached first, so the root's creation came first; the plain subscribe answered with resync.
  ASSERT_GE(sub.types().size(), 2u);
  EXPECT_EQ(sub.types()[0], "dialog_list_evt");
  EXPECT_EQ(sub.types()[1], "resync");
  const std::vector<std::string> expected_prefix = {"user_message_evt", "generating_start_evt", "thinking_start_evt",
                                                    "thinking_chunk_evt"};
  ASSERT_GE(dialog_types.size(), expected_prefix.size());
  EXPECT_TRUE(std::equal(expected_prefix.begin(), expected_prefix.end(), dialog_types.begin()));
  const auto has = [&](std::string_view t) {
    return std::find(dialog_types.begin(), dialog_types.end(), t) != dialog_types.end();
  };
  for (const auto t : {"thinking_finish_evt", "generating_finish_evt", "tool_call_evt", "tool_result_evt",
                       "saying_start_evt", "saying_chunk_evt", "saying_finish_evt", "dialog_state_evt"}) {
    EXPECT_TRUE(has(t)) << t;
  }
  // The log-derived events carry logSeq; the stream events do not.
  for (const auto& p : sub.packets) {
    const auto type = p.at("type").as_string();
    if (type == "user_message_evt" || type == "tool_result_evt") {
      EXPECT_TRUE(p.contains("logSeq"));
    }
    if (type == "saying_chunk_evt") {
      EXPECT_FALSE(p.contains("logSeq"));
    }
  }
  std::string saying;
  for (const auto& p : sub.packets) {
    if (p.at("type").as_string() == "saying_chunk_evt") saying += p.at("content").as_string();
  }
  EXPECT_EQ(saying, "The answer is five, computed with care.");
  channels_->detach(sub);
  EXPECT_EQ(channels_->connection_count(), 0u);
}

TEST_F(PubchanTest, ReplaysWhatASubscriberMissedOrAsksItToResync) {
  const auto id = create_dialog();
  say(id, "stream please");
  const auto last = channels_->last_seq(id);
  ASSERT_GT(last, 10);

  pubchan_recorder replayed;
  ASSERT_TRUE(channels_->subscribe(replayed, id, 5, channels_->epoch()));
  ASSERT_EQ(replayed.packets.size(), static_cast<std::size_t>(last - 5));
  for (std::size_t i = 0; i < replayed.packets.size(); ++i) EXPECT_EQ(replayed.packets[i].at("seq").as_int64(), 6 + i);

  pubchan_recorder stale;
  ASSERT_TRUE(channels_->subscribe(stale, id, 5, "another-epoch"));
  ASSERT_EQ(stale.packets.size(), 1u);
  EXPECT_EQ(stale.packets[0].at("type").as_string(), "resync");
  EXPECT_EQ(stale.packets[0].at("seq").as_int64(), last);

  pubchan_recorder up_to_date;
  ASSERT_TRUE(channels_->subscribe(up_to_date, id, last, channels_->epoch()));
  EXPECT_TRUE(up_to_date.packets.empty());

  // Past the window (64 events here): resync.
  for (int i = 0; i < 3; ++i) say(id, "stream again");
  pubchan_recorder behind;
  ASSERT_TRUE(channels_->subscribe(behind, id, 1, channels_->epoch()));
  ASSERT_EQ(behind.packets.size(), 1u);
  EXPECT_EQ(behind.packets[0].at("type").as_string(), "resync");

  pubchan_recorder nobody;
  auto missing = channels_->subscribe(nobody, "no-such-dialog", std::nullopt, "");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().code, errc::not_found);
}

// A tree another node drove and this one takes over (drive_control::adopt_orphaned_trees): what
// that node wrote reached no subscriber here, so each of the tree's subscribers is told to fetch
// its dialog again, before this node's own events of it; subscribers of other trees hear nothing.
TEST_F(PubchanTest, ATreeTakenOverFromAnotherNodeHasItsSubscribersResync) {
  const auto adopted = create_dialog();
  const auto other = create_dialog();
  say(adopted, "stream please");
  const auto last = channels_->last_seq(adopted);
  pubchan_recorder watcher;
  pubchan_recorder bystander;
  ASSERT_TRUE(channels_->subscribe(watcher, adopted, last, channels_->epoch()));
  ASSERT_TRUE(channels_->subscribe(bystander, other, std::nullopt, ""));
  bystander.packets.clear();
  ASSERT_TRUE(watcher.packets.empty());

  channels_->on_tree_adopted(adopted);
  ASSERT_EQ(watcher.types(), std::vector<std::string>{"resync"});
  EXPECT_EQ(watcher.packets[0].at("dialog").at("selfId").as_string(), adopted);
  EXPECT_EQ(watcher.packets[0].at("seq").as_int64(), last);
  EXPECT_TRUE(bystander.packets.empty());
  // Numbering goes on after it: the next events follow the seq the resync named.
  say(adopted, "stream again");
  ASSERT_GT(watcher.packets.size(), 1u);
  EXPECT_EQ(watcher.packets[1].at("seq").as_int64(), last + 1);
}

TEST_F(PubchanTest, KeepsReplayWindowsOnlyForWatchedDialogsAndABoundedFewOthers) {
  options_.idle_channels_kept = 2;
  pubchan_recorder watcher;
  const auto watched = create_dialog();
  ASSERT_TRUE(channels_->subscribe(watcher, watched, std::nullopt, ""));
  say(watched, "stream please");
  const auto watched_last = channels_->last_seq(watched);
  ASSERT_GT(watched_last, 0);

  std::vector<std::string> others;
  for (int i = 0; i < 8; ++i) {
    others.push_back(create_dialog());
    say(others.back(), "stream please");
  }
  // The watched dialog and at most the two idle ones used last (one sweep may be pending).
  EXPECT_LE(channels_->channel_count(), 1u + 2u * 2u);
  EXPECT_EQ(channels_->last_seq(watched), watched_last);
  EXPECT_GT(channels_->last_seq(others.back()), 0);
  EXPECT_EQ(channels_->last_seq(others.front()), 0);  // dropped

  // A subscriber that knew the dropped dialog's numbering is told to resync, and what follows is
  // numbered above every seq the dropped channel gave out.
  const auto first = others.front();
  pubchan_recorder late;
  ASSERT_TRUE(channels_->subscribe(late, first, 3, channels_->epoch()));
  ASSERT_EQ(late.packets.size(), 1u);
  EXPECT_EQ(late.packets[0].at("type").as_string(), "resync");
  const auto resync_seq = late.packets[0].at("seq").as_int64();
  say(first, "stream again");
  ASSERT_GT(late.packets.size(), 1u);
  EXPECT_EQ(late.packets[1].at("seq").as_int64(), resync_seq + 1);
  EXPECT_GT(resync_seq, 3);
}

TEST_F(PubchanTest, SubdialogCreatedGoesToTheParentAndQuestionsToEveryone) {
  pubchan_recorder everyone;
  channels_->attach(everyone);
  const auto id = create_dialog();
  ASSERT_TRUE(channels_->subscribe(everyone, id, std::nullopt, ""));
  say(id, "delegate it");
  bool created = false;
  bool questions = false;
  for (const auto& p : everyone.packets) {
    const auto type = p.at("type").as_string();
    if (type == "subdialog_created_evt") {
      created = true;
      EXPECT_EQ(p.at("dialog").at("selfId").as_string(), id);
      EXPECT_EQ(p.at("subdialog").at("parentId").as_string(), id);
    }
    if (type == "questions_count_update") {
      questions = true;
      EXPECT_EQ(p.at("questionCount").as_int64(), 1);
      EXPECT_NE(p.at("dialog").at("selfId").as_string(), id);
    }
  }
  EXPECT_TRUE(created);
  EXPECT_TRUE(questions);
  channels_->close_all();
  EXPECT_EQ(everyone.closed_with, 1001);
  channels_->detach(everyone);
}

TEST_F(PubchanTest, RemembersWhichDialogsHaveChildrenForABoundedNumberOfHierarchies) {
  options_.hierarchies_cached = 3;
  pubchan_recorder everyone;
  channels_->attach(everyone);
  for (int i = 0; i < 10; ++i) {
    const auto id = create_dialog();
    ASSERT_TRUE(channels_->subscribe(everyone, id, std::nullopt, ""));
    say(id, "delegate it");
    EXPECT_LE(channels_->cached_parents(), 3u) << "after " << i + 1 << " hierarchies";
  }
  int created = 0;
  for (const auto& p : everyone.packets) created += p.at("type").as_string() == "subdialog_created_evt" ? 1 : 0;
  EXPECT_EQ(created, 10);
  channels_->detach(everyone);
}

static asio::awaitable<void> answer_co(engine::engine& eng, engine::user_answer answer, std::string root) {
  auto answered = co_await eng.questions().answer_question(std::move(answer));
  EXPECT_TRUE(answered) << answered.err().message;
  co_await eng.runs().wait_until_settled(root);
}

TEST_F(PubchanTest, AHumansAnswerAndEveryOtherMessageOfTheLogReachSubscribers) {
  const auto id = create_dialog();
  say(id, "delegate it");
  auto open = engine_->questions().open_questions();
  ASSERT_TRUE(open && open->size() == 1);
  const auto question = open->front();
  const std::string sub = question.dialog.id;
  pubchan_recorder watcher;
  channels_->attach(watcher);
  // From its first event on (the replay window holds all of it), then live.
  ASSERT_TRUE(channels_->subscribe(watcher, sub, 0, channels_->epoch()));
  const std::size_t replayed = watcher.packets.size();

  engine::user_answer answer{sub, "blue", "answer-msg-1", question.question.id, "answer"};
  asio::co_spawn(io_, answer_co(*engine_, std::move(answer), id), asio::detached);
  io_.run();
  io_.restart();

  const boost::json::object* answered = nullptr;
  for (std::size_t i = replayed; i < watcher.packets.size(); ++i) {
    if (watcher.packets[i].at("type").as_string() == "question_answered_evt") answered = &watcher.packets[i];
  }
  ASSERT_NE(answered, nullptr) << "no question_answered_evt among the live packets";
  EXPECT_EQ(answered->at("content").as_string(), "blue");
  EXPECT_EQ(answered->at("questionId").as_string(), question.question.id);
  EXPECT_EQ(answered->at("callId").as_string(), question.question.call_id);
  EXPECT_EQ(answered->at("msgId").as_string(), "answer-msg-1");
  EXPECT_EQ(answered->at("dialog").at("selfId").as_string(), sub);

  // Each message the log holds for the subdialog was announced by a packet carrying its logSeq.
  std::set<std::int64_t> announced;
  for (const auto& p : watcher.packets) {
    if (p.contains("logSeq")) announced.insert(p.at("logSeq").as_int64());
  }
  const auto stored = log_->messages(sub, 1);
  ASSERT_TRUE(stored);
  ASSERT_GE(stored->size(), 4U);  // the task, the askHuman call, the answer, the reply
  for (const auto& message : *stored) {
    EXPECT_TRUE(announced.count(message.seq) == 1)
        << parley::events::to_wire(message.role) << " message at seq " << message.seq << " (" << message.content
        << ") reached no subscriber";
  }
  channels_->detach(watcher);
}

}  // namespace
}  // namespace parley::server
