#include "parley/flow/flow_runner.hpp"

#include "parley/core/ids.hpp"
#include "parley/core/time.hpp"
#include "parley/core/utf8.hpp"

namespace parley::flow {

namespace asio = boost::asio;

namespace {

result<void> check_user_text(std::string_view text) {
  if (text.empty()) return make_error(errc::invalid_argument, "message: empty");
  if (!is_valid_utf8(text)) return make_error(errc::invalid_argument, "message: not valid UTF-8");
  return ok();
}

task user_task(std::string_view text, std::string_view ui_action) {
  task t;
  t.id = new_uuid();
  t.name = "chat";
  t.type = std::string(task::kTypeMessage);
  t.message = std::string(text);
  if (!ui_action.empty()) t.meta["_ui_action"] = ui_action;
  return t;
}

thread_message user_message(std::string_view text) {
  thread_message message;
  message.id = new_uuid();
  message.sender = "user";
  message.text = std::string(text);
  message.timestamp = now_ms();
  return message;
}

}  // namespace

asio::awaitable<result<flow_thread>> flow_runner::start(std::string_view text) {
  thread_start how;
  co_return co_await start(text, std::move(how));
}

asio::awaitable<result<flow_thread>> flow_runner::say(std::string_view thread_id, std::string_view text,
                                                      std::string_view ui_action) {
  std::optional<events::flow_input> none;
  co_return co_await say(thread_id, text, ui_action, std::move(none));
}

asio::awaitable<result<flow_thread>> flow_runner::start(std::string_view text, thread_start how) {
  PARLEY_CO_TRY(check_user_text(text));
  auto probe = factory_(thread_settings{});  // refuses a flow whose agent cannot be built, before anything is written
  if (!probe) co_return std::move(probe).err();
  flow_thread main;
  main.id = how.thread_id.empty() ? new_dialog_id() : std::move(how.thread_id);
  main.settings = (*probe)->settings;
  main.messages.push_back(user_message(text));
  main.settings.pending_tasks.push_back(user_task(text, {}));
  const std::string title(text.substr(0, 80));
  PARLEY_CO_TRY(
      co_await repository_.create_thread(main, member_id_, title, std::move(how.humans), std::move(how.input)));
  auto ran = co_await run_pending(main);
  if (!ran) co_return std::move(ran).err();
  co_return main;
}

asio::awaitable<result<flow_thread>> flow_runner::say(std::string_view thread_id, std::string_view text,
                                                      std::string_view ui_action,
                                                      std::optional<events::flow_input> input) {
  PARLEY_CO_TRY(check_user_text(text));
  if (!ui_action.empty() && ui_action != "retry") {
    co_return make_error(errc::invalid_argument,
                         "_ui_action: expected \"retry\" or nothing, got \"" + std::string(ui_action) + "\"");
  }
  auto main = co_await repository_.load_thread_async(std::string(thread_id));
  if (!main) co_return std::move(main).err();
  if (!main->settings.pending_tasks.empty()) {
    co_return make_error(errc::conflict, "thread " + std::string(thread_id) + " is still working on task \"" +
                                             main->settings.pending_tasks.front().name +
                                             "\"; resume it instead of sending a message");
  }
  const auto& suggestion = main->settings.phase_update_suggestion;
  const bool completed =
      main->settings.phase == kCompletedPhase || (suggestion.has_value() && suggestion->phase == kCompletedPhase);
  if (completed && ui_action != "retry") {
    co_return make_error(errc::conflict, "thread " + std::string(thread_id) + " is completed");
  }
  main->messages.push_back(user_message(text));
  main->settings.pending_tasks.push_back(user_task(text, ui_action));
  PARLEY_CO_TRY(co_await repository_.save_thread(*main, std::move(input)));
  auto ran = co_await run_pending(*main);
  if (!ran) co_return std::move(ran).err();
  co_return std::move(*main);
}

asio::awaitable<result<flow_thread>> flow_runner::resume(std::string_view thread_id) {
  auto main = co_await repository_.load_thread_async(std::string(thread_id));
  if (!main) co_return std::move(main).err();
  auto ran = co_await run_pending(*main);
  if (!ran) co_return std::move(ran).err();
  co_return std::move(*main);
}

asio::awaitable<result<void>> flow_runner::run_pending(flow_thread& main) {
  for (std::size_t n = 0; !main.settings.pending_tasks.empty(); ++n) {
    if (n == max_tasks) {
      co_return make_error(errc::limit_exceeded, "thread " + main.id + ": more than " + std::to_string(max_tasks) +
                                                     " tasks in one run; its phases keep adding tasks");
    }
    auto done = co_await run_one(main);
    if (!done) {
      // What the steps before it sent is made durable; the failing step sent nothing more, and
      // memory goes back to what the log holds.
      (void)co_await repository_.commit(main.id);
      if (auto reloaded = co_await repository_.load_thread_async(main.id)) main = std::move(*reloaded);
      co_return done;
    }
  }
  // Nobody hears that the flow waits (or is done) before its steps are durable.
  co_return co_await repository_.commit(main.id);
}

asio::awaitable<result<void>> flow_runner::run_one(flow_thread& main) {
  task current = main.settings.pending_tasks.front();
  current.host_utils = &host_;
  auto agent = factory_(main.settings);
  if (!agent) co_return std::move(agent).err();
  auto answer = co_await (*agent)->execute_task(current, main);
  if (!answer) co_return std::move(answer).err();
  auto& pending = main.settings.pending_tasks;
  pending.erase(pending.begin());
  std::vector<task> next;
  for (auto t : answer->next_tasks()) {
    if (t.id.empty()) t.id = new_uuid();
    t.host_utils = nullptr;
    next.push_back(std::move(t));
  }
  pending.insert(pending.begin(), next.begin(), next.end());
  if (!answer->skip_bot_message_creation()) {
    thread_message bot;
    bot.id = new_uuid();
    bot.sender = "bot";
    bot.text = answer->full_message();
    bot.timestamp = now_ms();
    bot.meta = answer->meta;
    bot.meta["_phase"] = (*agent)->settings.phase;
    main.messages.push_back(std::move(bot));
  }
  PARLEY_CO_TRY(co_await repository_.save_thread(main));
  if (observer.on_task_done) observer.on_task_done(main, current);
  co_return ok();
}

}  // namespace parley::flow
