#include "parley/tot/engine_channel.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "parley/tot/protocol_names.hpp"

namespace parley::tot {

std::string member_id_of(agent_role role) { return "tot-" + std::string(name_of(role)); }

engine_channel::engine_channel(engine::engine& engine, std::string root_id, std::chrono::milliseconds timeout)
    : engine_(engine), root_id_(std::move(root_id)), timeout_(timeout) {}

boost::asio::awaitable<result<std::string>> engine_channel::ask(agent_call& call) {
  if (call.messages.empty()) co_return make_error(errc::invalid_argument, "an agent call needs a message");
  const std::string task = call.messages.back().content;
  if (call.conversation.empty()) {
    auto made = co_await engine_.create_program_subdialog(root_id_, member_id_of(call.role), "tot", task);
    if (!made) co_return std::move(made).err();
    call.conversation = *made;
  } else {
    auto posted = co_await engine_.post_user_message(call.conversation, task);
    if (!posted) co_return std::move(posted).err();
  }
  ++meter_.calls;
  meter_.input_tokens += static_cast<std::int64_t>((task.size() + 3) / 4);
  const std::string dialog = call.conversation;
  auto timed_out = std::make_shared<bool>(false);
  auto executor = co_await boost::asio::this_coro::executor;
  auto timer = std::make_shared<boost::asio::steady_timer>(executor, timeout_);
  boost::asio::co_spawn(
      executor,
      [timer, timed_out, dialog, &engine = engine_]() -> boost::asio::awaitable<void> {
        auto [ec] = co_await timer->async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
        if (ec) co_return;
        *timed_out = true;
        (void)engine.runs().stop(dialog, "the Tree of Thoughts call timed out");  // nothing generating: the wait ends
      },
      boost::asio::detached);
  co_await engine_.runs().wait_until_idle(dialog);
  timer->cancel();
  if (*timed_out) {
    co_return make_error(errc::limit_exceeded, "no answer within " + std::to_string(timeout_.count()) + " ms");
  }
  const auto* runtime = engine_.find(dialog);
  if (runtime == nullptr) co_return make_error(errc::internal, "dialog " + dialog + " is gone");
  const auto& messages = runtime->messages();
  // The answer follows the last user message (ours: nothing else posts to this dialog). The drive
  // may have finished before this coroutine resumed, so no count taken earlier is trusted.
  std::size_t before = messages.size();
  while (before > 0 && messages[before - 1].role != events::message_role::user) --before;
  for (auto i = messages.size(); i > before; --i) {
    const auto& m = messages[i - 1];
    if (m.role == events::message_role::assistant && !m.interrupted && !m.content.empty()) {
      meter_.output_tokens += static_cast<std::int64_t>((m.content.size() + 3) / 4);
      co_return m.content;
    }
  }
  if (!runtime->row().last_error.empty()) co_return make_error(errc::provider_error, runtime->row().last_error);
  co_return make_error(errc::provider_error, "member " + member_id_of(call.role) + " said nothing");
}

}  // namespace parley::tot
