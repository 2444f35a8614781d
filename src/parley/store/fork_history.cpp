#include "parley/store/fork_history.hpp"

#include "parley/model/projection.hpp"
#include "parley/store/store.hpp"

namespace parley {
namespace {

namespace ev_t = events;

void map_fork_id(std::string& id, const fork_id_map& ids) {
  if (id.empty()) return;
  if (const auto it = ids.find(id); it != ids.end()) id = it->second;
}

// The tree's id map, kept by the fork root's own first event.
result<fork_id_map> fork_ids_of_tree(store& log, const event& first) {
  const auto* forked = first.as<ev_t::dialog_forked>();
  const ev_t::dialog_forked* root_fork = forked;
  std::vector<event> root_events;
  if (first.dialog_id != first.root_id) {
    PARLEY_TRY_ASSIGN(root_events, log.read_events(first.root_id));
    root_fork = root_events.empty() ? nullptr : root_events.front().as<ev_t::dialog_forked>();
    if (root_fork == nullptr) {
      return make_error(errc::corrupt, "forked dialog " + first.dialog_id + ": its root " + first.root_id +
                                           " does not start with dialog_forked");
    }
  }
  fork_id_map ids;
  for (const auto& pair : root_fork->dialogs) ids.emplace(pair.origin, pair.fork);
  return ids;
}

}  // namespace

void give_fork_ids(event& ev, const fork_id_map& ids, std::string_view fork_root_id) {
  map_fork_id(ev.dialog_id, ids);
  ev.root_id = std::string(fork_root_id);
  std::visit(ev_t::overloaded{
                 [&](ev_t::dialog_created& p) { map_fork_id(p.parent_id, ids); },
                 [&](ev_t::dialog_forked& p) {
                   map_fork_id(p.created.parent_id, ids);
                   map_fork_id(p.row.caller_id, ids);
                 },
                 [&](ev_t::user_message& p) {
                   if (p.assigned) map_fork_id(p.assigned->caller_id, ids);
                 },
                 [&](ev_t::tellask_called& p) { map_fork_id(p.subdialog_id, ids); },
                 [&](ev_t::reply_received& p) { map_fork_id(p.from_dialog_id, ids); },
                 [&](ev_t::answer_delivered& p) { map_fork_id(p.to_dialog_id, ids); },
                 [](auto&) {},
             },
             ev.payload);
}

std::vector<std::string> dialog_ids_named_by(const event& ev) {
  std::vector<std::string> named;
  auto add = [&named](const std::string& id) {
    if (!id.empty()) named.push_back(id);
  };
  std::visit(ev_t::overloaded{
                 [&](const ev_t::dialog_created& p) { add(p.parent_id); },
                 [&](const ev_t::dialog_forked& p) {
                   add(p.created.parent_id);
                   add(p.row.caller_id);
                 },
                 [&](const ev_t::user_message& p) {
                   if (p.assigned) add(p.assigned->caller_id);
                 },
                 [&](const ev_t::tellask_called& p) { add(p.subdialog_id); },
                 [&](const ev_t::reply_received& p) { add(p.from_dialog_id); },
                 [&](const ev_t::answer_delivered& p) { add(p.to_dialog_id); },
                 [](const auto&) {},
             },
             ev.payload);
  return named;
}

result<std::vector<event>> read_dialog_history(store& log, std::string_view dialog_id) {
  std::vector<event> own;
  PARLEY_TRY_ASSIGN(own, log.read_events(dialog_id));
  if (own.empty()) return own;
  const auto* forked = own.front().as<ev_t::dialog_forked>();
  if (forked == nullptr) return own;
  fork_id_map ids;
  PARLEY_TRY_ASSIGN(ids, fork_ids_of_tree(log, own.front()));
  std::vector<event> history;
  PARLEY_TRY_ASSIGN(history, read_dialog_history(log, forked->origin_dialog_id));
  std::erase_if(history, [through = forked->through_seq](const event& ev) { return ev.seq > through; });
  if (static_cast<std::int64_t>(history.size()) != forked->through_seq) {
    return make_error(errc::corrupt, "forked dialog " + std::string(dialog_id) + " shares events 1.." +
                                         std::to_string(forked->through_seq) + " of " + forked->origin_dialog_id +
                                         ", which holds " + std::to_string(history.size()) + " of them");
  }
  for (auto& ev : history) give_fork_ids(ev, ids, own.front().root_id);
  history.insert(history.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
  return history;
}

result<std::vector<message_row>> read_dialog_messages(store& log, std::string_view dialog_id, std::int64_t course) {
  std::optional<fork_origin> origin;
  PARLEY_TRY_ASSIGN(origin, fork_origin_of(log, dialog_id));
  if (!origin) return log.messages(dialog_id, course);
  std::vector<event> history;
  PARLEY_TRY_ASSIGN(history, read_dialog_history(log, dialog_id));
  dialog_row row;
  std::vector<message_row> messages;
  for (const auto& ev : history) {
    auto step = apply_event(ev, row);
    if (!step) return std::move(step).err();
    if (step->new_message && (course == 0 || step->new_message->course == course)) {
      messages.push_back(std::move(*step->new_message));
    }
  }
  return messages;
}

result<std::optional<fork_origin>> fork_origin_of(store& log, std::string_view dialog_id) {
  std::optional<dialog_row> row;
  PARLEY_TRY_ASSIGN(row, log.get_dialog(dialog_id));
  if (!row) return std::optional<fork_origin>{};
  std::vector<event> own;
  PARLEY_TRY_ASSIGN(own, log.read_events(dialog_id));
  if (own.empty()) return std::optional<fork_origin>{};
  const auto* forked = own.front().as<ev_t::dialog_forked>();
  if (forked == nullptr) return std::optional<fork_origin>{};
  return std::optional<fork_origin>{fork_origin{forked->origin_dialog_id, forked->origin_root_id, forked->through_seq}};
}

}  // namespace parley
