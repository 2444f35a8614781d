// The language of a ToT run's log lines and progress: the team's `language` (en | zh), as the
// rest of the runtime's own text. The seed writes its examples in Chinese; "zh" gives those.
#pragma once

#include <string>
#include <string_view>

namespace parley::tot {

inline std::string text_for(std::string_view language, std::string zh, std::string en) {
  return language == "zh" ? std::move(zh) : std::move(en);
}

}  // namespace parley::tot
