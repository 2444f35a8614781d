// What an MCP caller is told while a member's tree works (notifications/progress): one short line
// per step that says something — a member generates, asks another member, runs a tool, gets a
// reply, asks the human — counted, so that the count is the notification's ever-growing
// `progress`. Lines are one line of at most about 160 bytes of valid UTF-8, without control
// characters: they come from models and tools and go to a client's screen.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "parley/model/event.hpp"

namespace parley::server {

class progress_steps {
 public:
  // `root_member`: the member of the root dialog whose tree is followed.
  explicit progress_steps(std::string root_member);

  // Counts the event as a step when it is one, and keeps its line as the latest; whether it was.
  bool take(const event& ev);
  // A step of the caller's own ("working on dialog …").
  void add(std::string_view line);

  std::int64_t count() const noexcept { return count_; }
  const std::string& latest() const noexcept { return latest_; }
  // The last drive of the tree that failed ("@clerk stopped: …"); empty when none did.
  const std::string& failure() const noexcept { return failure_; }

 private:
  // "@lead", or "a subdialog" for a subdialog whose member was not seen.
  std::string who(const event& ev) const;

  std::string root_member_;
  std::unordered_map<std::string, std::string> members_;  // subdialog id → member id, of this tree
  std::int64_t count_ = 0;
  std::string latest_;
  std::string failure_;
};

// A line of outside text fit for a progress message: control characters and runs of blanks made
// one space, cut on a character boundary at about `max_bytes` ("..." when cut).
std::string progress_text(std::string_view text, std::size_t max_bytes);

}  // namespace parley::server
