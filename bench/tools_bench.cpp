// parley-bench tools: the cost of the toolbox over doing the same thing by hand, in one run.
//  - shell_cmd: the tool's invoke (policy check, stripped environment, posix_spawn of /bin/sh -c,
//    async read of the pipe, pidfd wait, answer text) against a bare posix_spawn + waitpid of the
//    same `/bin/sh -c true`, --spawns times each.
//  - apply_patch on a --lines (default 10,000) line file, one hunk in its middle changed and
//    changed back, --patches times, against reading the file, changing the line in memory and
//    writing it back through a temporary file and a rename.
// Both measure the tool call itself; the engine's log round trip is parley-bench engine's subject.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bench_verbs.hpp"
#include "parley/tools/json_schema.hpp"
#include "parley/tools/shell_tools.hpp"
#include "parley/tools/workspace_tools.hpp"

extern char** environ;

namespace parley::bench {
namespace {

namespace fs = std::filesystem;
using steady = std::chrono::steady_clock;

double micros_since(steady::time_point start, int count) {
  return std::chrono::duration<double, std::micro>(steady::now() - start).count() / count;
}

tools::tool_outcome invoke(tools::tool& tool, const std::string& arguments, const tools::tool_context& ctx) {
  auto args = tools::parse_tool_arguments(arguments, tool.spec().parameters);
  if (!args) return {false, args.err().message};
  boost::asio::io_context io;
  tools::tool_outcome out;
  boost::asio::co_spawn(io, tool.invoke(*args, ctx),
                        [&](std::exception_ptr, tools::tool_outcome done) { out = std::move(done); });
  io.run();
  return out;
}

int direct_spawn() {
  char sh[] = "/bin/sh";
  char dash_c[] = "-c";
  char command[] = "true";
  char* argv[] = {sh, dash_c, command, nullptr};
  pid_t pid = -1;
  if (::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ) != 0) return -1;
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void direct_rewrite(const fs::path& file, std::size_t line_index, const std::string& replacement) {
  std::string text = read_all(file);
  std::size_t start = 0;
  for (std::size_t i = 0; i < line_index; ++i) start = text.find('\n', start) + 1;
  const std::size_t end = text.find('\n', start);
  text.replace(start, end - start, replacement);
  const fs::path temp = file.string() + ".tmp";
  std::ofstream(temp, std::ios::binary) << text;
  fs::rename(temp, file);
}

std::string patch_for(int line, const std::string& from, const std::string& to) {
  const std::string header = "@@ -" + std::to_string(line - 1) + ",3 +" + std::to_string(line - 1) + ",3 @@\n";
  return "--- a/big.txt\n+++ b/big.txt\n" + header + " line " + std::to_string(line - 1) + "\n-" + from + "\n+" + to +
         "\n line " + std::to_string(line + 1) + "\n";
}

}  // namespace

int run_tools_bench(const bench_args& args) {
  const int spawns = args.int_or("spawns", 200);
  const int patches = args.int_or("patches", 100);
  const int lines = args.int_or("lines", 10000);
  const fs::path dir = fs::temp_directory_path() / ("parley-bench-tools-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  tools::tool_registry registry;
  tools::register_workspace_tools(registry);
  tools::register_shell_tools(registry);
  tools::tool_context ctx;
  ctx.workspace = dir;
  ctx.member_id = "bench";

  // shell_cmd against a bare spawn, interleaved in blocks so drift hits both alike.
  tools::tool& shell = *registry.find("shell_cmd");
  double tool_us = 0;
  double direct_us = 0;
  int failures = 0;
  for (int block = 0; block < 4; ++block) {
    auto start = steady::now();
    for (int i = 0; i < spawns / 4; ++i) failures += invoke(shell, R"({"command": "true"})", ctx).ok ? 0 : 1;
    tool_us += micros_since(start, spawns / 4) / 4;
    start = steady::now();
    for (int i = 0; i < spawns / 4; ++i) failures += direct_spawn() == 0 ? 0 : 1;
    direct_us += micros_since(start, spawns / 4) / 4;
  }
  std::printf("shell_cmd: %.1f us per call; bare posix_spawn+waitpid: %.1f us (x%.2f)\n", tool_us, direct_us,
              tool_us / direct_us);

  // apply_patch against a direct rewrite of the same line.
  std::string text;
  for (int i = 1; i <= lines; ++i) text += "line " + std::to_string(i) + "\n";
  std::ofstream(dir / "big.txt", std::ios::binary) << text;
  const int middle = lines / 2;
  const std::string original = "line " + std::to_string(middle);
  const std::string changed = "changed " + std::to_string(middle);
  const std::string forward =
      boost::json::serialize(boost::json::object{{"patch", patch_for(middle, original, changed)}});
  const std::string back = boost::json::serialize(boost::json::object{{"patch", patch_for(middle, changed, original)}});
  tools::tool& apply = *registry.find("apply_patch");
  auto start = steady::now();
  for (int i = 0; i < patches; ++i) failures += invoke(apply, i % 2 == 0 ? forward : back, ctx).ok ? 0 : 1;
  const double patch_us = micros_since(start, patches);
  start = steady::now();
  for (int i = 0; i < patches; ++i)
    direct_rewrite(dir / "big.txt", static_cast<std::size_t>(middle - 1), i % 2 == 0 ? changed : original);
  const double rewrite_us = micros_since(start, patches);
  const bool intact = read_all(dir / "big.txt") == text;
  std::printf("apply_patch on %d lines: %.1f us per patch; direct rewrite: %.1f us (x%.2f)\n", lines, patch_us,
              rewrite_us, patch_us / rewrite_us);
  fs::remove_all(dir);
  print_json_line(boost::json::object{{"bench", "tools"},
                                      {"spawns", spawns},
                                      {"shell_cmd_us", tool_us},
                                      {"posix_spawn_us", direct_us},
                                      {"shell_cmd_ratio", tool_us / direct_us},
                                      {"lines", lines},
                                      {"patches", patches},
                                      {"apply_patch_us", patch_us},
                                      {"direct_rewrite_us", rewrite_us},
                                      {"apply_patch_ratio", patch_us / rewrite_us},
                                      {"failures", failures},
                                      {"file_intact", intact}});
  return failures == 0 && intact ? 0 : 1;
}

}  // namespace parley::bench
