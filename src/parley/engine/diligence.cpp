#include "parley/engine/diligence.hpp"

#include <fstream>
#include <sstream>

namespace parley::engine {
namespace {

std::string without_front_matter(std::string text) {
  if (!text.starts_with("---\n")) return text;
  const auto end = text.find("\n---", 4);
  if (end == std::string::npos) return text;
  const auto body = text.find('\n', end + 4);
  return body == std::string::npos ? std::string{} : text.substr(body + 1);
}

bool blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

}  // namespace

std::optional<std::string> diligence_prompt(const std::filesystem::path& workspace, std::string_view language) {
  for (const auto& name : {"diligence." + std::string(language) + ".md", std::string("diligence.md")}) {
    std::ifstream in(workspace / ".minds" / name, std::ios::binary);
    if (!in) continue;
    std::ostringstream text;
    text << in.rdbuf();
    std::string prompt = without_front_matter(text.str());
    if (blank(prompt)) return std::nullopt;
    return prompt;
  }
  if (language == "zh") {
    return "【运行时自动继续】你停了下来，但任务可能还没完成。请检查目标：如果还有工作，继续推进；如果需要人类的决定，"
           "用 askHuman 提问；如果确实已完成，简要说明完成了什么。";
  }
  return "[runtime auto-continue] You stopped, but the task may not be finished. Check the goal: if work remains, "
         "go on with it; if you need a human decision, ask with askHuman; if it is truly done, say briefly what was "
         "done.";
}

}  // namespace parley::engine
