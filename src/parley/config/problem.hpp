// A Problem: something a loaded team asks for that Parley cannot honour, said once at start, by
// `parley check --workspace`, `GET /api/problems` and the web UI's Problems panel. A Dominds
// workspace (`.minds/`) is loaded leniently, as Dominds does: an unknown toolset, a tool Parley
// lacks, an unsupported provider is a Problem and the team runs with what it has. Real syntax
// errors (invalid YAML) stay errors. Parley's own team format stays strict.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parley::config {

struct problem {
  std::string file;         // the file that asked for it; empty when none is known
  std::int64_t line = 0;    // 1-based; 0: unknown
  std::int64_t column = 0;  // 1-based; 0: unknown
  std::string member;       // the member it concerns; empty: the team as a whole
  std::string what;         // the key path that asked for it ("members.dev.toolsets[2]")
  std::string why;          // what Parley does instead and why
  // A member with such a problem cannot be driven at all (its only provider is unsupported); the
  // others run. Used by `parley check` for its exit status.
  bool blocks_member = false;

  // "FILE:LINE:COLUMN: what: why" (the parts that are known), one line.
  std::string text() const;
};

// A positioned message as the readers write them ("FILE:LINE:COLUMN: path: problem", see
// detail::yaml_error) taken apart into a problem; a message without a position is all `why`.
problem problem_from_message(std::string_view message, std::string member = {});

// Each problem's text(), in order.
std::vector<std::string> problem_texts(const std::vector<problem>& problems);

// True when a member can run: no problem blocks it.
bool member_can_run(const std::vector<problem>& problems, std::string_view member_id);

}  // namespace parley::config
