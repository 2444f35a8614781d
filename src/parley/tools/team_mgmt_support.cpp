#include "parley/tools/team_mgmt_support.hpp"

#include <unistd.h>

#include <atomic>

#include "parley/config/team.hpp"

namespace parley::tools::team_mgmt_detail {
namespace {

namespace fs = std::filesystem;

std::string replace_every(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace

std::string minds_relative(std::string_view path) {
  std::string_view rest = path;
  while (rest.starts_with("./")) rest.remove_prefix(2);
  if (rest == ".minds" || rest == ".minds/" || rest.empty()) return ".";
  if (rest.starts_with(".minds/")) rest.remove_prefix(7);
  return std::string(rest);
}

result<minds_copy> minds_copy::of(const fs::path& workspace) {
  static std::atomic<unsigned> counter{0};
  minds_copy copy(fs::temp_directory_path() /
                  ("parley-team-check-" + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1))));
  std::error_code ec;
  fs::remove_all(copy.root_, ec);
  const fs::path minds = workspace / ".minds";
  const fs::path target = copy.root_ / ".minds";
  fs::create_directories(target, ec);
  for (fs::directory_iterator it(minds, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename() == "memory") continue;
    // Links stay links: a team_mgmt tool that changes one is tried on the copy as on the real folder.
    fs::copy(it->path(), target / it->path().filename(), fs::copy_options::recursive | fs::copy_options::copy_symlinks,
             ec);
    if (ec) break;
  }
  if (ec) return make_error(errc::io_error, "cannot copy .minds/ to check the change: " + ec.message());
  return copy;
}

minds_copy::minds_copy(minds_copy&& other) noexcept : root_(std::move(other.root_)) { other.root_.clear(); }

minds_copy::~minds_copy() {
  if (root_.empty()) return;
  std::error_code ec;
  fs::remove_all(root_, ec);
}

// A team loads leniently (an unknown provider is a Problem that blocks one member), so a change is
// also refused when it leaves a member unable to run that could run before it.
result<void> minds_copy::loads(const fs::path& real) const {
  auto loaded = config::load_dominds_workspace(root_);
  if (!loaded) {
    return make_error(errc::config_error, "refused, the team would not load: " +
                                              replace_every(loaded.err().message, root_.string(), real.string()));
  }
  auto before = config::load_dominds_workspace(real);
  for (const auto& found : loaded->problems) {
    if (!found.blocks_member) continue;
    const bool ran_before = !before || config::member_can_run(before->problems, found.member);
    if (!ran_before) continue;
    return make_error(errc::config_error, "refused, member '" + found.member + "' could not run: " +
                                              replace_every(found.text(), root_.string(), real.string()));
  }
  return ok();
}

std::string problem_source(const config::problem& found) {
  if (found.file.ends_with("mcp.yaml")) return "mcp";
  if (found.file.ends_with("llm.yaml")) return "llm";
  return "team";
}

std::string problem_id(const config::problem& found) {
  return problem_source(found) + "/" + (found.what.empty() ? std::string("load") : found.what);
}

tool_context minds_rooted(const tool_context& ctx, const fs::path& minds) {
  tool_context rooted = ctx;
  rooted.workspace = minds;
  rooted.access = nullptr;
  return rooted;
}

}  // namespace parley::tools::team_mgmt_detail
