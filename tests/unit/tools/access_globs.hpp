// Access rules' folder globs from their texts, for tests that build rules by hand.
#pragma once

#include <initializer_list>
#include <string_view>
#include <vector>

#include "parley/access/access_rules.hpp"

namespace parley::tools::testing {

inline std::vector<access::dir_glob> globs(std::initializer_list<std::string_view> texts) {
  std::vector<access::dir_glob> out;
  for (const auto text : texts) out.push_back(access::dir_glob::parse(text).value());
  return out;
}

}  // namespace parley::tools::testing
