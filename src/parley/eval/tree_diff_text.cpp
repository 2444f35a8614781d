// diff_to_text: the terminal's form of a tree diff. Every text that came from the log (a model's
// answer, a tool's arguments, a question) passes through terminal_safe.
#include <cstdio>

#include "parley/core/terminal_text.hpp"
#include "parley/eval/tree_diff.hpp"

namespace parley::eval {
namespace {

constexpr std::size_t kDiffTextDetailChars = 100;

std::string diff_text_step(const std::optional<tree_step>& step) {
  if (!step) return "(none)";
  std::string detail = step->detail;
  if (detail.size() > kDiffTextDetailChars) detail = detail.substr(0, kDiffTextDetailChars) + "...";
  // One step, one line: a question's or argument's line breaks are shown, not followed.
  for (std::size_t at = detail.find('\n'); at != std::string::npos; at = detail.find('\n', at + 2)) {
    detail.replace(at, 1, "\\n");
  }
  return terminal_safe(std::string(step_kind_name(step->kind)) + " " + step->name + " " + detail);
}

std::string diff_text_stats(const member_stats& stats) {
  char line[160];
  std::snprintf(line, sizeof line, "%3lld rounds %7lld in %6lld out $%.4f%s %6lld ms",
                static_cast<long long>(stats.rounds), static_cast<long long>(stats.input_tokens),
                static_cast<long long>(stats.output_tokens), stats.cost_usd, stats.unpriced_calls > 0 ? "+" : " ",
                static_cast<long long>(stats.latency_ms));
  return line;
}

void diff_text_dialogs(const tree_diff& diff, std::string& text) {
  text += "dialogs (A | B):\n";
  for (const auto& dialog : diff.dialogs) {
    const char* mark = dialog.same() ? "=" : (dialog.a_id.empty() ? "+" : (dialog.b_id.empty() ? "-" : "~"));
    text += std::string("  ") + mark + " " + terminal_safe(dialog.path) + "  " +
            (dialog.a_id.empty() ? "(none)" : terminal_safe(dialog.a_id)) + " | " +
            (dialog.b_id.empty() ? "(none)" : terminal_safe(dialog.b_id)) + "\n";
    for (std::size_t i = 0; i < dialog.steps.size(); ++i) {
      const auto& pair = dialog.steps[i];
      if (pair.same()) {
        text += "      " + std::to_string(i + 1) + ". " + diff_text_step(pair.a) + "\n";
        continue;
      }
      text += "    - " + std::to_string(i + 1) + ". " + diff_text_step(pair.a) + "\n";
      text += "    + " + std::to_string(i + 1) + ". " + diff_text_step(pair.b) + "\n";
    }
  }
}

}  // namespace

std::string diff_to_text(const tree_diff& diff) {
  std::string text = "A " + terminal_safe(diff.a_root) + "\nB " + terminal_safe(diff.b_root) + "\n";
  if (diff.identical()) text += "the trees made the same steps and gave the same answer\n";
  if (diff.first_parting) {
    text += "first parting: " + terminal_safe(diff.first_parting->path);
    text += diff.first_parting->step ? ", step " + std::to_string(*diff.first_parting->step + 1) + "\n"
                                     : " (in one tree only)\n";
  }
  diff_text_dialogs(diff, text);
  text += "final answer:\n";
  for (const auto& line : diff.answer_diff) {
    text += "  ";
    text += diff_mark(line.op);
    text += " " + terminal_safe(line.text) + "\n";
  }
  text += "per member (A / B):\n";
  for (const auto& [member, stats] : diff.members) {
    text += "  @" + terminal_safe(member) + "\n    A " + diff_text_stats(stats.first) + "\n    B " +
            diff_text_stats(stats.second) + "\n";
  }
  text += "  total\n    A " + diff_text_stats(diff.total_a) + "\n    B " + diff_text_stats(diff.total_b) + "\n";
  return text;
}

}  // namespace parley::eval
