#include "parley/store/fork_checkpoint.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

#include "parley/model/events/wire.hpp"
#include "parley/model/projection.hpp"

namespace parley {
namespace {

namespace ev_t = events;

// The stored form of a checkpoint: its row and rest (seq and time are columns of their own).
struct stored_fork_checkpoint {
  ev_t::fork_row row;
  fork_rest rest;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("row", s.row);
    v.required("rest", s.rest);
  }
};

}  // namespace

void fork_rest::apply(const event& ev) {
  auto settle = [this](const std::string& call_id) {
    std::erase_if(owed, [&call_id](const owed_call& call) { return call.id == call_id; });
  };
  std::visit(ev_t::overloaded{
                 [&](const ev_t::generation_started& p) { generating = p.genseq; },
                 [&](const ev_t::generation_discarded&) { generating.reset(); },
                 [&](const ev_t::generation_finished& p) {
                   generating.reset();
                   for (const auto& call : p.tool_calls) {
                     const bool known =
                         std::any_of(owed.begin(), owed.end(), [&call](const owed_call& o) { return o.id == call.id; });
                     if (!known) owed.push_back(owed_call{call.id, call.name});
                   }
                 },
                 [&](const ev_t::tool_result& p) { settle(p.call_id); },
                 [&](const ev_t::reply_received& p) { settle(p.call_id); },
                 [&](const ev_t::tellask_called& p) { settle(p.call_id); },
                 [&](const ev_t::question_asked& p) { settle(p.call_id); },
                 [&](const ev_t::question_answered& p) { settle(p.call_id); },
                 [&](const ev_t::course_started&) { owed.clear(); },
                 [&](const ev_t::declared_dead&) {
                   owed.clear();
                   generating.reset();
                 },
                 // A fork starts at rest (plan_fork refuses any other point).
                 [&](const ev_t::dialog_forked&) {
                   owed.clear();
                   generating.reset();
                 },
                 [](const auto&) {},
             },
             ev.payload);
}

std::string fork_rest::problem() const {
  if (generating) return "generation " + std::to_string(*generating) + " is under way";
  if (owed.empty()) return {};
  // The smallest call id, as the set the decode kept them in named it.
  const auto first = std::min_element(owed.begin(), owed.end(), [](const owed_call& a, const owed_call& b) {
    return a.id != b.id ? a.id < b.id : a.name < b.name;
  });
  return "tool call " + first->id + " (" + first->name + ") has no result yet";
}

ev_t::fork_row fork_row_of(const dialog_row& row) {
  ev_t::fork_row kept;
  kept.status = row.status;
  kept.course = row.course;
  kept.caller_id = row.caller_id;
  kept.last_genseq = row.last_genseq;
  kept.message_count = row.message_count;
  kept.open_questions = row.open_questions;
  kept.pending_subdialogs = row.pending_subdialogs;
  kept.input_tokens = row.input_tokens;
  kept.output_tokens = row.output_tokens;
  kept.needs_drive = row.needs_drive;
  kept.dead = row.dead;
  kept.last_error = row.last_error;
  kept.created_at_ms = row.created_at_ms;
  return kept;
}

result<dialog_row> row_at_checkpoint(const event& created, const fork_checkpoint& checkpoint) {
  dialog_row row;
  PARLEY_TRY(apply_event(created, row));
  const ev_t::fork_row& kept = checkpoint.row;
  row.status = kept.status;
  row.course = kept.course;
  row.caller_id = kept.caller_id;
  row.last_genseq = kept.last_genseq;
  row.message_count = kept.message_count;
  row.open_questions = kept.open_questions;
  row.pending_subdialogs = kept.pending_subdialogs;
  row.input_tokens = kept.input_tokens;
  row.output_tokens = kept.output_tokens;
  row.needs_drive = kept.needs_drive;
  row.dead = kept.dead;
  row.last_error = kept.last_error;
  row.created_at_ms = kept.created_at_ms;
  row.generating = checkpoint.rest.generating.has_value();
  row.last_seq = checkpoint.seq;
  row.updated_at_ms = checkpoint.ts_ms;
  return row;
}

std::string encode_fork_checkpoint(const fork_checkpoint& checkpoint) {
  return boost::json::serialize(ev_t::encode_object(stored_fork_checkpoint{checkpoint.row, checkpoint.rest}));
}

result<void> decode_fork_checkpoint(std::string_view text, fork_checkpoint& into) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(text, ec);
  if (ec || !parsed.is_object()) return make_error(errc::corrupt, "fork checkpoint: not a JSON object");
  stored_fork_checkpoint stored;
  if (auto problem = ev_t::decode_object(parsed.get_object(), stored, "")) {
    return make_error(errc::corrupt, "fork checkpoint: " + problem->path + ": " + problem->problem);
  }
  into.row = std::move(stored.row);
  into.rest = std::move(stored.rest);
  return ok();
}

std::optional<fork_checkpoint> fork_checkpoint_after(const event& ev, const dialog_row& row_after,
                                                     const fork_rest& rest) {
  if (ev.seq <= 0 || ev.seq % kForkCheckpointEvery != 0) return std::nullopt;
  return fork_checkpoint{ev.seq, ev.ts_ms, fork_row_of(row_after), rest};
}

}  // namespace parley
