// apply_patch: a unified diff or a Codex patch (codex_patch.hpp) over one or more files, all or
// nothing. Each format turns its operations into new contents, removals and moves of a patch_plan,
// worked out in memory first: one rejected hunk, one refused path or one unreadable file and
// nothing is written, and the answer lists every problem. Then each new content is staged in a
// temporary file beside its target and only when all are staged are they renamed into place.
#include <cassert>
#include <map>
#include <optional>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/text.hpp"
#include "parley/tools/codex_patch.hpp"
#include "parley/tools/unified_diff.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::detail {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNothingChanged = "patch not applied (nothing was changed)";

struct pending_file {
  std::string shown;
  fs::path absolute;
  std::optional<std::string> content;  // nullopt: the file is removed
  bool existed = false;
  std::string moved_from;  // the path this file's content comes from, which the patch removes
  bool moved_away = false;
};

// What a patch does to the workspace, checked in memory before anything is written.
class patch_plan {
 public:
  explicit patch_plan(const tool_context& ctx) : ctx_(ctx) {}

  // The text an edit of `path` starts from: what an earlier operation of the patch left, or the
  // file on disk, opened as every edit opens it. nullopt: refused, and the problem recorded.
  std::optional<std::string> text_of(const std::string& path) {
    if (const auto it = files_.find(path); it != files_.end()) {
      if (!it->second.content) {
        add_problem(quote_path(path) + " is removed or moved away earlier in the same patch");
        return std::nullopt;
      }
      return it->second.content;
    }
    auto file = open_for_edit(ctx_, path);
    if (!file) {
      add_problem(is_missing(path) ? quote_path(path) + " does not exist, so a patch cannot change or remove it"
                                   : file.err().message);
      return std::nullopt;
    }
    files_[path] = pending_file{path, file->where.absolute, file->text, true, {}, false};
    return std::move(file->text);
  }

  // Whether `path` may become a new file: writable, not on disk and not made earlier in the patch
  // (a path the patch removed earlier is free again). `why_new` ends the refusal of an existing one.
  bool may_create(const std::string& path, std::string_view why_new = "a patch creates only new files") {
    if (const auto it = files_.find(path); it != files_.end()) {
      if (!it->second.content) return true;
      add_problem(quote_path(path) +
                  (it->second.existed ? " already exists; " : " is made earlier in the same patch; ") +
                  std::string(why_new));
      return false;
    }
    auto where = resolve_for(ctx_, path, file_access::write, access::path_kind::file);
    if (!where) {
      add_problem(where.err().message);
      return false;
    }
    std::error_code ec;
    if (fs::symlink_status(where->absolute, ec).type() != fs::file_type::not_found) {
      add_problem(quote_path(path) + " already exists; " + std::string(why_new));
      return false;
    }
    files_[path] = pending_file{path, where->absolute, std::string{}, false, {}, false};
    return true;
  }

  // Each after text_of or may_create of the paths it names.
  void set_content(const std::string& path, std::string text) { known(path).content = std::move(text); }
  void remove(const std::string& path) { known(path).content.reset(); }
  void move(const std::string& from, const std::string& to, std::string text) {
    known(from).content.reset();
    known(from).moved_away = true;
    known(to).content = std::move(text);
    known(to).moved_from = from;
  }

  void add_problem(std::string problem) { problems_.push_back(std::move(problem)); }
  void count_hunks(std::size_t applied) { hunks_ += applied; }
  // A remark for the answer of a patch that applies: a hunk that matched only loosely.
  void add_note(std::string note) { notes_.push_back(std::move(note)); }
  const std::vector<std::string>& problems() const { return problems_; }

  // Stages every new content, then renames and removes; says what was done.
  tool_outcome commit() {
    std::vector<std::string> done;
    if (auto failure = write_contents(done)) return std::move(*failure);
    if (auto failure = remove_files(done)) return std::move(*failure);
    return tool_outcome{true, summary(done)};
  }

 private:
  pending_file& known(const std::string& path) {
    assert(files_.contains(path));
    return files_[path];
  }

  // Only for the message: open_for_edit refused `path`, and it would have opened it had it existed.
  bool is_missing(const std::string& path) const {
    auto where = resolve_for(ctx_, path, file_access::write, access::path_kind::file);
    if (!where || !resolve_for(ctx_, path, file_access::read, access::path_kind::file)) return false;
    std::error_code ec;
    return fs::symlink_status(where->absolute, ec).type() == fs::file_type::not_found;
  }

  std::optional<tool_outcome> write_contents(std::vector<std::string>& done) {
    std::vector<staged_file> staged;
    auto discard_all = [&staged] {
      for (const auto& s : staged) discard_staged(s);
    };
    for (auto& [path, file] : files_) {
      if (!file.content) continue;
      std::error_code ec;
      fs::create_directories(file.absolute.parent_path(), ec);
      auto one =
          ec ? result<staged_file>(make_error(errc::io_error, ec.message())) : stage_file(file.absolute, *file.content);
      if (!one) {
        discard_all();
        return failed(std::string(kNothingChanged) + ": " + quote_path(path) + ": " + one.err().message);
      }
      staged.push_back(std::move(*one));
      done.push_back(what_became_of(file));
    }
    for (const auto& s : staged) {
      if (auto committed = commit_staged(s); !committed) {
        return failed("patch stopped part way: " + s.file.string() + ": " + committed.err().message);
      }
    }
    keep_permissions_of_moved_files();
    return std::nullopt;
  }

  std::string what_became_of(const pending_file& file) const {
    if (!file.moved_from.empty()) return "moved " + quote_path(file.moved_from) + " to " + quote_path(file.shown);
    return (file.existed ? "patched " : "created ") + quote_path(file.shown);
  }

  // A moved script stays executable. Best effort: the content is in place whatever happens here.
  void keep_permissions_of_moved_files() const {
    for (const auto& [path, file] : files_) {
      if (!file.content || file.moved_from.empty()) continue;
      std::error_code ec;
      const auto permissions = fs::status(files_.at(file.moved_from).absolute, ec).permissions();
      if (!ec) fs::permissions(file.absolute, permissions, ec);
    }
  }

  std::optional<tool_outcome> remove_files(std::vector<std::string>& done) const {
    for (const auto& [path, file] : files_) {
      if (file.content || !file.existed) continue;
      std::error_code ec;
      fs::remove(file.absolute, ec);
      if (ec) return failed("patch applied, but " + quote_path(path) + " could not be removed: " + ec.message());
      if (!file.moved_away) done.push_back("removed " + quote_path(path));
    }
    return std::nullopt;
  }

  std::string summary(const std::vector<std::string>& done) const {
    std::string out = hunks_ == 0 ? "applied the patch: "
                                  : "applied " + std::to_string(hunks_) + " hunk" + (hunks_ == 1 ? "" : "s") + ": ";
    out += join(done, ", ");
    if (!notes_.empty()) out += " (" + join(notes_, "; ") + ")";
    return out;
  }

  const tool_context& ctx_;
  std::map<std::string, pending_file> files_;
  std::vector<std::string> problems_;
  std::vector<std::string> notes_;
  std::size_t hunks_ = 0;
};

std::string rejection_problem(const hunk_rejection& rejection, const std::string& shown) {
  return "hunk " + std::to_string(rejection.number) + " of " + quote_path(shown) + " (" + rejection.header +
         ") was rejected: " + rejection.why;
}

// One file of a unified diff: its hunks applied to the file's text (to nothing for a new file),
// then the result set, moved or removed. Counts the hunks that matched away from their stated line.
void plan_unified_file(patch_plan& plan, const file_diff& diff, std::size_t& moved_hunks) {
  std::optional<std::string> before;
  if (!diff.creates()) {
    before = plan.text_of(diff.old_path);
    if (!before) return;
  } else if (!plan.may_create(diff.new_path)) {
    return;
  }
  auto patched = apply_hunks(before.value_or(std::string{}), diff.hunks);
  const std::string& shown = diff.creates() ? diff.new_path : diff.old_path;
  for (const auto& rejection : patched.rejected) plan.add_problem(rejection_problem(rejection, shown));
  if (!patched.rejected.empty()) return;
  plan.count_hunks(diff.hunks.size());
  moved_hunks += patched.moved_hunks;
  if (diff.removes()) {
    if (patched.text.empty()) {
      plan.remove(diff.old_path);
    } else {
      plan.add_problem(quote_path(shown) + " is not removed: the patch leaves lines in it");
    }
  } else if (diff.creates() || diff.old_path == diff.new_path) {
    plan.set_content(diff.new_path, std::move(patched.text));
  } else if (plan.may_create(diff.new_path)) {
    plan.move(diff.old_path, diff.new_path, std::move(patched.text));
  }
}

result<void> plan_unified_diff(patch_plan& plan, std::string_view patch) {
  auto diffs = parse_unified_diff(patch);
  if (!diffs) return std::move(diffs).err();
  std::size_t moved_hunks = 0;
  for (const auto& diff : *diffs) plan_unified_file(plan, diff, moved_hunks);
  if (moved_hunks > 0) {
    plan.add_note(std::to_string(moved_hunks) + " hunk(s) matched away from the line their header named");
  }
  return ok();
}

void plan_codex_update(patch_plan& plan, const codex_file_change& change) {
  const auto before = plan.text_of(change.path);
  if (!before) return;
  auto patched = apply_codex_hunks(*before, change.hunks);
  for (const auto& rejection : patched.rejected) plan.add_problem(rejection_problem(rejection, change.path));
  if (!patched.rejected.empty()) return;
  plan.count_hunks(change.hunks.size());
  for (const auto& loose : patched.loose) {
    plan.add_note("hunk " + std::to_string(loose.number) + " of " + quote_path(change.path) + " matched only " +
                  std::string(describe(loose.how)));
  }
  if (change.move_to.empty()) {
    plan.set_content(change.path, std::move(patched.text));
  } else if (plan.may_create(change.move_to, "a patch moves a file only to a new path")) {
    plan.move(change.path, change.move_to, std::move(patched.text));
  }
}

result<void> plan_codex_patch(patch_plan& plan, std::string_view patch) {
  auto changes = parse_codex_patch(patch);
  if (!changes) return std::move(changes).err();
  for (const auto& change : *changes) {
    switch (change.action) {
      case codex_action::add:
        if (plan.may_create(change.path)) plan.set_content(change.path, change.content);
        break;
      case codex_action::remove:
        if (plan.text_of(change.path)) plan.remove(change.path);
        break;
      case codex_action::update:
        plan_codex_update(plan, change);
        break;
    }
  }
  return ok();
}

}  // namespace

tool_outcome apply_patch(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string patch = in.string("patch");
  if (!in.ok()) return failed(in.message());
  patch_plan plan(ctx);
  const bool codex = is_codex_patch(patch);
  auto planned = codex ? plan_codex_patch(plan, patch) : plan_unified_diff(plan, patch);
  if (!planned) {
    std::string out = std::string(kNothingChanged) + ": " + planned.err().message;
    // Models sometimes put a shell here-document or a sentence before the patch.
    if (!codex && patch.find("*** Begin Patch") != std::string::npos) {
      out += " (for a Codex patch, '*** Begin Patch' must be its first line, with nothing before it)";
    }
    return failed(std::move(out));
  }
  if (!plan.problems().empty()) {
    std::string out = std::string(kNothingChanged) + ":";
    for (const auto& problem : plan.problems()) out += "\n- " + problem;
    return failed(std::move(out));
  }
  return plan.commit();
}

}  // namespace parley::tools::detail
