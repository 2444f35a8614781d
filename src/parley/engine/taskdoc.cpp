#include "parley/engine/taskdoc.hpp"

#include <openssl/sha.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

#include "parley/core/file_io.hpp"

namespace parley::engine {
namespace {

namespace fs = std::filesystem;

std::string read_whole(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool ends_with_tsk(const fs::path& path) {
  std::string name = path.filename().string();
  if (name.empty()) name = path.parent_path().filename().string();
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".tsk") == 0;
}

// Appends the *.md files of one folder (sorted, so the prompt is stable) under a heading each.
void append_memory_folder(const fs::path& folder, std::string_view title, std::string& out) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return;
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(folder, ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == ".md") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    out += "### " + std::string(title) + ": " + fs::relative(file, folder, ec).generic_string() + "\n";
    out += read_whole(file);
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
}

}  // namespace

result<void> check_task_doc_path(const fs::path& workspace, std::string_view path) {
  const fs::path given(path);
  if (path.empty()) return make_error(errc::invalid_argument, "taskDocPath is empty");
  if (given.is_absolute()) {
    return make_error(errc::invalid_argument,
                      "taskDocPath '" + std::string(path) + "' must be relative to the workspace");
  }
  for (const auto& part : given.lexically_normal()) {
    if (part == "..") {
      return make_error(errc::invalid_argument, "taskDocPath '" + std::string(path) + "' leaves the workspace");
    }
  }
  if (!ends_with_tsk(given)) {
    return make_error(errc::invalid_argument,
                      "taskDocPath '" + std::string(path) + "' must name a Taskdoc package ending in .tsk");
  }
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(workspace, ec);
  const fs::path target = fs::weakly_canonical(workspace / given, ec);
  const auto rel = target.lexically_relative(root);
  if (ec || rel.empty() || *rel.begin() == "..") {
    return make_error(errc::invalid_argument, "taskDocPath '" + std::string(path) + "' resolves outside the workspace");
  }
  return ok();
}

result<void> ensure_taskdoc(const fs::path& workspace, std::string_view path) {
  PARLEY_TRY(check_task_doc_path(workspace, path));
  std::error_code ec;
  fs::create_directories(workspace / fs::path(path), ec);
  if (ec) {
    return make_error(errc::io_error, "cannot create Taskdoc package '" + std::string(path) + "': " + ec.message());
  }
  return ok();
}

std::string content_hash(std::string_view content) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(content.data()), content.size(), digest);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 8; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

std::array<taskdoc_section, 3> read_taskdoc(const fs::path& workspace, std::string_view path) {
  std::array<taskdoc_section, 3> sections;
  for (std::size_t i = 0; i < kTaskdocSections.size(); ++i) {
    auto& section = sections[i];
    section.selector = std::string(kTaskdocSections[i]);
    section.content = read_whole(workspace / fs::path(path) / (section.selector + ".md"));
    section.hash = content_hash(section.content);
  }
  return sections;
}

result<section_change> write_taskdoc_section(const fs::path& workspace, std::string_view path,
                                             std::string_view selector, std::string_view content,
                                             std::string_view expected_hash) {
  if (std::find(kTaskdocSections.begin(), kTaskdocSections.end(), selector) == kTaskdocSections.end()) {
    return make_error(errc::invalid_argument, "selector '" + std::string(selector) +
                                                  "' is not a Taskdoc section (goals, constraints, progress)");
  }
  PARLEY_TRY(ensure_taskdoc(workspace, path));
  const fs::path file = workspace / fs::path(path) / (std::string(selector) + ".md");
  section_change change;
  change.previous_hash = content_hash(read_whole(file));
  if (!expected_hash.empty() && expected_hash != change.previous_hash) {
    return make_error(errc::conflict, "the " + std::string(selector) +
                                          " section changed since you read it: its hash is " + change.previous_hash +
                                          ", not " + std::string(expected_hash) +
                                          ". Read the current Taskdoc in your prompt and retry with expectedHash " +
                                          change.previous_hash + ".");
  }
  if (auto written = write_file_atomically(file, content); !written) {
    return make_error(written.err().code,
                      "cannot write Taskdoc section " + file.filename().string() + ": " + written.err().message);
  }
  change.hash = content_hash(content);
  return change;
}

memory_folders memory_folders::of(const fs::path& workspace, std::string_view member_id) {
  const fs::path root = workspace / ".minds" / "memory";
  return {root / "team_shared", member_id.empty() ? fs::path() : root / "individual" / fs::path(member_id)};
}

std::string read_memories(const memory_folders& folders, std::size_t max_bytes) {
  std::string out;
  append_memory_folder(folders.team_shared, "team memory", out);
  if (!folders.own.empty()) append_memory_folder(folders.own, "your memory", out);
  if (out.size() > max_bytes) {
    out.resize(max_bytes);
    out += "\n[memories cut at " + std::to_string(max_bytes) + " bytes]\n";
  }
  return out;
}

}  // namespace parley::engine
