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

bool reached_completed_phase(const thread_settings& settings) {
  const auto& suggestion = settings.phase_update_suggestion;
  return settings.phase == kCompletedPhase || (suggestion.has_value() && suggestion->phase == kCompletedPhase);
}

std::string status_word(events::dialog_status status) { return std::string(events::to_wire(status)); }

thread_message user_message(std::string_view text) {
  thread_message message;
  message.id = new_uuid();
  message.sender = "user";
  message.text = std::string(text);
  message.timestamp = now_ms();
  return message;
}

thread_message bot_message(std::string text, const boost::json::object& meta, const std::string& phase) {
  thread_message bot;
  bot.id = new_uuid();
  bot.sender = "bot";
  bot.text = std::move(text);
  bot.timestamp = now_ms();
  bot.meta = meta;
  bot.meta["_phase"] = phase;
  return bot;
}

error no_message_to_update(const flow_thread& main, std::string_view message_id) {
  return make_error(errc::not_found, "messageUpdate: no message \"" + std::string(message_id) + "\" in thread " +
                                         main.id + " (at any depth); nothing was written");
}

// The patch a messageUpdate makes: its text, and the message's meta with the update's fields laid
// over it (a sub-thread the message holds stays where it is).
result<message_patch> update_patch(flow_thread& main, const message_update& update, std::string text) {
  auto* message = find_message(main, update.message_id);
  if (message == nullptr) return no_message_to_update(main, update.message_id);
  if (update.meta.contains("_thread")) {
    return make_error(errc::invalid_argument,
                      "messageUpdate.meta._thread: a sub-thread is placed by its "
                      "StateHandler (updateMessage), not by a Response");
  }
  message_patch patch;
  patch.text = std::move(text);
  boost::json::object meta = message->meta;
  for (const auto& [key, value] : update.meta) meta[key] = value;
  if (message->sub_thread) meta["_thread"] = to_json(*message->sub_thread);
  patch.meta = std::move(meta);
  return patch;
}

// The bot message a stream of task `task_id` began in the main thread, if one did.
const thread_message* streaming_message_of(const flow_thread& main, std::string_view task_id) {
  for (const auto& message : main.messages) {
    const auto* of = message.meta.if_contains("_streamOf");
    if (of != nullptr && of->is_string() && of->get_string() == task_id) return &message;
  }
  return nullptr;
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
  co_return co_await take_task(thread_id, user_task(text, ui_action), std::string(text), std::move(input));
}

result<std::vector<flow_operation>> flow_runner::operations() const {
  auto agent = factory_(thread_settings{});
  if (!agent) return std::move(agent).err();
  return (*agent)->load_operations();
}

asio::awaitable<result<flow_thread>> flow_runner::run_task(std::string_view thread_id, task_request request) {
  auto listed = operations();
  if (!listed) co_return std::move(listed).err();
  const flow_operation* operation = nullptr;
  std::string names;
  for (const auto& candidate : *listed) {
    if (candidate.name == request.name) operation = &candidate;
    names += (names.empty() ? "" : ", ") + candidate.name;
  }
  if (operation == nullptr) {
    co_return make_error(errc::invalid_argument, "name: the flow's agent has no operation \"" + request.name +
                                                     "\" (its loadOperations: " + (names.empty() ? "none" : names) +
                                                     ")");
  }
  if (operation->with_user_message) PARLEY_CO_TRY(check_user_text(request.message));
  if (!is_valid_utf8(request.message)) co_return make_error(errc::invalid_argument, "message: not valid UTF-8");
  task t = user_task(request.message, {});
  t.name = operation->name;
  t.type = std::string(task::kTypeAction);
  t.skip_user_message = !operation->with_user_message;
  t.meta = std::move(request.meta);
  t.meta.erase("_ui_action");  // a retry comes through say's _ui_action only
  std::optional<std::string> user_text;
  if (operation->with_user_message) user_text = request.message;
  std::optional<events::flow_input> none;
  co_return co_await take_task(thread_id, std::move(t), std::move(user_text), std::move(none));
}

asio::awaitable<result<flow_thread>> flow_runner::take_task(std::string_view thread_id, task t,
                                                            std::optional<std::string> user_text,
                                                            std::optional<events::flow_input> input) {
  auto main = co_await repository_.load_thread_async(std::string(thread_id));
  if (!main) co_return std::move(main).err();
  if (!main->settings.pending_tasks.empty()) {
    co_return make_error(errc::conflict, "thread " + std::string(thread_id) + " is still working on task \"" +
                                             main->settings.pending_tasks.front().name +
                                             "\"; resume it instead of sending a message");
  }
  const bool retry = t.is_retry();
  const bool finished = reached_completed_phase(main->settings);
  if (finished && !retry) {
    co_return make_error(errc::conflict, "dialog " + std::string(thread_id) +
                                             " is completed: its flow has finished and takes no more messages");
  }
  auto status = co_await repository_.status_of(main->id);
  if (!status) co_return std::move(status).err();
  // A retry of a finished flow runs its last step again, so its dialog is running again.
  if (*status == events::dialog_status::completed && finished && retry) {
    PARLEY_CO_TRY(co_await repository_.set_status(main->id, events::dialog_status::running));
  } else if (*status != events::dialog_status::running) {
    co_return make_error(errc::conflict, "dialog " + std::string(thread_id) + " is " + status_word(*status) +
                                             "; reopen it to go on (POST /api/dialogs/" + main->id +
                                             "/reopen, parley reopen " + main->id + ")");
  }
  if (user_text) main->messages.push_back(user_message(*user_text));
  main->settings.pending_tasks.push_back(std::move(t));
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

asio::awaitable<result<void>> flow_runner::set_status(std::string_view thread_id, events::dialog_status to) {
  const std::string id(thread_id);
  auto main = co_await repository_.load_thread_async(id);
  if (!main) co_return std::move(main).err();
  auto from = co_await repository_.status_of(id);
  if (!from) co_return std::move(from).err();
  if (*from == to) co_return make_error(errc::conflict, "dialog " + id + " is already " + status_word(to));
  if (to == events::dialog_status::completed && *from == events::dialog_status::archived) {
    co_return make_error(errc::conflict, "dialog " + id + " is archived; reopen it before completing it");
  }
  if (to == events::dialog_status::running && reached_completed_phase(main->settings)) {
    co_return make_error(errc::conflict, "dialog " + id +
                                             ": its flow has finished (phase completed) and takes no more "
                                             "messages; start a new dialog instead; nothing was changed");
  }
  if (*from == events::dialog_status::running && !main->settings.pending_tasks.empty()) {
    co_return make_error(errc::conflict, "dialog " + id + " has work in flight (task \"" +
                                             main->settings.pending_tasks.front().name +
                                             "\" is pending): resume it first; nothing was changed");
  }
  co_return co_await repository_.set_status(id, to);
}

asio::awaitable<result<void>> flow_runner::complete_if_finished(const flow_thread& main) {
  if (!reached_completed_phase(main.settings) || !main.settings.pending_tasks.empty()) co_return ok();
  auto status = co_await repository_.status_of(main.id);
  if (!status) co_return std::move(status).err();
  if (*status != events::dialog_status::running) co_return ok();
  co_return co_await repository_.send_status(main.id, events::dialog_status::completed);
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
  // A finished flow's dialog is completed in the commit of its last step (one fsync, not two),
  // and nobody hears that the flow waits (or is done) before its steps are durable.
  auto completed = co_await complete_if_finished(main);
  auto committed = co_await repository_.commit(main.id);
  if (!completed) co_return completed;
  co_return committed;
}

asio::awaitable<result<void>> flow_runner::run_one(flow_thread& main) {
  task current = main.settings.pending_tasks.front();
  current.host_utils = &host_;
  auto agent = factory_(main.settings);
  if (!agent) co_return std::move(agent).err();
  auto answer = co_await (*agent)->execute_task(current, main);
  if (!answer) co_return std::move(answer).err();
  auto& pending = main.settings.pending_tasks;
  auto delivered = co_await deliver(main, current, (*agent)->settings.phase, *answer);
  if (!delivered) {
    // A response that cannot be delivered (a messageUpdate of a message that does not exist) is
    // wrong whenever it is run again: its task is dropped, so the flow waits again, and the error
    // goes to the caller. Nothing else was written. Other failures (a model's) leave it pending.
    const auto code = delivered.err().code;
    if (code == errc::invalid_argument || code == errc::not_found) {
      pending.erase(pending.begin());
      PARLEY_CO_TRY(co_await repository_.save_thread(main));
    }
    co_return delivered;
  }
  pending.erase(pending.begin());
  std::vector<task> next;
  for (auto t : answer->next_tasks()) {
    if (t.id.empty()) t.id = new_uuid();
    t.host_utils = nullptr;
    next.push_back(std::move(t));
  }
  pending.insert(pending.begin(), next.begin(), next.end());
  PARLEY_CO_TRY(co_await repository_.save_thread(main));
  if (observer.on_task_done) observer.on_task_done(main, current);
  co_return ok();
}

asio::awaitable<result<void>> flow_runner::deliver(flow_thread& main, const task& current, const std::string& phase,
                                                   response& answer) {
  if (answer.stream()) co_return co_await deliver_stream(main, current, phase, answer);
  if (const auto& update = answer.update()) {
    // The message updated, not a new one: one flow_message_updated, refused (nothing written) when
    // the message does not exist.
    auto patch = update_patch(main, *update, update->text.value_or(answer.full_message()));
    if (!patch) co_return std::move(patch).err();
    co_return co_await repository_.update_message(main, update->message_id, std::move(*patch));
  }
  if (answer.skip_bot_message_creation()) co_return ok();
  // Sent with the task's end in the caller's one save.
  main.messages.push_back(bot_message(answer.full_message(), answer.meta, phase));
  co_return ok();
}

asio::awaitable<result<void>> flow_runner::deliver_stream(flow_thread& main, const task& current,
                                                          const std::string& phase, response& answer) {
  const answer_stream stream = *answer.stream();
  if (!stream.run) co_return make_error(errc::invalid_argument, "setStream: the response's stream has nothing to run");
  std::string target;
  if (const auto& update = answer.update()) {
    if (find_message(main, update->message_id) == nullptr) co_return no_message_to_update(main, update->message_id);
    target = update->message_id;
  } else if (const auto* again = streaming_message_of(main, current.id)) {
    target = again->id;  // this task's stream began before a crash or a failure: it goes on there
  } else {
    // The bot message exists, empty and marked _streaming, before the first chunk: readers of the
    // thread see where the answer grows (one saveThread, as the seed's Responsor saves its message).
    auto placeholder = bot_message("", answer.meta, stream.phase.empty() ? phase : stream.phase);
    placeholder.meta["_streaming"] = true;
    placeholder.meta["_streamOf"] = current.id;
    target = placeholder.id;
    main.messages.push_back(std::move(placeholder));
    PARLEY_CO_TRY(co_await repository_.save_thread(main));
  }
  const std::string thread_id = main.id;
  answer_stream::chunk_fn on_chunk = [this, thread_id](std::string_view chunk) { ai_.tell_chunk(thread_id, chunk); };
  auto text = co_await stream.run(std::move(on_chunk));
  if (!text) co_return std::move(text).err();
  answer.set_text(*text);
  message_update done{target, *text, {}};
  if (const auto& update = answer.update()) done.meta = update->meta;
  auto patch = update_patch(main, done, *text);
  if (!patch) co_return std::move(patch).err();
  patch->meta->erase("_streaming");
  co_return co_await repository_.update_message(main, target, std::move(*patch));
}

}  // namespace parley::flow
