#include "parley/server/pubchan.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <algorithm>

#include "parley/core/ids.hpp"
#include "parley/core/json.hpp"
#include "parley/model/event_codec.hpp"
#include "parley/model/projection.hpp"
#include "parley/server/json_views.hpp"
#include "parley/server/log_event_packets.hpp"

namespace parley::server {
namespace {

std::string new_epoch() {
  std::string id = new_uuid();
  std::erase(id, '-');
  return id;
}

// Null for kinds the wire does not carry (a discard arrives as the log's generation_discarded).
const char* stream_type(engine::stream_kind kind) {
  switch (kind) {
    case engine::stream_kind::thinking_start:
      return "thinking_start_evt";
    case engine::stream_kind::thinking_chunk:
      return "thinking_chunk_evt";
    case engine::stream_kind::thinking_finish:
      return "thinking_finish_evt";
    case engine::stream_kind::saying_start:
      return "saying_start_evt";
    case engine::stream_kind::saying_chunk:
      return "saying_chunk_evt";
    case engine::stream_kind::saying_finish:
      return "saying_finish_evt";
    default:
      return nullptr;
  }
}

}  // namespace

pubchan::pubchan(engine::engine& eng, store& log, const server_options& options)
    : engine_(eng), log_(log), options_(options), epoch_(new_epoch()) {
  engine_.add_observer(this);
}

void pubchan::attach(pubchan_subscriber& subscriber) { connections_.try_emplace(&subscriber); }

void pubchan::detach(pubchan_subscriber& subscriber) {
  const auto it = connections_.find(&subscriber);
  if (it == connections_.end()) return;
  for (const auto& dialog_id : it->second) {
    if (const auto ch = channels_.find(dialog_id); ch != channels_.end())
      std::erase(ch->second.subscribers, &subscriber);
  }
  connections_.erase(it);
}

std::optional<dialog_row> pubchan::row_of(std::string_view dialog_id) {
  if (const auto* runtime = engine_.find(dialog_id)) return runtime->row();
  if (const auto remote = remote_rows_.find(std::string(dialog_id)); remote != remote_rows_.end()) {
    return remote->second;
  }
  // With a read thread, never a read here: what the engine reports about a dialog comes while it
  // holds it, and a dialog it dropped since has nothing new to say.
  if (reads_ != nullptr) return std::nullopt;
  auto stored = log_.get_dialog(dialog_id);
  if (!stored || !stored->has_value()) return std::nullopt;
  return std::move(**stored);
}

void pubchan::forget_parents() {
  scanned_roots_.clear();
  parents_.clear();
}

void pubchan::take_hierarchy(const std::string& root_id, const std::vector<dialog_row>& rows) {
  if (scanned_roots_.size() >= options_.hierarchies_cached) forget_parents();
  scanned_roots_.insert(root_id);
  // Merged, not replaced: children announced while the read was under way stay known.
  for (const auto& r : rows) {
    if (!r.parent_id.empty()) parents_.insert(r.parent_id);
  }
}

namespace {

result<std::vector<dialog_row>> read_hierarchy(store& log, const std::string& root_id) {
  dialog_filter filter;
  filter.root_id = root_id;
  return log.list_dialogs(filter);
}

}  // namespace

boost::asio::awaitable<void> pubchan::learn_hierarchy(std::string root_id) {
  if (scanned_roots_.contains(root_id)) co_return;
  auto read = [&log = log_, &root_id] { return read_hierarchy(log, root_id); };
  auto rows = co_await engine::read_off_loop(reads_, std::move(read));
  // A hierarchy that cannot be read is asked again next time.
  if (rows) take_hierarchy(root_id, *rows);
}

boost::asio::awaitable<void> pubchan::learn_in_background(std::string root_id) {
  co_await learn_hierarchy(root_id);
  const auto found = learning_.find(root_id);
  if (found == learning_.end()) co_return;
  const auto published = std::move(found->second);
  learning_.erase(found);
  for (const auto& id : published) {
    if (!parents_.contains(id)) continue;
    publish_state(id, 0);
    const auto row = row_of(id);
    if (row && row->parent_id.empty()) {
      broadcast(encode_packet("dialog_list_evt", boost::json::object{{"dialog", dialog_summary_json(*row, true)}}),
                *row);
    }
  }
}

bool pubchan::has_children(const dialog_row& row) {
  // Children created before this process started are in the store; later ones arrive as events.
  if (!scanned_roots_.contains(row.root_id)) {
    if (reads_ == nullptr) {
      // No read thread (tests, benchmarks): read right here, as the answer is wanted now.
      if (auto rows = read_hierarchy(log_, row.root_id)) take_hierarchy(row.root_id, *rows);
    } else {
      // Never a read on the loop: what is known now goes out, and the hierarchy is read on the
      // read thread; a dialog that turns out to have children then has its state published again.
      auto [learning, first] = learning_.try_emplace(row.root_id);
      learning->second.insert(row.id);
      if (first) boost::asio::co_spawn(executor_, learn_in_background(row.root_id), boost::asio::detached);
    }
  }
  return parents_.contains(row.id);
}

pubchan::channel& pubchan::channel_of(std::string_view dialog_id, std::string_view root_id) {
  auto [it, inserted] = channels_.try_emplace(std::string(dialog_id));
  if (inserted) {
    it->second.self_id = dialog_id;
    it->second.root_id = root_id;
    it->second.last_seq = dropped_seq_ceiling_;
  }
  it->second.last_used = ++use_clock_;
  if (inserted) drop_idle_channels();  // never drops `it`: it is the most recently used
  return it->second;
}

void pubchan::drop_idle_channels() {
  if (channels_.size() < next_sweep_at_ || channels_.size() <= options_.idle_channels_kept) return;
  std::vector<std::pair<std::uint64_t, std::string_view>> idle;
  for (const auto& [id, ch] : channels_) {
    if (ch.idle()) idle.emplace_back(ch.last_used, id);
  }
  if (idle.size() > options_.idle_channels_kept) {
    const auto drop = idle.size() - options_.idle_channels_kept;
    std::nth_element(idle.begin(), idle.begin() + static_cast<std::ptrdiff_t>(drop), idle.end());
    for (std::size_t i = 0; i < drop; ++i) {
      const auto found = channels_.find(std::string(idle[i].second));
      dropped_seq_ceiling_ = std::max(dropped_seq_ceiling_, found->second.last_seq);
      remote_rows_.erase(found->first);
      channels_.erase(found);
    }
  }
  next_sweep_at_ = std::max<std::size_t>(2 * channels_.size(), options_.idle_channels_kept + 1);
}

std::int64_t pubchan::last_seq(std::string_view dialog_id) const {
  const auto it = channels_.find(std::string(dialog_id));
  return it == channels_.end() ? 0 : it->second.last_seq;
}

result<void> pubchan::subscribe(pubchan_subscriber& subscriber, std::string_view dialog_id,
                                std::optional<std::int64_t> after_seq, std::string_view epoch) {
  std::string root_id;
  std::int64_t log_head = 0;
  if (const auto* runtime = engine_.find(dialog_id)) {
    root_id = runtime->row().root_id;
  } else {
    auto stored = log_.get_dialog(dialog_id);
    if (!stored) return std::move(stored).err();
    if (!*stored) return make_error(errc::not_found, "dialog.selfId: no dialog '" + std::string(dialog_id) + "'");
    root_id = (*stored)->root_id;
    log_head = (*stored)->last_seq;
  }
  subscribe(subscriber, dialog_id, root_id, after_seq, epoch, log_head);
  return ok();
}

void pubchan::subscribe(pubchan_subscriber& subscriber, std::string_view dialog_id, std::string_view root_id,
                        std::optional<std::int64_t> after_seq, std::string_view epoch, std::int64_t log_head) {
  channel& ch = channel_of(dialog_id, root_id);
  // A dialog the engine holds has published (or will) every event from here on; one it does not
  // hold may be driven by another process, whose events the follower reads after this seq.
  const auto* runtime = engine_.find(dialog_id);
  // Events another process appended while nobody here watched are not in the replay window: such
  // a subscriber is resynced, whatever its afterSeq.
  const bool window_lacks_events = runtime == nullptr && log_head > ch.log_seq && ch.log_seq > 0;
  ch.log_seq = std::max(ch.log_seq, runtime != nullptr ? runtime->row().last_seq : log_head);
  const bool first_watch = ch.subscribers.empty();
  auto& subscribed = connections_[&subscriber];
  if (subscribed.insert(std::string(dialog_id)).second) ch.subscribers.push_back(&subscriber);
  if (first_watch && runtime == nullptr && on_new_watch_) on_new_watch_(ch.self_id);

  const std::int64_t first_kept = ch.ring.empty() ? ch.last_seq + 1 : ch.ring.front()->seq;
  const bool replayable =
      after_seq && epoch == epoch_ && *after_seq >= first_kept - 1 && *after_seq <= ch.last_seq && !window_lacks_events;
  std::int64_t replay_from = 0;  // first seq to send again, 0: none
  std::int64_t resync_seq = ch.last_seq;
  if (replayable) {
    replay_from = *after_seq + 1;
  } else if (ch.generation_start_seq > 0 && ch.generation_start_seq >= first_kept) {
    // The transcript does not hold a generation in progress: replay it from its start.
    resync_seq = ch.generation_start_seq - 1;
    replay_from = ch.generation_start_seq;
  }
  if (!replayable) {
    subscriber.deliver(resync_packet(ch, resync_seq));
  }
  if (replay_from > 0) {
    for (auto i = static_cast<std::size_t>(replay_from - first_kept); i < ch.ring.size(); ++i) {
      subscriber.deliver(ch.ring[i]);
    }
  }
}

packet_ptr pubchan::resync_packet(const channel& ch, std::int64_t seq) {
  return encode_packet(
      "resync", boost::json::object{{"dialog", boost::json::object{{"selfId", ch.self_id}, {"rootId", ch.root_id}}},
                                    {"seq", seq}});
}

void pubchan::unsubscribe(pubchan_subscriber& subscriber, std::string_view dialog_id) {
  const auto it = connections_.find(&subscriber);
  if (it == connections_.end()) return;
  const auto sub = it->second.find(dialog_id);
  if (sub == it->second.end()) return;
  it->second.erase(sub);
  if (const auto ch = channels_.find(std::string(dialog_id)); ch != channels_.end()) {
    std::erase(ch->second.subscribers, &subscriber);
  }
}

void pubchan::close_all() {
  // Copied: a subscriber may detach while being closed.
  std::vector<pubchan_subscriber*> all;
  all.reserve(connections_.size());
  for (const auto& entry : connections_) all.push_back(entry.first);
  for (auto* subscriber : all) subscriber->close(1001, "server shutting down");
}

void pubchan::publish(channel& ch, std::string_view type, std::int64_t course, std::int64_t genseq,
                      std::int64_t log_seq, boost::json::object extra, chunk_segment chunk) {
  const event_head head{ch.self_id, ch.root_id, course, genseq, ++ch.last_seq, log_seq};
  auto packet = encode_dialog_event(type, head, std::move(extra), chunk);
  ch.ring.push_back(packet);
  while (ch.ring.size() > options_.replay_window_events) ch.ring.pop_front();
  for (auto* subscriber : ch.subscribers) subscriber->deliver(packet);
}

void pubchan::broadcast(const packet_ptr& packet, const dialog_row& root) {
  for (const auto& entry : connections_) {
    if (entry.first->sees_root(root)) entry.first->deliver(packet);
  }
}

void pubchan::publish_to_root(std::string_view root_id, std::string_view type, boost::json::object extra) {
  const auto* runtime = engine_.find(root_id);
  const std::int64_t course = runtime != nullptr ? runtime->row().course : 0;
  const std::int64_t genseq = runtime != nullptr ? runtime->row().last_genseq : 0;
  publish(channel_of(root_id, root_id), type, course, genseq, 0, std::move(extra));
}

void pubchan::on_stream(const engine::stream_event& ev) {
  const char* type = stream_type(ev.kind);
  if (type == nullptr) return;
  auto& ch = channel_of(ev.dialog_id, ev.root_id);
  boost::json::object extra;
  auto chunk = chunk_segment::none;
  if (ev.kind == engine::stream_kind::thinking_chunk || ev.kind == engine::stream_kind::saying_chunk) {
    extra["content"] = ev.text;
    chunk = ev.kind == engine::stream_kind::thinking_chunk ? chunk_segment::thinking : chunk_segment::saying;
  }
  publish(ch, type, ev.course, ev.genseq, 0, std::move(extra), chunk);
}

void pubchan::on_event(const event& ev) {
  if (const auto* created = ev.as<events::dialog_created>()) {
    // A root's creation is not staged through the engine's observers: on_durable announces it.
    if (created->kind == events::dialog_kind::sub) publish_subdialog_created(ev);
    return;
  }
  publish_log_event(channel_of(ev.dialog_id, ev.root_id), ev);
}

void pubchan::on_durable(const event& ev) {
  const auto* created = ev.as<events::dialog_created>();
  if (created == nullptr || created->kind == events::dialog_kind::sub) return;
  // A root this process made has no children in the store (those it gets arrive as events), so
  // has_children never has to read its hierarchy — a read that would wait for the writer here.
  if (scanned_roots_.size() >= options_.hierarchies_cached) forget_parents();
  scanned_roots_.insert(ev.dialog_id);
  dialog_row row;
  if (apply_event(ev, row)) {
    broadcast(encode_packet("dialog_list_evt", boost::json::object{{"dialog", dialog_summary_json(row, false)}}), row);
  }
}

void pubchan::publish_subdialog_created(const event& ev) {
  dialog_row child;
  if (!apply_event(ev, child)) return;
  // Subdialogs keep being created while nobody asks has_children: this bounds parents_ too.
  if (parents_.size() >= options_.hierarchies_cached) forget_parents();
  parents_.insert(child.parent_id);
  const auto summary = dialog_summary_json(child, false);
  // On the parent's channel, and the root's when the parent is deeper in the tree.
  for (const std::string* target : {&child.parent_id, &child.root_id}) {
    if (target == &child.root_id && child.root_id == child.parent_id) break;
    const auto* runtime = engine_.find(*target);
    const std::int64_t course = runtime != nullptr ? runtime->row().course : 0;
    const std::int64_t genseq = runtime != nullptr ? runtime->row().last_genseq : 0;
    publish(channel_of(*target, child.root_id), "subdialog_created_evt", course, genseq, 0,
            boost::json::object{{"subdialog", summary}});
  }
}

namespace {

// The course and genseq an event names, if it names them (the dialog's current ones otherwise).
template <class P>
std::optional<std::int64_t> course_of(const P& p) {
  if constexpr (requires { p.course; }) {
    return p.course;
  } else {
    return std::nullopt;
  }
}
template <class P>
std::optional<std::int64_t> genseq_of(const P& p) {
  if constexpr (requires { p.genseq; }) {
    return p.genseq;
  } else {
    return std::nullopt;
  }
}

}  // namespace

void pubchan::publish_log_event(channel& ch, const event& ev) {
  ch.log_seq = std::max(ch.log_seq, ev.seq);
  const auto* runtime = engine_.find(ev.dialog_id);
  const std::int64_t course = std::visit([](const auto& p) { return course_of(p); }, ev.payload)
                                  .value_or(runtime != nullptr ? runtime->row().course : 0);
  const std::int64_t genseq = std::visit([](const auto& p) { return genseq_of(p); }, ev.payload)
                                  .value_or(runtime != nullptr ? runtime->row().last_genseq : 0);
  // A generation that ends or fails is no longer replayed from its start to a new subscriber.
  if (ev.as<events::generation_finished>() != nullptr) ch.generation_start_seq = 0;
  for (auto& packet : packets_for(ev.payload))
    publish(ch, packet.type, course, genseq, ev.seq, std::move(packet.extra));

  const auto reminders_changed = [&] {
    boost::json::array reminders;
    if (runtime != nullptr) {
      const auto& list = runtime->state().reminders;
      for (std::size_t i = 0; i < list.size(); ++i) {
        reminders.push_back(boost::json::object{{"index", static_cast<std::int64_t>(i)}, {"content", list[i]}});
      }
    }
    publish(ch, "reminders_update_evt", course, genseq, ev.seq,
            boost::json::object{{"reminders", std::move(reminders)}});
  };
  const auto state_changed = [&] { publish_state(ev.dialog_id, ev.seq); };
  const auto root_listed_again = [&] {
    state_changed();
    if (ch.root_id != ch.self_id) return;
    if (const auto row = row_of(ev.dialog_id)) {
      broadcast(encode_packet("dialog_list_evt",
                              boost::json::object{{"dialog", dialog_summary_json(*row, has_children(*row))}}),
                *row);
    }
  };
  std::visit(
      events::overloaded{
          [&](const events::generation_started&) { ch.generation_start_seq = ch.last_seq; },
          [&](const events::reminder_added&) { reminders_changed(); },
          [&](const events::reminder_updated&) { reminders_changed(); },
          [&](const events::reminder_deleted&) { reminders_changed(); },
          [&](const events::drive_failed& p) {
            // A failure while a generation is open aborted it mid-stream (stream-order violation,
            // provider error).
            if (ch.generation_start_seq > 0) {
              ch.generation_start_seq = 0;
              publish(ch, "stream_error_evt", course, genseq, ev.seq, boost::json::object{{"message", p.message}});
            }
            state_changed();
          },
          // A root's status or title shows in every dialog list.
          [&](const events::status_changed&) { root_listed_again(); },
          [&](const events::title_changed&) { root_listed_again(); },
          [&](const events::declared_dead&) { state_changed(); },
          [&](const events::drive_resumed&) { state_changed(); },
          [](const auto&) {},  // shown by packets_for, or nothing a client shows
      },
      ev.payload);
}

void pubchan::publish_state(std::string_view dialog_id, std::int64_t log_seq) {
  const auto row = row_of(dialog_id);
  if (!row) return;
  auto& ch = channel_of(dialog_id, row->root_id);
  auto summary = dialog_summary_json(*row, has_children(*row));
  if (const auto* runtime = engine_.find(dialog_id)) add_resume_state(summary, *runtime);
  publish(ch, "dialog_state_evt", row->course, row->last_genseq, log_seq,
          boost::json::object{{"state", std::move(summary)}});
}

void pubchan::on_drive_finished(std::string_view dialog_id) { publish_state(dialog_id, 0); }

void pubchan::on_tree_adopted(std::string_view root_id) {
  // Its hierarchy may have grown there too: read again when next asked.
  scanned_roots_.erase(std::string(root_id));
  // Sent now, before this node's own events of the tree: a subscriber fetches the transcript the
  // log holds and plays what follows on top of it, as after a subscribe that cannot replay.
  for (const auto& [id, ch] : channels_) {
    if (ch.root_id != root_id || ch.subscribers.empty()) continue;
    const auto resync = resync_packet(ch, ch.last_seq);
    for (auto* subscriber : ch.subscribers) subscriber->deliver(resync);
  }
}

void pubchan::on_questions_count(const engine::questions_count_update& update) {
  auto packet = encode_packet(
      "questions_count_update",
      boost::json::object{{"previousCount", update.previous_count},
                          {"questionCount", update.question_count},
                          {"dialog", boost::json::object{{"selfId", update.self_id}, {"rootId", update.root_id}}},
                          {"course", update.course}});
  if (const auto root = row_of(update.root_id)) {
    broadcast(packet, *root);
  } else if (reads_ == nullptr) {
    if (auto stored = log_.get_dialog(update.root_id); stored && *stored) broadcast(packet, **stored);
  } else {
    boost::asio::co_spawn(executor_, broadcast_after_reading(std::move(packet), std::string(update.root_id)),
                          boost::asio::detached);
  }
}

boost::asio::awaitable<void> pubchan::broadcast_after_reading(packet_ptr packet, std::string root_id) {
  auto read = [&log = log_, &root_id] { return log.get_dialog(root_id); };
  auto root = co_await engine::read_off_loop(reads_, std::move(read));
  if (root && *root) broadcast(packet, **root);
}

std::vector<std::pair<std::string, std::int64_t>> pubchan::watched_log_seqs() const {
  std::vector<std::pair<std::string, std::int64_t>> watched;
  for (const auto& [id, ch] : channels_) {
    if (!ch.subscribers.empty()) watched.emplace_back(id, ch.log_seq);
  }
  return watched;
}

std::optional<std::int64_t> pubchan::watched_log_seq(std::string_view dialog_id) const {
  const auto it = channels_.find(std::string(dialog_id));
  if (it == channels_.end() || it->second.subscribers.empty()) return std::nullopt;
  return it->second.log_seq;
}

void pubchan::publish_remote(const dialog_row& row, const std::vector<event>& events) {
  // Kept while the dialog has a channel here (its state packets show it), dropped with it.
  if (engine_.find(row.id) == nullptr && channels_.contains(row.id)) remote_rows_.insert_or_assign(row.id, row);
  for (const auto& ev : events) {
    const auto* created = ev.as<events::dialog_created>();
    if (created != nullptr && created->kind != events::dialog_kind::sub) continue;  // listed on its own
    if (created == nullptr) {
      // Published already: by this process's engine, or by an earlier read.
      const auto it = channels_.find(ev.dialog_id);
      if (it != channels_.end() && ev.seq <= it->second.log_seq) continue;
    }
    on_event(ev);
  }
}

void pubchan::publish_remote_list_entry(const dialog_row& root) {
  if (!root.parent_id.empty()) return;
  broadcast(
      encode_packet("dialog_list_evt", boost::json::object{{"dialog", dialog_summary_json(root, has_children(root))}}),
      root);
}

}  // namespace parley::server
