#include "parley/flow/interaction_unit.hpp"

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"
#include "parley/flow/base_agent.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/thread_repository.hpp"

namespace parley::flow {

namespace asio = boost::asio;

namespace {

std::string step_of(const thread_message& message) {
  const auto* step = message.meta.if_contains("_step");
  return step != nullptr && step->is_string() ? std::string(step->get_string()) : std::string();
}

const thread_message* find_step(const std::vector<const thread_message*>& messages, std::string_view step) {
  for (const auto* message : messages) {
    if (step_of(*message) == step) return message;
  }
  return nullptr;
}

// §6.1: "每个子Thread的Agent和其StateHandler返回的Response对象应当是同步的，而不是stream". A
// messageUpdate is the host's to deliver in the main thread; in a sub-thread a handler updates its
// message itself (updateMessage) and sets skipBotMessageCreation (§6.3).
result<void> check_sub_thread_response(const response& answer, std::string_view phase) {
  if (answer.stream()) {
    return make_error(errc::invalid_argument, "the StateHandler of phase \"" + std::string(phase) +
                                                  "\" answered with a stream (setStream) in a sub-thread, whose "
                                                  "Response must be synchronous (seed 004 §6.1)");
  }
  if (answer.update()) {
    return make_error(errc::invalid_argument,
                      "the StateHandler of phase \"" + std::string(phase) +
                          "\" set messageUpdate in a sub-thread: update the message with updateMessage and set "
                          "skipBotMessageCreation instead (seed 004 §6.3)");
  }
  return ok();
}

}  // namespace

thread_message make_message(std::string sender, std::string text, std::string_view phase, std::string_view step) {
  thread_message message;
  message.id = new_uuid();
  message.sender = std::move(sender);
  message.text = std::move(text);
  message.timestamp = now_ms();
  message.meta["_phase"] = phase;
  message.meta["_step"] = step;
  return message;
}

asio::awaitable<result<void>> append_and_save(task& t, flow_thread& main, thread_message message) {
  auto served = served_thread(t, main);
  if (!served) co_return std::move(served).err();
  (*served)->messages.push_back(std::move(message));
  co_return co_await t.host_utils->repository.save_thread(main);
}

result<std::vector<const thread_message*>> messages_of_phase(const task& t, flow_thread& main, std::size_t skip) {
  auto served = served_thread(t, main);
  if (!served) return std::move(served).err();
  const auto& messages = (*served)->messages;
  std::vector<const thread_message*> out;
  const auto start = static_cast<std::size_t>((*served)->settings.phase_start_index) + skip;
  for (std::size_t i = start; i < messages.size(); ++i) out.push_back(&messages[i]);
  return out;
}

asio::awaitable<result<void>> interaction_unit::suggest_phase_update(task& t, flow_thread& main, base_agent& agent) {
  const std::string by = "the interaction unit of phase \"" + phase() + "\"";
  co_return co_await state_handler::suggest_phase_update(t, main, agent, next_phase(), by);
}

asio::awaitable<result<response>> responsor::run_pair(task& t, flow_thread& main, base_agent& agent, std::size_t skip) {
  auto own = messages_of_phase(t, main, skip);
  if (!own) co_return std::move(own).err();
  response answer;
  if (const auto* done = find_step(*own, "bot")) {
    answer = response(done->text);  // written before a restart: not asked again
  } else {
    auto handled = co_await handler_->handle(t, main, agent);
    if (!handled) co_return std::move(handled).err();
    PARLEY_CO_TRY(check_sub_thread_response(*handled, handler_->phase()));
    answer = std::move(*handled);
    if (answer.skip_bot_message_creation()) {
      // The handler wrote (and updated) the bot message itself: the last bot message is ours.
      auto served = served_thread(t, main);
      if (!served) co_return std::move(served).err();
      const thread_message* last_bot = nullptr;
      for (const auto& message : (*served)->messages) {
        if (message.sender == "bot") last_bot = &message;
      }
      if (last_bot == nullptr) {
        co_return make_error(errc::internal, "the StateHandler of phase \"" + handler_->phase() +
                                                 "\" set skipBotMessageCreation but wrote no bot message");
      }
      answer.set_text(last_bot->text);
    } else {
      {
        auto message = make_message("bot", answer.full_message(), phase(), "bot");
        PARLEY_CO_TRY(co_await append_and_save(t, main, std::move(message)));
      }
    }
  }
  if (next_phase() == kCompletedPhase) co_return answer;
  own = messages_of_phase(t, main, skip);
  if (!own) co_return std::move(own).err();
  if (find_step(*own, "feedback") != nullptr) co_return answer;
  thread_message bot;
  bot.sender = "bot";
  bot.text = answer.full_message();
  auto feedback = co_await generate_user_message(bot, t, main, agent);
  if (!feedback) co_return std::move(feedback).err();
  {
    auto message = make_message("user", std::move(*feedback), phase(), "feedback");
    PARLEY_CO_TRY(co_await append_and_save(t, main, std::move(message)));
  }
  co_return answer;
}

asio::awaitable<result<response>> responsor::execute(task& t, flow_thread& main, base_agent& agent) {
  auto answer = co_await run_pair(t, main, agent, 0);
  if (!answer) co_return answer;
  PARLEY_CO_TRY(co_await suggest_phase_update(t, main, agent));
  co_return answer;
}

asio::awaitable<result<response>> starter::execute(task& t, flow_thread& main, base_agent& agent) {
  auto own = messages_of_phase(t, main, 0);
  if (!own) co_return std::move(own).err();
  if (find_step(*own, "start") == nullptr) {
    auto text = co_await generate_initial_user_message(t, main, agent);
    if (!text) co_return std::move(text).err();
    {
      auto message = make_message("user", std::move(*text), phase(), "start");
      PARLEY_CO_TRY(co_await append_and_save(t, main, std::move(message)));
    }
  }
  response answer;
  if (responsor_) {
    auto paired = co_await responsor_->run_pair(t, main, agent, 1);
    if (!paired) co_return paired;
    answer = std::move(*paired);
  } else {
    own = messages_of_phase(t, main, 1);
    if (!own) co_return std::move(own).err();
    if (const auto* done = find_step(*own, "bot")) {
      answer = response(done->text);
    } else {
      auto handled = co_await handler_->handle(t, main, agent);
      if (!handled) co_return handled;
      PARLEY_CO_TRY(check_sub_thread_response(*handled, handler_->phase()));
      answer = std::move(*handled);
      if (!answer.skip_bot_message_creation()) {
        {
          auto message = make_message("bot", answer.full_message(), phase(), "bot");
          PARLEY_CO_TRY(co_await append_and_save(t, main, std::move(message)));
        }
      }
    }
  }
  PARLEY_CO_TRY(co_await suggest_phase_update(t, main, agent));
  co_return answer;
}

}  // namespace parley::flow
