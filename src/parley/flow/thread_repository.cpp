#include "parley/flow/thread_repository.hpp"

#include <boost/asio/post.hpp>

#include <memory>

#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/flow/thread_replay.hpp"
#include "parley/store/async_append.hpp"

namespace parley::flow {

namespace asio = boost::asio;

namespace {

bool same_settings(const thread_settings& a, const thread_settings& b) {
  if (a.phase != b.phase || a.phase_start_index != b.phase_start_index || a.extra != b.extra) return false;
  if (a.phase_update_suggestion.has_value() != b.phase_update_suggestion.has_value()) return false;
  if (a.phase_update_suggestion && (a.phase_update_suggestion->phase != b.phase_update_suggestion->phase ||
                                    a.phase_update_suggestion->task_id != b.phase_update_suggestion->task_id)) {
    return false;
  }
  if (a.pending_tasks.size() != b.pending_tasks.size()) return false;
  for (std::size_t i = 0; i < a.pending_tasks.size(); ++i) {
    if (a.pending_tasks[i].id != b.pending_tasks[i].id) return false;
  }
  return true;
}

// The messages added to `now` since `before` (the same thread), at any depth; false when anything
// else changed (a message edited or removed, a sub-thread's settings), which needs a whole snapshot.
bool collect_appends(const flow_thread& before, const flow_thread& now, const sub_thread_path& path,
                     std::vector<flow_thread_appended::thread_append>& out) {
  if (before.id != now.id || now.messages.size() < before.messages.size()) return false;
  if (!path.is_main() && !same_settings(before.settings, now.settings)) return false;
  for (std::size_t i = 0; i < before.messages.size(); ++i) {
    const auto& old_message = before.messages[i];
    const auto& new_message = now.messages[i];
    if (old_message.id != new_message.id || old_message.text != new_message.text ||
        old_message.sender != new_message.sender || old_message.is_virtual != new_message.is_virtual ||
        old_message.meta != new_message.meta || !old_message.sub_thread != !new_message.sub_thread) {
      return false;
    }
    if (old_message.sub_thread &&
        !collect_appends(*old_message.sub_thread, *new_message.sub_thread, path.child(i), out)) {
      return false;
    }
  }
  if (now.messages.size() > before.messages.size()) {
    flow_thread_appended::thread_append added{path.text(), {}};
    added.messages.assign(now.messages.begin() + static_cast<std::ptrdiff_t>(before.messages.size()),
                          now.messages.end());
    out.push_back(std::move(added));
  }
  return true;
}

// The client's request rides on the event that takes its message in.
void attach_input(event& ev, std::optional<events::flow_input> input) {
  if (!input) return;
  if (auto* saved = std::get_if<events::flow_thread_saved>(&ev.payload)) {
    saved->input = std::move(input);
  } else if (auto* appended = std::get_if<events::flow_thread_appended>(&ev.payload)) {
    appended->input = std::move(input);
  }
}

}  // namespace

asio::awaitable<result<std::vector<event>>> thread_repository::read_thread_events(std::string thread_id) {
  if (reader_) co_return co_await reader_(log_, std::move(thread_id));
  co_return log_.read_events(thread_id);
}

asio::awaitable<std::int64_t> thread_repository::next_seq(std::string thread_id) {
  if (const auto found = last_seq_.find(thread_id); found != last_seq_.end()) co_return found->second + 1;
  std::int64_t last = 0;
  if (auto events = co_await read_thread_events(thread_id); events && !events->empty()) last = events->back().seq;
  // A write of this repository while the read was awaited knows better than the read.
  const auto found = last_seq_.try_emplace(thread_id, last).first;
  co_return found->second + 1;
}

event thread_repository::make_event(std::string_view thread_id, const flow_event& ev) {
  event out;
  out.dialog_id = std::string(thread_id);
  out.root_id = out.dialog_id;
  out.payload = to_log_payload(ev);
  out.ts_ms = now_ms();
  return out;
}

result<void> thread_repository::refused_send_of(std::string_view thread_id) {
  parley::lock_guard lock(refused_->mutex);
  const auto found = refused_->by_thread.find(std::string(thread_id));
  if (found == refused_->by_thread.end()) return ok();
  error refused = std::move(found->second);
  refused.message = "the log refused an earlier write of thread " + found->first + ": " + refused.message;
  refused_->by_thread.erase(found);
  held_.erase(std::string(thread_id));      // after a refused seq, the log refuses what follows it
  last_seq_.erase(std::string(thread_id));  // read again from the log: it holds what it holds
  forget(std::string(thread_id));
  return refused;
}

asio::awaitable<result<void>> thread_repository::append(std::string_view thread_id, std::vector<event> batch,
                                                        bool wait) {
  PARLEY_CO_TRY(refused_send_of(thread_id));
  const std::string id(thread_id);
  send_held_of(id);
  std::int64_t seq = co_await next_seq(id);
  for (auto& ev : batch) ev.seq = seq++;
  if (!wait) {
    last_seq_[id] = seq - 1;
    send_deferred(id, std::move(batch));
    if (changed_) changed_(id);
    co_return ok();
  }
  auto outcome = co_await async_append(log_, executor_, std::move(batch));
  if (!outcome) {
    last_seq_.erase(id);
    forget(id);  // read again from the log, which does not hold what was refused
    co_return outcome;
  }
  last_seq_[id] = seq - 1;
  if (changed_) changed_(id);
  co_return ok();
}

asio::awaitable<result<void>> thread_repository::write(std::string_view thread_id, flow_event ev) {
  PARLEY_CO_TRY(refused_send_of(thread_id));
  const std::string id(thread_id);
  if (auto held = held_.find(id); held != held_.end() && merge_flow_events(held->second.ev, ev)) {
    held->second.ts_ms = now_ms();  // the state it records is this write's
    co_return ok();
  }
  send_held_of(id);
  const std::int64_t seq = co_await next_seq(id);
  last_seq_[id] = seq;
  held_.insert_or_assign(id, held_write{seq, now_ms(), std::move(ev)});
  if (!send_posted_) {
    send_posted_ = true;
    asio::post(executor_, [this, alive = std::weak_ptr<int>(alive_)] {
      if (alive.expired()) return;
      send_posted_ = false;
      send_held();
    });
  }
  co_return ok();
}

void thread_repository::send_held_of(const std::string& thread_id) {
  const auto held = held_.find(thread_id);
  if (held == held_.end()) return;
  event out = make_event(thread_id, held->second.ev);
  out.seq = held->second.seq;
  out.ts_ms = held->second.ts_ms;
  held_.erase(held);
  std::vector<event> batch;
  batch.push_back(std::move(out));
  send_deferred(thread_id, std::move(batch));
  if (changed_) changed_(thread_id);
}

void thread_repository::send_held() {
  while (!held_.empty()) send_held_of(std::string(held_.begin()->first));
}

void thread_repository::send_deferred(const std::string& thread_id, std::vector<event> batch) {
  log_.append_deferred(std::move(batch), [refused = refused_, thread_id](result<void> outcome) {
    if (outcome) return;
    parley::lock_guard lock(refused->mutex);
    refused->by_thread.emplace(thread_id, std::move(outcome).err());  // the first refusal is the one to report
  });
}

asio::awaitable<result<void>> thread_repository::commit(std::string_view thread_id) {
  const std::string id(thread_id);
  send_held_of(id);
  // An empty batch commits after every batch sent before it (the store keeps their order).
  std::vector<event> batch;
  auto outcome = co_await async_append(log_, executor_, std::move(batch));
  if (!outcome) {
    last_seq_.erase(id);
    forget(id);
  }
  if (!outcome) co_return outcome;
  co_return refused_send_of(id);
}

asio::awaitable<result<void>> thread_repository::create_thread(const flow_thread& main, std::string_view member_id,
                                                               std::string_view title, std::vector<std::string> humans,
                                                               std::optional<events::flow_input> input) {
  if (main.id.empty()) co_return make_error(errc::invalid_argument, "create_thread: the thread has no id");
  event created;
  created.dialog_id = main.id;
  created.root_id = main.id;
  events::dialog_created payload;
  payload.member_id = std::string(member_id);
  payload.kind = events::dialog_kind::root;
  payload.title = std::string(title);
  payload.humans = std::move(humans);
  created.payload = std::move(payload);
  created.ts_ms = now_ms();
  std::vector<event> batch;
  batch.push_back(std::move(created));
  batch.push_back(make_event(main.id, flow_thread_saved{main}));
  // A client's request is durable before the step runs, so that a retry finds it; without one,
  // nothing is acknowledged before the run's commit, which makes the new thread durable with it.
  const bool wait = input.has_value();
  attach_input(batch.back(), std::move(input));
  last_seq_[main.id] = 0;
  remember(main);
  co_return co_await append(main.id, std::move(batch), wait);
}

asio::awaitable<result<void>> thread_repository::save_thread(const flow_thread& main,
                                                             std::optional<events::flow_input> input) {
  const auto sent = sent_.find(main.id);
  flow_thread_appended appended;
  std::vector<flow_thread_appended::thread_append> added;  // kept only if nothing but additions changed
  if (sent != sent_.end() && collect_appends(sent->second, main, sub_thread_path(), added)) {
    appended.appends = std::move(added);
    if (!same_settings(sent->second.settings, main.settings)) appended.settings = main.settings;
  }
  flow_event ev;
  if (!appended.appends.empty() || appended.settings) {
    PARLEY_CO_TRY(apply_flow_event(appended, sent->second));
    ev = std::move(appended);
  } else {
    ev = flow_thread_saved{main};
    remember(main);
  }
  if (!input) co_return co_await write(main.id, std::move(ev));
  // The client's request rides on the event that takes its message in, durable before this returns.
  std::vector<event> batch;
  batch.push_back(make_event(main.id, ev));
  attach_input(batch.back(), std::move(input));
  co_return co_await append(main.id, std::move(batch), true);
}

asio::awaitable<result<void>> thread_repository::update_message(flow_thread& main, std::string_view message_id,
                                                                message_patch patch) {
  flow_message_updated update{std::string(message_id), std::move(patch.text), std::move(patch.meta)};
  if (!update.text && !update.meta) {
    co_return make_error(errc::invalid_argument, "updateMessage " + update.message_id + ": nothing to update");
  }
  // Checked before the log sees it: apply_flow_event changes nothing unless the whole event fits.
  if (find_message(main, update.message_id) == nullptr) {
    co_return make_error(errc::not_found, "updateMessage: no message " + update.message_id + " in thread " + main.id);
  }
  PARLEY_CO_TRY(refused_send_of(main.id));  // so that the write below cannot fail once main has changed
  PARLEY_CO_TRY(apply_flow_event(update, main));
  if (auto sent = sent_.find(main.id); sent != sent_.end() && !apply_flow_event(update, sent->second)) forget(main.id);
  co_return co_await write(main.id, std::move(update));
}

asio::awaitable<result<void>> thread_repository::update_thread_settings(flow_thread& main, const sub_thread_path& path,
                                                                        thread_settings settings) {
  auto target = get_sub_thread_by_path(main, path);
  if (!target) co_return std::move(target).err();
  flow_settings_updated update{path.text(), std::move(settings)};
  PARLEY_CO_TRY(refused_send_of(main.id));  // so that the write below cannot fail once main has changed
  if (auto sent = sent_.find(main.id); sent != sent_.end() && !apply_flow_event(update, sent->second)) forget(main.id);
  (*target)->settings = update.settings;
  co_return co_await write(main.id, std::move(update));
}

result<const thread_settings*> thread_repository::get_thread_settings(flow_thread& main, const sub_thread_path& path) {
  auto target = get_sub_thread_by_path(main, path);
  if (!target) return std::move(target).err();
  return &(*target)->settings;
}

result<flow_thread> thread_repository::load_thread(std::string_view thread_id) {
  // What this repository last wrote is what the log holds (or will, in order): no read needed.
  if (auto known = sent_.find(std::string(thread_id)); known != sent_.end()) return known->second;
  send_held_of(std::string(thread_id));  // forgotten while a write was held: the log reads it too
  auto events = log_.read_events(thread_id);
  if (!events) return std::move(events).err();
  return thread_from(thread_id, *events);
}

asio::awaitable<result<flow_thread>> thread_repository::load_thread_async(std::string thread_id) {
  if (auto known = sent_.find(thread_id); known != sent_.end()) co_return known->second;
  send_held_of(thread_id);  // forgotten while a write was held: the log reads it too
  auto events = co_await read_thread_events(thread_id);
  if (!events) co_return std::move(events).err();
  // Written by this repository while the read was awaited: memory is newer than what was read.
  if (auto known = sent_.find(thread_id); known != sent_.end()) co_return known->second;
  co_return thread_from(thread_id, *events);
}

void thread_repository::remember(const flow_thread& main, std::optional<events::dialog_status> status) {
  if (sent_.size() >= kMaxRemembered && sent_.count(main.id) == 0) forget(sent_.begin()->first);
  sent_[main.id] = main;
  if (status) {
    status_[main.id] = *status;
  } else {
    status_.try_emplace(main.id, events::dialog_status::running);
  }
}

result<flow_thread> thread_repository::thread_from(std::string_view thread_id, const std::vector<event>& events) {
  auto main = replay_flow_thread(thread_id, events);
  if (!main) return std::move(main).err();
  last_seq_[std::string(thread_id)] = events.back().seq;
  auto status = events::dialog_status::running;
  for (const auto& ev : events) {
    if (const auto* changed = ev.as<events::status_changed>()) status = changed->status;
  }
  remember(*main, status);
  return main;
}

asio::awaitable<result<events::dialog_status>> thread_repository::status_of(std::string thread_id) {
  if (auto known = status_.find(thread_id); known != status_.end()) co_return known->second;
  auto loaded = co_await load_thread_async(thread_id);
  if (!loaded) co_return std::move(loaded).err();
  // load_thread_async remembered the thread with its status, and nothing ran in between.
  if (auto known = status_.find(thread_id); known != status_.end()) co_return known->second;
  co_return make_error(errc::internal, "thread " + thread_id + ": its status was not remembered");
}

namespace {

event status_event_of(std::string_view thread_id, events::dialog_status to) {
  event changed;
  changed.dialog_id = std::string(thread_id);
  changed.root_id = changed.dialog_id;
  changed.payload = events::status_changed{to};
  changed.ts_ms = now_ms();
  return changed;
}

}  // namespace

asio::awaitable<result<void>> thread_repository::set_status(std::string_view thread_id, events::dialog_status to) {
  std::vector<event> batch;
  batch.push_back(status_event_of(thread_id, to));
  PARLEY_CO_TRY(co_await append(thread_id, std::move(batch), true));
  if (auto known = status_.find(std::string(thread_id)); known != status_.end()) known->second = to;
  co_return ok();
}

asio::awaitable<result<void>> thread_repository::send_status(std::string_view thread_id, events::dialog_status to) {
  std::vector<event> batch;
  batch.push_back(status_event_of(thread_id, to));
  PARLEY_CO_TRY(co_await append(thread_id, std::move(batch), false));
  // A refusal is reported by the commit that follows, which then forgets the thread's status.
  if (auto known = status_.find(std::string(thread_id)); known != status_.end()) known->second = to;
  co_return ok();
}

result<flow_thread_info> thread_repository::thread_info(std::string_view thread_id) {
  auto events = log_.read_events(thread_id);
  if (!events) return std::move(events).err();
  const auto* created = events->empty() ? nullptr : events->front().as<events::dialog_created>();
  if (created == nullptr) return make_error(errc::not_found, "no flow thread " + std::string(thread_id));
  return flow_thread_info{std::string(thread_id), created->member_id, created->title};
}

}  // namespace parley::flow
