// Writes a throwaway team + scripted model into a folder, for benchmarks.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace parley::bench {

// A member `worker` that makes (rounds - 1) calculate tool calls and then answers.
inline void write_engine_team(const std::filesystem::path& dir, int rounds) {
  std::filesystem::create_directories(dir / "workspace");
  std::ofstream(dir / "team.yaml") << "version: 1\n"
                                      "workspace: workspace\n"
                                      "providers:\n  offline: {kind: scripted, script: script.yaml}\n"
                                      "members:\n"
                                      "  worker:\n    persona: \"You work.\"\n    provider: offline\n"
                                      "    model: scripted\n    toolsets: [basic]\n    max_tool_rounds: "
                                   << rounds + 1 << "\n";
  std::ofstream(dir / "script.yaml") << "chunk_size: 0\n"
                                        "members:\n  worker:\n"
                                        "    - when: {round: "
                                     << rounds
                                     << "}\n      emit: [{saying: \"done\"}]\n"
                                        "    - emit:\n        - thinking: \"adding\"\n"
                                        "        - tool_call: {name: calculate, arguments: {expression: \"1 + 1\"}}\n";
}

}  // namespace parley::bench
