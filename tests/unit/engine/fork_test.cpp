// A fork driven on by the engine (docs/fork.md): loaded through its shared history, it runs a
// generation again from its cut and takes new messages, while its origin stays as it was.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "engine_test_support.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/fork_history.hpp"
#include "parley/store/fork_plan.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::kOneMemberTeam;
using testing::temp_team;

constexpr const char* kForkScript =
    "members:\n"
    "  lead:\n"
    "    - when: {last_user: more}\n"
    "      emit: [{saying: \"more, as asked\"}]\n"
    "    - emit: [{saying: \"the answer\"}]\n";

// "role:content" of each message of a dialog's first course, a fork's shared history included.
std::vector<std::string> said_with_shared_history(store& log, const std::string& id) {
  std::vector<std::string> said;
  for (const auto& msg : read_dialog_messages(log, id, 1).value()) {
    said.push_back(std::string(parley::events::to_wire(msg.role)) + ":" + msg.content);
  }
  return said;
}

class EngineFork : public ::testing::Test {
 protected:
  // Runs `work` on a fresh engine over the same store until it and its drives are done.
  template <class Work>
  void on_engine(Work work) {
    asio::io_context io;
    auto providers = build_providers(files_.load());
    auto eng = engine::create(io.get_executor(), *log_, files_.load(), std::move(*providers), build_builtin_tools());
    ASSERT_TRUE(eng.has_value());
    asio::co_spawn(io, work(**eng), asio::detached);
    io.run();
    log_->flush();
  }

  temp_team files_{kOneMemberTeam, kForkScript};
  std::unique_ptr<store> log_ = make_memory_store();
};

TEST_F(EngineFork, AForkAtAGenerationRunsItAgainAndGoesOnWhileTheOriginStays) {
  std::string root;
  on_engine([&](engine& eng) -> asio::awaitable<void> {
    new_dialog spec;
    spec.first_message = "add";
    auto created = co_await eng.create_root_dialog(std::move(spec));
    EXPECT_TRUE(created) << created.err().message;
    if (!created) co_return;
    root = *created;
    co_await eng.runs().wait_until_idle(root);
  });
  ASSERT_FALSE(root.empty());
  const auto origin_events = log_->read_events(root).value().size();

  auto plan = plan_fork(*log_, root, fork_point{std::nullopt, 1}, now_ms());
  ASSERT_TRUE(plan) << plan.err().message;
  const std::string fork = plan->fork_root_id;
  std::optional<result<void>> appended;
  log_->append(std::move(plan->batch), [&](result<void> r) { appended = std::move(r); });
  log_->flush();
  ASSERT_TRUE(appended && *appended);
  EXPECT_EQ(said_with_shared_history(*log_, fork), (std::vector<std::string>{"user:add"}));

  // Loaded through its shared history, resumed (it owes the generation it was cut before), then
  // given a message of its own.
  on_engine([&](engine& eng) -> asio::awaitable<void> {
    auto resumed = co_await eng.runs().resume(fork);
    EXPECT_TRUE(resumed) << resumed.err().message;
    co_await eng.runs().wait_until_idle(fork);
    auto posted = co_await eng.post_user_message(fork, "more please");
    EXPECT_TRUE(posted) << posted.err().message;
    co_await eng.runs().wait_until_idle(fork);
  });
  EXPECT_EQ(
      said_with_shared_history(*log_, fork),
      (std::vector<std::string>{"user:add", "assistant:the answer", "user:more please", "assistant:more, as asked"}));
  EXPECT_EQ(said_with_shared_history(*log_, root), (std::vector<std::string>{"user:add", "assistant:the answer"}));
  EXPECT_EQ(log_->read_events(root).value().size(), origin_events) << "nothing the fork does reaches its origin";
  const auto forked_row = log_->get_dialog(fork).value();
  ASSERT_TRUE(forked_row);
  EXPECT_EQ(forked_row->message_count, 4);
  EXPECT_FALSE(forked_row->needs_drive);
}

}  // namespace
}  // namespace parley::engine
