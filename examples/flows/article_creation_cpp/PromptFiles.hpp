// Reads prompt/<phase>_system_prompt.md of this agent (§10.2.5); the folder is given at startup.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "parley/core/result.hpp"

namespace article_creation {

inline parley::result<std::string> readSystemPrompt(const std::filesystem::path& promptDir, const std::string& phase) {
  const auto file = promptDir / (phase + "_system_prompt.md");
  std::ifstream in(file);
  if (!in) return parley::make_error(parley::errc::config_error, "cannot read prompt file " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace article_creation
