// A temporary workspace with the shell tools registered and one io_context that lives as long as
// the test, so background processes keep being read between calls.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include <unistd.h>

#include "parley/tools/json_schema.hpp"
#include "parley/tools/shell_command.hpp"
#include "parley/tools/shell_tools.hpp"

namespace parley::tools::testing {

// Empty when bwrap can make a sandbox here, else why not.
inline std::string why_bwrap_cannot_run() {
  const std::string bwrap = bubblewrap_program();
  if (bwrap.empty()) return "bwrap is not installed (scripts/setup.sh installs Debian's bubblewrap)";
  const std::string probe = bwrap + " --ro-bind / / --unshare-net --unshare-pid --dev /dev --proc /proc true 2>&1";
  FILE* pipe = ::popen(probe.c_str(), "r");
  std::string output;
  std::array<char, 256> buffer{};
  while (pipe != nullptr && std::fgets(buffer.data(), buffer.size(), pipe) != nullptr) output += buffer.data();
  const int status = pipe == nullptr ? -1 : ::pclose(pipe);
  return status == 0 ? std::string{} : "bwrap cannot make a sandbox in this container: " + output;
}

class shell_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = std::filesystem::temp_directory_path() /
            ("parley-shell-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" + info->name());
    std::filesystem::remove_all(root_);
    workspace_ = root_ / "ws";
    std::filesystem::create_directories(workspace_);
    ctx_.workspace = workspace_;
    ctx_.member_id = "coder";
    ctx_.shell = &policy_;
    ctx_.access = &rules_;
    registry_ = std::make_unique<tool_registry>();
    register_shell_tools(*registry_);
  }
  void TearDown() override {
    registry_.reset();  // kills what is still running
    std::filesystem::remove_all(root_);
  }

  void put(const std::filesystem::path& relative, const std::string& content) const {
    std::filesystem::create_directories((workspace_ / relative).parent_path());
    std::ofstream(workspace_ / relative, std::ios::binary) << content;
  }

  // Parses and validates like the engine does, then runs the call on the test's io_context.
  tool_outcome call(std::string_view name, std::string_view arguments) {
    tool* t = registry_->find(name);
    if (t == nullptr) return {false, "no tool " + std::string(name)};
    auto args = parse_tool_arguments(arguments, t->spec().parameters);
    if (!args) return {false, "invalid arguments: " + args.err().message};
    bool done = false;
    tool_outcome out{false, "<not run>"};
    boost::asio::co_spawn(io_, t->invoke(*args, ctx_), [&](std::exception_ptr failure, tool_outcome outcome) {
      if (failure) std::rethrow_exception(failure);
      out = std::move(outcome);
      done = true;
    });
    while (!done) {
      io_.restart();
      io_.run_one();
    }
    return out;
  }

  // Runs the io_context until `ready` holds (or about 20 s pass, so a broken test cannot hang).
  bool run_until(const std::function<bool()>& ready) {
    for (int i = 0; i < 2000 && !ready(); ++i) {
      io_.restart();
      io_.run_for(std::chrono::milliseconds(10));
    }
    return ready();
  }

  std::filesystem::path root_;
  std::filesystem::path workspace_;
  access::shell_policy policy_;
  access::access_rules rules_;
  tool_context ctx_;
  boost::asio::io_context io_;
  std::unique_ptr<tool_registry> registry_;
};

}  // namespace parley::tools::testing
