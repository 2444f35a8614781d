// A temporary workspace with the workspace file tools registered, for the tools' tests: files put
// in and read back, and tools called as the engine calls them (arguments parsed and checked).
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <unistd.h>

#include "parley/tools/json_schema.hpp"
#include "parley/tools/workspace_tools.hpp"

namespace parley::tools::testing {

namespace fs = std::filesystem;

class workspace_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    root_ = fs::temp_directory_path() /
            ("parley-tools-" + std::to_string(::getpid()) + "-" + info->test_suite_name() + "-" + info->name());
    fs::remove_all(root_);
    workspace_ = root_ / "ws";
    fs::create_directories(workspace_);
    ctx_.workspace = workspace_;
    register_workspace_tools(registry_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void put(const fs::path& relative, const std::string& content) const {
    fs::create_directories((workspace_ / relative).parent_path());
    std::ofstream(workspace_ / relative, std::ios::binary) << content;
  }
  std::string contents(const fs::path& relative) const {
    std::ifstream in(workspace_ / relative, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  // Parses and validates like the engine does, then invokes the tool on an io_context.
  tool_outcome call(std::string_view name, std::string_view arguments) {
    tool* t = registry_.find(name);
    if (t == nullptr) return {false, "no tool " + std::string(name)};
    auto args = parse_tool_arguments(arguments, t->spec().parameters);
    if (!args) return {false, "invalid arguments: " + args.err().message};
    return invoke(*t, *args);
  }
  // Invokes the tool with arguments its schema was not checked against: the tool's own reads.
  tool_outcome call_unchecked(std::string_view name, const boost::json::object& args) {
    tool* t = registry_.find(name);
    if (t == nullptr) return {false, "no tool " + std::string(name)};
    return invoke(*t, args);
  }
  tool_outcome invoke(tool& t, const boost::json::object& args) {
    boost::asio::io_context io;
    tool_outcome out{false, "<not run>"};
    boost::asio::co_spawn(io, t.invoke(args, ctx_), [&](std::exception_ptr failure, tool_outcome outcome) {
      if (failure) std::rethrow_exception(failure);
      out = std::move(outcome);
    });
    io.run();
    return out;
  }

  fs::path root_;
  fs::path workspace_;
  tool_context ctx_;
  tool_registry registry_;
};

}  // namespace parley::tools::testing
