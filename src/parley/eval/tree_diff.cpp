#include "parley/eval/tree_diff.hpp"

#include <cstdio>

#include "parley/core/terminal_text.hpp"

namespace parley::eval {
namespace {

// A subdialog's pairing key under its parent and the path segment it is shown as.
std::vector<std::string> diff_child_keys(const tree_summary& tree, const dialog_node& parent) {
  std::map<std::string, int, std::less<>> ordinal;
  std::vector<std::string> keys;
  for (const std::size_t index : parent.children) {
    const auto& child = tree.dialogs[index];
    if (!child.session_slug.empty()) {
      keys.push_back("@" + child.member_id + "!" + child.session_slug);
    } else {
      keys.push_back("@" + child.member_id + "#" + std::to_string(++ordinal[child.member_id]));
    }
  }
  return keys;
}

std::vector<step_pair> diff_pair_steps(const dialog_node* a, const dialog_node* b) {
  const std::size_t na = a == nullptr ? 0 : a->steps.size();
  const std::size_t nb = b == nullptr ? 0 : b->steps.size();
  std::vector<step_pair> pairs(std::max(na, nb));
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i < na) pairs[i].a = a->steps[i];
    if (i < nb) pairs[i].b = b->steps[i];
  }
  return pairs;
}

struct diff_walker {
  const tree_summary& a;
  const tree_summary& b;
  tree_diff& out;

  void visit(const std::string& path, const dialog_node* da, const dialog_node* db) {
    aligned_dialog row;
    row.path = path;
    row.member_id = da != nullptr ? da->member_id : db->member_id;
    if (da != nullptr) row.a_id = da->id;
    if (db != nullptr) row.b_id = db->id;
    row.steps = diff_pair_steps(da, db);
    for (std::size_t i = 0; i < row.steps.size(); ++i) {
      if (!row.steps[i].same()) {
        row.first_parting = i;
        break;
      }
    }
    if (!out.first_parting) {
      if (da == nullptr || db == nullptr) {
        out.first_parting = tree_parting{path, std::nullopt};
      } else if (row.first_parting) {
        out.first_parting = tree_parting{path, row.first_parting};
      }
    }
    out.dialogs.push_back(std::move(row));
    visit_children(path, da, db);
  }

  void visit_children(const std::string& path, const dialog_node* da, const dialog_node* db) {
    const auto keys_a = da != nullptr ? diff_child_keys(a, *da) : std::vector<std::string>{};
    const auto keys_b = db != nullptr ? diff_child_keys(b, *db) : std::vector<std::string>{};
    std::vector<bool> b_paired(keys_b.size(), false);
    for (std::size_t i = 0; i < keys_a.size(); ++i) {
      const dialog_node* match = nullptr;
      for (std::size_t j = 0; j < keys_b.size(); ++j) {
        if (!b_paired[j] && keys_b[j] == keys_a[i]) {
          b_paired[j] = true;
          match = &b.dialogs[db->children[j]];
          break;
        }
      }
      visit(path + "/" + keys_a[i], &a.dialogs[da->children[i]], match);
    }
    for (std::size_t j = 0; j < keys_b.size(); ++j) {
      if (!b_paired[j]) visit(path + "/" + keys_b[j], nullptr, &b.dialogs[db->children[j]]);
    }
  }
};

boost::json::object step_json(const tree_step& step) {
  return {{"kind", step_kind_name(step.kind)}, {"name", step.name}, {"detail", step.detail}};
}

boost::json::object stats_json(const member_stats& stats) {
  return {{"rounds", stats.rounds},    {"inputTokens", stats.input_tokens},     {"outputTokens", stats.output_tokens},
          {"costUsd", stats.cost_usd}, {"unpricedCalls", stats.unpriced_calls}, {"latencyMs", stats.latency_ms}};
}

boost::json::object dialog_json(const aligned_dialog& dialog) {
  boost::json::array steps;
  for (const auto& pair : dialog.steps) {
    boost::json::object step{{"same", pair.same()}};
    step["a"] = pair.a ? boost::json::value(step_json(*pair.a)) : boost::json::value(nullptr);
    step["b"] = pair.b ? boost::json::value(step_json(*pair.b)) : boost::json::value(nullptr);
    steps.push_back(std::move(step));
  }
  boost::json::object out{{"path", dialog.path}, {"memberId", dialog.member_id}, {"same", dialog.same()}};
  out["a"] = dialog.a_id.empty() ? boost::json::value(nullptr) : boost::json::value(dialog.a_id);
  out["b"] = dialog.b_id.empty() ? boost::json::value(nullptr) : boost::json::value(dialog.b_id);
  out["firstPartingStep"] = dialog.first_parting ? boost::json::value(static_cast<std::int64_t>(*dialog.first_parting))
                                                 : boost::json::value(nullptr);
  out["steps"] = std::move(steps);
  return out;
}

}  // namespace

tree_diff diff_trees(const tree_summary& a, const tree_summary& b) {
  tree_diff out;
  out.a_root = a.root_id;
  out.b_root = b.root_id;
  const dialog_node* ra = a.dialogs.empty() ? nullptr : &a.dialogs.front();
  const dialog_node* rb = b.dialogs.empty() ? nullptr : &b.dialogs.front();
  if (ra != nullptr || rb != nullptr) {
    diff_walker walker{a, b, out};
    walker.visit("@" + (ra != nullptr ? ra->member_id : rb->member_id), ra, rb);
  }
  if (ra != nullptr) out.a_answer = ra->final_answer;
  if (rb != nullptr) out.b_answer = rb->final_answer;
  out.answer_diff = diff_lines(out.a_answer, out.b_answer);
  for (const auto& [member, stats] : a.by_member) out.members[member].first = stats;
  for (const auto& [member, stats] : b.by_member) out.members[member].second = stats;
  out.total_a = a.total;
  out.total_b = b.total;
  return out;
}

boost::json::object diff_to_json(const tree_diff& diff) {
  boost::json::array dialogs;
  for (const auto& dialog : diff.dialogs) dialogs.push_back(dialog_json(dialog));
  boost::json::value parting = nullptr;
  if (diff.first_parting) {
    boost::json::object where{{"path", diff.first_parting->path}};
    where["step"] = diff.first_parting->step ? boost::json::value(static_cast<std::int64_t>(*diff.first_parting->step))
                                             : boost::json::value(nullptr);
    parting = std::move(where);
  }
  boost::json::array lines;
  for (const auto& line : diff.answer_diff) {
    lines.push_back({{"op", std::string(1, diff_mark(line.op))}, {"text", line.text}});
  }
  boost::json::object members;
  for (const auto& [member, stats] : diff.members) {
    members[member] = boost::json::object{{"a", stats_json(stats.first)}, {"b", stats_json(stats.second)}};
  }
  return {{"a", diff.a_root},
          {"b", diff.b_root},
          {"identical", diff.identical()},
          {"firstParting", std::move(parting)},
          {"dialogs", std::move(dialogs)},
          {"answer", boost::json::object{{"a", diff.a_answer}, {"b", diff.b_answer}, {"diff", std::move(lines)}}},
          {"members", std::move(members)},
          {"total", boost::json::object{{"a", stats_json(diff.total_a)}, {"b", stats_json(diff.total_b)}}}};
}

}  // namespace parley::eval
