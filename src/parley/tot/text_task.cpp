#include "parley/tot/text_task.hpp"

#include <cctype>

#include "parley/core/utf8.hpp"

namespace parley::tot {

result<thought_node> text_task::make_root(const std::string& problem) {
  thought_node root;
  root.content = problem;
  root.action_type = "problem";
  return root;
}

result<accepted_step> text_task::accept(const thought_node& parent, const thought_candidate& candidate) {
  std::string key;
  bool space = false;
  for (unsigned char c : candidate.content) {
    if (std::isspace(c) != 0) {
      space = !key.empty();
      continue;
    }
    if (space) key += ' ';
    space = false;
    key += static_cast<char>(std::tolower(c));
  }
  if (key.empty()) return make_error(errc::invalid_argument, "the thought is empty");
  return accepted_step{candidate.content, {}, parent.id + "|" + key};
}

}  // namespace parley::tot
