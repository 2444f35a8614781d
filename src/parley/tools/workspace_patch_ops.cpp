// apply_patch: a unified diff over one or more files, all or nothing. Every hunk of every file is
// applied in memory first; one rejected hunk, one refused path or one unreadable file and nothing
// is written, and the answer lists every problem. Then each new content is staged in a temporary
// file beside its target and only when all are staged are they renamed into place.
#include <map>
#include <optional>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/unified_diff.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::detail {
namespace {

namespace fs = std::filesystem;

struct pending_file {
  std::string shown;
  fs::path absolute;
  std::optional<std::string> content;  // nullopt: the file is removed
  bool existed = false;
};

class patch_plan {
 public:
  explicit patch_plan(const tool_context& ctx) : ctx_(ctx) {}

  void add(const file_diff& diff) {
    const bool renames = !diff.creates() && !diff.removes() && diff.old_path != diff.new_path;
    std::optional<std::string> before;
    if (!diff.creates()) {
      before = current_text(diff.old_path);
      if (!before) return;
    } else if (!may_create(diff.new_path)) {
      return;
    }
    auto patched = apply_hunks(before.value_or(std::string{}), diff.hunks);
    const std::string& shown = diff.creates() ? diff.new_path : diff.old_path;
    for (const auto& rejection : patched.rejected) {
      problems_.push_back("hunk " + std::to_string(rejection.number) + " of " + quote_path(shown) + " (" +
                          rejection.header + ") was rejected: " + rejection.why);
    }
    if (!patched.rejected.empty()) return;
    hunks_ += diff.hunks.size();
    moved_ += patched.moved_hunks;
    if (diff.removes()) {
      if (!patched.text.empty()) {
        problems_.push_back(quote_path(shown) + " is not removed: the patch leaves lines in it");
        return;
      }
      files_[diff.old_path].content.reset();
      return;
    }
    if (renames) {
      if (!may_create(diff.new_path)) return;
      files_[diff.old_path].content.reset();
    }
    files_[diff.new_path].content = std::move(patched.text);
  }

  const std::vector<std::string>& problems() const { return problems_; }

  // Stages every new content, then renames and removes; says what was done.
  tool_outcome commit() {
    std::vector<staged_file> staged;
    auto discard_all = [&staged] {
      for (const auto& s : staged) discard_staged(s);
    };
    std::vector<std::string> done;
    for (auto& [path, file] : files_) {
      if (!file.content) continue;
      std::error_code ec;
      fs::create_directories(file.absolute.parent_path(), ec);
      auto one =
          ec ? result<staged_file>(make_error(errc::io_error, ec.message())) : stage_file(file.absolute, *file.content);
      if (!one) {
        discard_all();
        return failed("patch not applied (nothing was changed): " + quote_path(path) + ": " + one.err().message);
      }
      staged.push_back(std::move(*one));
      done.push_back(std::string(file.existed ? "patched " : "created ") + quote_path(path));
    }
    for (const auto& s : staged) {
      if (auto committed = commit_staged(s); !committed) {
        return failed("patch stopped part way: " + s.file.string() + ": " + committed.err().message);
      }
    }
    for (auto& [path, file] : files_) {
      if (file.content) continue;
      std::error_code ec;
      fs::remove(file.absolute, ec);
      if (ec) return failed("patch applied, but " + quote_path(path) + " could not be removed: " + ec.message());
      done.push_back("removed " + quote_path(path));
    }
    std::string out = "applied " + std::to_string(hunks_) + " hunk" + (hunks_ == 1 ? "" : "s") + ": ";
    for (std::size_t i = 0; i < done.size(); ++i) out += (i == 0 ? "" : ", ") + done[i];
    if (moved_ > 0) out += " (" + std::to_string(moved_) + " hunk(s) matched away from the line their header named)";
    return tool_outcome{true, std::move(out)};
  }

 private:
  // The text a diff of `path` applies to: an earlier diff's result, or the file on disk.
  std::optional<std::string> current_text(const std::string& path) {
    if (const auto it = files_.find(path); it != files_.end()) {
      if (!it->second.content) {
        problems_.push_back(quote_path(path) + " is removed earlier in the same patch");
        return std::nullopt;
      }
      return it->second.content;
    }
    auto file = open_for_edit(ctx_, path);
    if (!file) {
      problems_.push_back(file.err().message);
      return std::nullopt;
    }
    files_[path] = pending_file{path, file->where.absolute, file->text, true};
    return file->text;
  }

  bool may_create(const std::string& path) {
    if (files_.contains(path)) return true;
    auto where = resolve_for(ctx_, path, file_access::write, access::path_kind::file);
    if (!where) {
      problems_.push_back(where.err().message);
      return false;
    }
    std::error_code ec;
    if (fs::symlink_status(where->absolute, ec).type() != fs::file_type::not_found) {
      problems_.push_back(quote_path(path) + " already exists; a patch creates only new files");
      return false;
    }
    files_[path] = pending_file{path, where->absolute, std::string{}, false};
    return true;
  }

  const tool_context& ctx_;
  std::map<std::string, pending_file> files_;
  std::vector<std::string> problems_;
  std::size_t hunks_ = 0;
  std::size_t moved_ = 0;
};

}  // namespace

tool_outcome apply_patch(const boost::json::object& args, const tool_context& ctx) {
  json_fields in(args);
  const std::string patch = in.string("patch");
  if (!in.ok()) return failed(in.message());
  auto diffs = parse_unified_diff(patch);
  if (!diffs) return failed("patch not applied (nothing was changed): " + diffs.err().message);
  patch_plan plan(ctx);
  for (const auto& diff : *diffs) plan.add(diff);
  if (!plan.problems().empty()) {
    std::string out = "patch not applied (nothing was changed):";
    for (const auto& problem : plan.problems()) out += "\n- " + problem;
    return failed(std::move(out));
  }
  return plan.commit();
}

}  // namespace parley::tools::detail
