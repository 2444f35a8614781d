// diff_to_text: the terminal's form of a tree diff. Every text that came from the log (a model's
// answer, a tool's arguments, a question) passes through terminal_safe.
#include <cstdio>

#include "parley/core/messages.hpp"
#include "parley/core/terminal_text.hpp"
#include "parley/eval/tree_diff.hpp"

namespace parley::eval {
namespace {

constexpr std::size_t kDiffTextDetailChars = 100;

std::string diff_text_step(const std::optional<tree_step>& step, std::string_view language) {
  if (!step) return say(msg::diff_none, language);
  std::string detail = step->detail;
  if (detail.size() > kDiffTextDetailChars) detail = detail.substr(0, kDiffTextDetailChars) + "...";
  // One step, one line: a question's or argument's line breaks are shown, not followed.
  for (std::size_t at = detail.find('\n'); at != std::string::npos; at = detail.find('\n', at + 2)) {
    detail.replace(at, 1, "\\n");
  }
  return terminal_safe(std::string(step_kind_name(step->kind)) + " " + step->name + " " + detail);
}

// The figures at fixed widths, so that A's and B's line up; the words between them in `language`.
std::string diff_text_stats(const member_stats& stats, std::string_view language) {
  char rounds[24];
  char input[24];
  char output[24];
  char cost[40];
  char latency[24];
  std::snprintf(rounds, sizeof rounds, "%3lld", static_cast<long long>(stats.rounds));
  std::snprintf(input, sizeof input, "%7lld", static_cast<long long>(stats.input_tokens));
  std::snprintf(output, sizeof output, "%6lld", static_cast<long long>(stats.output_tokens));
  // A "+" after the cost: some calls had no declared price, so it is a lower bound.
  std::snprintf(cost, sizeof cost, "$%.4f%s", stats.cost_usd, stats.unpriced_calls > 0 ? "+" : " ");
  std::snprintf(latency, sizeof latency, "%6lld", static_cast<long long>(stats.latency_ms));
  return say(msg::diff_stats, language,
             {{"rounds", rounds}, {"in", input}, {"out", output}, {"cost", cost}, {"ms", latency}});
}

void diff_text_dialogs(const tree_diff& diff, std::string& text, std::string_view language) {
  const std::string none = say(msg::diff_none, language);
  text += say(msg::diff_dialogs, language) + "\n";
  for (const auto& dialog : diff.dialogs) {
    const char* mark = dialog.same() ? "=" : (dialog.a_id.empty() ? "+" : (dialog.b_id.empty() ? "-" : "~"));
    text += std::string("  ") + mark + " " + terminal_safe(dialog.path) + "  " +
            (dialog.a_id.empty() ? none : terminal_safe(dialog.a_id)) + " | " +
            (dialog.b_id.empty() ? none : terminal_safe(dialog.b_id)) + "\n";
    for (std::size_t i = 0; i < dialog.steps.size(); ++i) {
      const auto& pair = dialog.steps[i];
      if (pair.same()) {
        text += "      " + std::to_string(i + 1) + ". " + diff_text_step(pair.a, language) + "\n";
        continue;
      }
      text += "    - " + std::to_string(i + 1) + ". " + diff_text_step(pair.a, language) + "\n";
      text += "    + " + std::to_string(i + 1) + ". " + diff_text_step(pair.b, language) + "\n";
    }
  }
}

}  // namespace

std::string diff_to_text(const tree_diff& diff, std::string_view language) {
  std::string text = "A " + terminal_safe(diff.a_root) + "\nB " + terminal_safe(diff.b_root) + "\n";
  if (diff.identical()) text += say(msg::diff_identical, language) + "\n";
  if (diff.first_parting) {
    text += say(msg::diff_first_parting, language, {{"path", terminal_safe(diff.first_parting->path)}});
    const std::string step = diff.first_parting->step ? std::to_string(*diff.first_parting->step + 1) : "";
    text += diff.first_parting->step ? say(msg::diff_at_step, language, {{"n", step}})
                                     : say(msg::diff_one_tree_only, language);
    text += "\n";
  }
  diff_text_dialogs(diff, text, language);
  text += say(msg::diff_final_answer, language) + "\n";
  for (const auto& line : diff.answer_diff) {
    text += "  ";
    text += diff_mark(line.op);
    text += " " + terminal_safe(line.text) + "\n";
  }
  text += say(msg::diff_per_member, language) + "\n";
  for (const auto& [member, stats] : diff.members) {
    text += "  @" + terminal_safe(member) + "\n    A " + diff_text_stats(stats.first, language) + "\n    B " +
            diff_text_stats(stats.second, language) + "\n";
  }
  text += say(msg::diff_total, language) + "\n    A " + diff_text_stats(diff.total_a, language) + "\n    B " +
          diff_text_stats(diff.total_b, language) + "\n";
  return text;
}

}  // namespace parley::eval
