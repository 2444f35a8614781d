// Whether a text holds a part: what the tests ask of messages, bodies and outputs.
#pragma once

#include <string_view>

namespace parley::testing {

inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace parley::testing
