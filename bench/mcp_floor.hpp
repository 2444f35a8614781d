// The floor under an MCP call over stdio: what any client pays the kernel to hand one JSON-RPC line
// to another process and read its answer, measured with plain blocking pipes and no Parley code.
// On a virtual machine most of a small stdio call's cost is here (waking the server's process,
// often on another vCPU, and being woken by its answer), and it swings with the machine's load:
// `parley-bench mcp` measures it in the same run so that Parley's own share can be told apart.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

namespace parley::bench {

class stdio_floor {
 public:
  // Starts `exe mcp-echo-server --tool TOOL` on two pipes; ok() is false when it could not.
  stdio_floor(const std::filesystem::path& exe, const std::string& tool);
  stdio_floor(const stdio_floor&) = delete;
  stdio_floor& operator=(const stdio_floor&) = delete;
  ~stdio_floor();

  bool ok() const noexcept { return pid_ > 0; }
  // `count` round trips of the call `parley-bench mcp` makes, one at a time; false when the server
  // did not answer each with one line.
  bool round_trips(int count);

 private:
  bool read_line();

  pid_t pid_ = -1;
  int to_server_ = -1;
  int from_server_ = -1;
  std::string request_;
  std::string pending_;  // bytes read past the last answer's newline
};

}  // namespace parley::bench
