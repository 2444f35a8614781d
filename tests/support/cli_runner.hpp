// Runs the `parley` binary (PARLEY_BINARY, set by the test's CMake target) as a user would from a
// shell: its exit status and everything it printed, stdout and stderr together. The offline model
// is used whatever the developer's environment says (no OpenAI key or base URL is passed on).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace parley::testing {

struct cli_outcome {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// `args` is appended to the binary's path as shell words (quote what needs it). With `folder`,
// the binary starts there (a folder name without a single quote). The language a command without
// a team speaks comes from `env` ("PARLEY_LANG=zh"), never from the developer's locale.
inline cli_outcome run_cli(const std::string& args, const std::string& folder = {}, const std::string& env = {}) {
  const std::string where = folder.empty() ? std::string() : "cd '" + folder + "' && ";
  const std::string command =
      where + "env -u OPENAI_API_KEY -u OPENAI_BASE_URL -u PARLEY_LANG -u LC_ALL -u LC_MESSAGES -u LANG " + env + " " +
      std::string(PARLEY_BINARY) + " " + args + " 2>&1";
  cli_outcome out;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) out.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

}  // namespace parley::testing
