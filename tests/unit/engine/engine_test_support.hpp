// Helpers for engine tests: a team written to a temp folder, and running coroutines to the end.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "parley/config/team.hpp"

namespace parley::engine::testing {

class temp_team {
 public:
  temp_team(const std::string& team_yaml, const std::string& script_yaml) {
    std::random_device device;
    dir_ = std::filesystem::temp_directory_path() / ("parley-engine-" + std::to_string(device()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "team.yaml") << team_yaml;
    std::ofstream(dir_ / "script.yaml") << script_yaml;
  }
  ~temp_team() { std::filesystem::remove_all(dir_); }
  temp_team(const temp_team&) = delete;
  temp_team& operator=(const temp_team&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  config::team_config load() const { return config::load_team_file(dir_ / "team.yaml").value(); }

 private:
  std::filesystem::path dir_;
};

inline const char* kOneMemberTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n  lead: {persona: \"You lead.\", provider: offline, model: m, toolsets: [basic]}\n";

}  // namespace parley::engine::testing
