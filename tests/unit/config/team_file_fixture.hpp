// Fixture for team.yaml tests: a temp folder holding script.yaml, and helpers that load a team
// file written there and return the exact error message.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "parley/config/team.hpp"
#include "temp_tree.hpp"

namespace parley::config::testing {

class team_file_test : public ::testing::Test {
 protected:
  void SetUp() override { tree_.write("script.yaml", "turns: []\n"); }

  result<team_config> load(std::string_view text) { return load_team_file(tree_.write("team.yaml", text)); }

  // The message of the error `text` must produce; fails the test when it loads.
  std::string error_of(std::string_view text) {
    auto team = load(text);
    if (team) {
      ADD_FAILURE() << "expected an error, the team loaded";
      return {};
    }
    EXPECT_EQ(team.err().code, errc::config_error);
    return team.err().message;
  }

  std::string at(std::string_view position) const {
    return (tree_.root() / "team.yaml").string() + ":" + std::string(position) + ": ";
  }

  temp_tree tree_;
};

}  // namespace parley::config::testing
