#include "parley/eval/tree_summary.hpp"

#include <algorithm>
#include <set>

#include "parley/engine/usage_report.hpp"
#include "parley/store/fork_history.hpp"

namespace parley::eval {
namespace {

// One dialog being read: its node and, per tool call id, the step it made (a Tellask or a question
// recorded after the generation turns that step from a tool call into what it was).
struct summary_dialog_cursor {
  std::size_t node = 0;
  std::map<std::string, std::size_t, std::less<>> step_of_call;
  std::map<std::int64_t, std::int64_t> started_ms;  // genseq → generation_started's time
};

void summary_add_generation(tree_summary& tree, summary_dialog_cursor& cursor, const event& ev,
                            const events::generation_finished& finished, const config::team_config* prices) {
  dialog_node& node = tree.dialogs[cursor.node];
  for (const auto& call : finished.tool_calls) {
    cursor.step_of_call[call.id] = node.steps.size();
    node.steps.push_back({step_kind::tool_call, call.name, call.arguments, {}});
  }
  if (!finished.saying.empty()) node.final_answer = finished.saying;
  const std::string member = finished.member_id.value_or(node.member_id);
  member_stats call;
  call.rounds = 1;
  call.input_tokens = finished.usage.input_tokens;
  call.output_tokens = finished.usage.output_tokens;
  if (prices != nullptr) {
    std::string model = finished.model.value_or("");
    if (model.empty()) {
      if (const auto* config = prices->find_member(member)) model = config->model;
    }
    const auto priced = engine::usage_of_call(*prices, member, model, finished.usage);
    call.cost_usd = priced.cost_usd;
    call.unpriced_calls = priced.unpriced_calls;
  } else {
    call.unpriced_calls = 1;
  }
  if (const auto started = cursor.started_ms.find(finished.genseq); started != cursor.started_ms.end()) {
    call.latency_ms = std::max<std::int64_t>(0, ev.ts_ms - started->second);
  }
  tree.by_member[member].add(call);
  tree.total.add(call);
}

// A Tellask or question made by the tool call `call_id` (or, for a Tellask written as text, by none).
void summary_mark_step(dialog_node& node, summary_dialog_cursor& cursor, const std::string& call_id, tree_step step) {
  if (const auto found = cursor.step_of_call.find(call_id); found != cursor.step_of_call.end()) {
    node.steps[found->second] = std::move(step);
    return;
  }
  node.steps.push_back(std::move(step));
}

void summary_add_event(tree_summary& tree, summary_dialog_cursor& cursor, const event& ev,
                       const config::team_config* prices) {
  dialog_node& node = tree.dialogs[cursor.node];
  if (const auto* started = ev.as<events::generation_started>()) {
    cursor.started_ms[started->genseq] = ev.ts_ms;
  } else if (const auto* finished = ev.as<events::generation_finished>()) {
    summary_add_generation(tree, cursor, ev, *finished, prices);
  } else if (const auto* called = ev.as<events::tellask_called>()) {
    std::string target = called->target_agent_id;
    if (called->session_slug && !called->session_slug->empty()) target += "!" + *called->session_slug;
    summary_mark_step(node, cursor, called->call_id,
                      {step_kind::tellask, std::string(events::to_wire(called->name)), target, called->subdialog_id});
  } else if (const auto* asked = ev.as<events::question_asked>()) {
    summary_mark_step(node, cursor, asked->call_id, {step_kind::question, "askHuman", asked->tellask_content, {}});
  } else if (const auto* failed = ev.as<events::drive_failed>()) {
    node.last_error = failed->message;
  } else if (ev.is<events::user_message>() || ev.is<events::drive_resumed>()) {
    node.last_error.clear();
  }
}

}  // namespace

const char* step_kind_name(step_kind kind) noexcept {
  switch (kind) {
    case step_kind::tool_call:
      return "tool_call";
    case step_kind::tellask:
      return "tellask";
    case step_kind::question:
      return "question";
  }
  return "tool_call";
}

void member_stats::add(const member_stats& other) {
  rounds += other.rounds;
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  cost_usd += other.cost_usd;
  unpriced_calls += other.unpriced_calls;
  latency_ms += other.latency_ms;
}

std::vector<std::string> tree_summary::tools_called() const {
  std::set<std::string> names;
  for (const auto& dialog : dialogs) {
    for (const auto& step : dialog.steps) {
      if (step.kind == step_kind::tool_call) names.insert(step.name);
    }
  }
  return {names.begin(), names.end()};
}

std::vector<std::string> tree_summary::members_asked() const {
  std::set<std::string> names;
  for (std::size_t i = 1; i < dialogs.size(); ++i) names.insert(dialogs[i].member_id);
  return {names.begin(), names.end()};
}

tree_summary summarize_tree(const std::string& root_id, const std::vector<event>& events,
                            const config::team_config* prices) {
  tree_summary tree;
  tree.root_id = root_id;
  std::map<std::string, summary_dialog_cursor, std::less<>> cursors;
  for (const auto& ev : events) {
    if (const auto* created = ev.as<events::dialog_created>()) {
      dialog_node node;
      node.id = ev.dialog_id;
      node.parent_id = created->parent_id;
      node.member_id = created->member_id;
      if (created->call && created->kind == events::dialog_kind::sub) node.call_kind = events::to_wire(*created->call);
      node.session_slug = created->session_slug;
      cursors[ev.dialog_id].node = tree.dialogs.size();
      tree.dialogs.push_back(std::move(node));
      continue;
    }
    const auto cursor = cursors.find(ev.dialog_id);
    if (cursor == cursors.end()) continue;  // a dialog whose creation is not in `events`
    summary_add_event(tree, cursor->second, ev, prices);
  }
  for (std::size_t i = 0; i < tree.dialogs.size(); ++i) {
    const auto parent = cursors.find(tree.dialogs[i].parent_id);
    if (parent != cursors.end() && parent->second.node != i) tree.dialogs[parent->second.node].children.push_back(i);
  }
  return tree;
}

result<std::vector<event>> read_tree(store& log, const std::string& root_id) {
  auto root = log.get_dialog(root_id);
  if (!root) return std::move(root).err();
  if (!*root || !(*root)->parent_id.empty()) {
    return make_error(errc::not_found, "no root dialog '" + root_id + "' in the store");
  }
  dialog_filter filter;
  filter.root_id = root_id;
  auto rows = log.list_dialogs(filter);
  if (!rows) return std::move(rows).err();
  // The root first, then the subdialogs in the order they were made (ids break ties).
  std::stable_sort(rows->begin(), rows->end(), [&](const dialog_row& a, const dialog_row& b) {
    const bool a_root = a.id == root_id;
    const bool b_root = b.id == root_id;
    if (a_root != b_root) return a_root;
    if (a.created_at_ms != b.created_at_ms) return a.created_at_ms < b.created_at_ms;
    return a.id < b.id;
  });
  std::vector<event> all;
  for (const auto& row : *rows) {
    // A fork's dialog holds only its own events; its history is its origin's through the cut
    // first (docs/fork.md), so a fork is summed and aligned like any other tree.
    auto events = read_dialog_history(log, row.id);
    if (!events) return std::move(events).err();
    for (auto& ev : *events) all.push_back(std::move(ev));
  }
  return all;
}

}  // namespace parley::eval
