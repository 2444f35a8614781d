// The Taskdoc (seed 001): an encapsulated `*.tsk/` package in the workspace with one file per
// section — goals.md, constraints.md, progress.md. Every dialog of a task sees it in its prompt;
// only change_mind in a root dialog writes it, one section at a time, guarded by a content hash so
// a change made meanwhile (by a human or another dialog) is never silently overwritten.
// Also the team-shared and per-member memory files that every dialog of a member sees.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::engine {

inline constexpr std::array<std::string_view, 3> kTaskdocSections{"goals", "constraints", "progress"};

struct taskdoc_section {
  std::string selector;
  std::string content;
  std::string hash;  // content_hash(content); the hash of "" for a missing file
};

// A Taskdoc path must be relative, stay inside the workspace and name a `*.tsk` package.
result<void> check_task_doc_path(const std::filesystem::path& workspace, std::string_view path);
// Creates the package folder if it is missing (sections are created by their first change_mind).
result<void> ensure_taskdoc(const std::filesystem::path& workspace, std::string_view path);

// 16 hex digits of the content's SHA-256.
std::string content_hash(std::string_view content);

std::array<taskdoc_section, 3> read_taskdoc(const std::filesystem::path& workspace, std::string_view path);

struct section_change {
  std::string previous_hash;
  std::string hash;
};
// Writes one section atomically. With a non-empty `expected_hash` that differs from the current
// content's hash, refuses with errc::conflict and a message that gives the current hash.
result<section_change> write_taskdoc_section(const std::filesystem::path& workspace, std::string_view path,
                                             std::string_view selector, std::string_view content,
                                             std::string_view expected_hash);

// Where a member's memories are: `.minds/memory/team_shared/` and `.minds/memory/individual/<member>/`.
// Made once per member; the files are read again for every prompt, so edits show at once.
struct memory_folders {
  std::filesystem::path team_shared;
  std::filesystem::path own;  // empty for a member without an id
  static memory_folders of(const std::filesystem::path& workspace, std::string_view member_id);
};

// The memory files, as one text for the system prompt (empty when there are none), at most
// `max_bytes` long.
std::string read_memories(const memory_folders& folders, std::size_t max_bytes);

}  // namespace parley::engine
