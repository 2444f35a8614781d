#include "parley/tools/dominds_occurrence_replace.hpp"

#include <openssl/sha.h>

#include <boost/json/array.hpp>

#include <algorithm>
#include <set>

#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace json = boost::json;

constexpr std::string_view kPrepareTool = "prepare_occurrence_replace";
constexpr std::string_view kApplyTool = "apply_occurrence_replace";
// Dominds shows at most this many indexes, and this many matches in the preview.
constexpr std::size_t kOccurrenceIndexesShown = 200;
constexpr std::size_t kOccurrencePreviewRows = 12;
constexpr std::size_t kOccurrencePreviewLineBytes = 240;

// Byte offsets of the non-overlapping occurrences of `needle`, left to right.
std::vector<std::size_t> literal_offsets(std::string_view text, std::string_view needle) {
  std::vector<std::size_t> out;
  for (auto at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + needle.size())) {
    out.push_back(at);
  }
  return out;
}

std::string replace_selected(std::string_view text, const std::vector<std::size_t>& offsets,
                             const std::vector<std::int64_t>& selected, std::string_view find,
                             std::string_view replacement) {
  std::string out;
  std::size_t cursor = 0;
  for (const auto index : selected) {
    const auto at = offsets[static_cast<std::size_t>(index - 1)];
    out.append(text.substr(cursor, at - cursor)).append(replacement);
    cursor = at + find.size();
  }
  out.append(text.substr(cursor));
  return out;
}

// occurrence_indexes: positive integers, none twice, not empty when given; sorted.
result<std::vector<std::int64_t>> read_indexes(const json::value* value) {
  std::vector<std::int64_t> out;
  if (value == nullptr) return out;
  if (!value->is_array()) return make_error(errc::invalid_argument, "occurrence_indexes: must be an array");
  std::set<std::int64_t> seen;
  for (const auto& item : value->get_array()) {
    if (!item.is_int64() || item.get_int64() <= 0) {
      return make_error(errc::invalid_argument, "occurrence_indexes: must contain positive integers only");
    }
    if (!seen.insert(item.get_int64()).second) {
      return make_error(errc::invalid_argument, "occurrence_indexes: must not contain duplicates");
    }
  }
  if (seen.empty()) return make_error(errc::invalid_argument, "occurrence_indexes: must not be empty when given");
  return std::vector<std::int64_t>(seen.begin(), seen.end());
}

std::string index_list(const std::vector<std::int64_t>& indexes) {
  std::string out = "[";
  for (std::size_t i = 0; i < indexes.size() && i < kOccurrenceIndexesShown; ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(indexes[i]);
  }
  return out + "]";
}

// "#2 line 7, col 5: <the line>" for the first selected occurrences, as a YAML block scalar.
std::string match_preview(std::string_view text, const std::vector<std::size_t>& offsets,
                          const std::vector<std::int64_t>& selected) {
  std::string rows = "|-";
  for (std::size_t i = 0; i < selected.size() && i < kOccurrencePreviewRows; ++i) {
    const auto at = offsets[static_cast<std::size_t>(selected[i] - 1)];
    const auto line_start = at == 0 ? 0 : text.rfind('\n', at - 1) + 1;  // npos + 1 is 0
    const auto line_end = std::min(text.find('\n', at), text.size());
    const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1;
    std::string body = utf8_excerpt(text.substr(line_start, line_end - line_start), kOccurrencePreviewLineBytes);
    std::replace(body.begin(), body.end(), '\r', ' ');
    rows += "\n  #" + std::to_string(selected[i]) + " line " + std::to_string(line) + ", col " +
            std::to_string(at - line_start + 1) + ": " + body;
  }
  return rows;
}

yaml_answer& file_totals(yaml_answer& yaml, const occurrence_plan& plan) {
  return yaml.raw("file", "")
      .raw("  old_total_lines", std::to_string(plan.old_lines))
      .raw("  old_total_bytes", std::to_string(plan.old_bytes))
      .raw("  old_hash", yaml_quote(plan.old_hash))
      .raw("  new_total_lines", std::to_string(plan.new_lines))
      .raw("  new_total_bytes", std::to_string(plan.new_bytes))
      .raw("  new_hash", yaml_quote(plan.new_hash));
}

std::int64_t epoch_ms_in(std::chrono::seconds from_now) {
  const auto at = std::chrono::system_clock::now() + from_now;
  return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

struct prepare_request {
  std::string path;
  std::string find;
  std::string content;
  std::vector<std::int64_t> indexes;  // empty: every occurrence
};

result<prepare_request> read_prepare_request(const json::object& args) {
  prepare_request req;
  json_fields in(args);
  req.path = in.string("path");
  req.find = in.string("find");
  req.content = in.optional_string("content").value_or("");
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (req.path.empty()) return make_error(errc::invalid_argument, "path: must not be empty");
  if (req.find.empty()) return make_error(errc::invalid_argument, "find: must not be empty");
  return req;
}

tool_outcome prepare_occurrence_plan(const file_scope& scope, occurrence_plans& plans, const json::object& args,
                                     const tool_context& ctx) {
  auto req = read_prepare_request(args);
  if (!req) return invalid_args(scope, kPrepareTool, req.err().message);
  auto indexes = read_indexes(args.if_contains("occurrence_indexes"));
  if (!indexes)
    return yaml_error(mode_of(scope, kPrepareTool), req->path, "INVALID_OCCURRENCE_INDEXES", indexes.err().message);
  auto file = open_text(scope, ctx, req->path, true);
  if (!file) return error_answer(scope, kPrepareTool, req->path, file.err());
  const auto offsets = literal_offsets(file->text, req->find);
  if (offsets.empty()) {
    return yaml_error(mode_of(scope, kPrepareTool), req->path, "OCCURRENCE_NOT_FOUND",
                      "No occurrence was found for the requested literal text.");
  }
  std::vector<std::int64_t> selected = std::move(*indexes);
  if (selected.empty()) {
    for (std::size_t i = 1; i <= offsets.size(); ++i) selected.push_back(static_cast<std::int64_t>(i));
  }
  if (static_cast<std::size_t>(selected.back()) > offsets.size()) {
    return yaml_error(mode_of(scope, kPrepareTool), req->path, "OCCURRENCE_OUT_OF_RANGE",
                      "occurrence_indexes contains an out-of-range value: " + std::to_string(selected.back()) +
                          " (found " + std::to_string(offsets.size()) + ").");
  }
  const std::string next = replace_selected(file->text, offsets, selected, req->find, req->content);
  occurrence_plan plan{{},
                       ctx.dialog_id,
                       ctx.member_id,
                       req->path,
                       req->find,
                       req->content,
                       selected,
                       sha256_label(file->text),
                       sha256_label(next),
                       count_lines(file->text),
                       static_cast<std::int64_t>(file->text.size()),
                       count_lines(next),
                       static_cast<std::int64_t>(next.size()),
                       plans.now()};
  const std::string id = plans.add(plan);
  const std::string counts = std::to_string(selected.size()) + "/" + std::to_string(offsets.size());
  auto yaml = yaml_answer(true, mode_of(scope, kPrepareTool));
  yaml.quoted("path", req->path).quoted("plan_id", id).number("expires_at_ms", epoch_ms_in(kOccurrencePlanAge));
  yaml.quoted("find", req->find).number("occurrences_found", static_cast<std::int64_t>(offsets.size()));
  yaml.raw("selected_occurrences", index_list(selected))
      .flag("selected_occurrences_truncated", selected.size() > kOccurrenceIndexesShown)
      .number("selected_count", static_cast<std::int64_t>(selected.size()));
  file_totals(yaml, plan).raw("match_preview", match_preview(file->text, offsets, selected));
  yaml.quoted("next", std::string(mode_of(scope, kApplyTool)) + R"(({ "plan_id": ")" + id + R"(" }))");
  yaml.quoted("summary", "Planned replacement for " + counts + " occurrence(s); plan_id=" + id + ".");
  if (selected.size() < 2) {
    yaml.raw("notice", "NOT_MULTI_OCCURRENCE")
        .quoted("guidance",
                "This single-occurrence replacement plan is valid; for a one-off edit, file_range_edit or "
                "file_block_replace is usually clearer.");
  }
  return yaml.done();
}

bool plan_id_shaped(std::string_view id) {
  if (id.size() < 2 || id.size() > 32) return false;
  return std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

tool_outcome apply_occurrence_plan(const file_scope& scope, occurrence_plans& plans, const json::object& args,
                                   const tool_context& ctx) {
  json_fields in(args);
  const std::string id = in.string("plan_id");
  if (!in.ok()) return invalid_args(scope, kApplyTool, in.message());
  const auto refuse = [&](std::string_view code, std::string_view summary) {
    return yaml_answer(false, mode_of(scope, kApplyTool))
        .quoted("plan_id", id)
        .raw("error", code)
        .quoted("summary", summary)
        .done();
  };
  if (!plan_id_shaped(id))
    return refuse("INVALID_PLAN_ID", "plan_id: not a plan id (2 to 32 letters, digits, _ or -).");
  auto plan = plans.find(id, ctx.dialog_id, ctx.member_id);
  if (!plan) {
    return refuse("PLAN_NOT_FOUND",
                  "plan_id was not found in this dialog; it may have expired, been applied, or been lost after "
                  "a restart. Re-run " +
                      mode_of(scope, kPrepareTool) + ".");
  }
  auto file = open_text(scope, ctx, plan->path, true);
  if (!file) return error_answer(scope, kApplyTool, plan->path, file.err());
  const std::string current = sha256_label(file->text);
  if (current != plan->old_hash) {
    return yaml_answer(false, mode_of(scope, kApplyTool))
        .quoted("path", plan->path)
        .quoted("plan_id", id)
        .raw("error", "FILE_CHANGED_SINCE_PREPARE")
        .quoted("planned_old_hash", plan->old_hash)
        .quoted("current_hash", current)
        .quoted("summary",
                "File changed since prepare; refusing to apply. Re-run " + mode_of(scope, kPrepareTool) + ".")
        .done();
  }
  const auto offsets = literal_offsets(file->text, plan->find);
  const std::string next = replace_selected(file->text, offsets, plan->selected, plan->find, plan->replacement);
  if (auto saved = save_text(scope, ctx, file->where, next); !saved)
    return error_answer(scope, kApplyTool, plan->path, saved.err());
  plans.remove(id);
  auto yaml = yaml_answer(true, mode_of(scope, kApplyTool));
  yaml.quoted("path", plan->path).quoted("plan_id", id).quoted("find", plan->find);
  yaml.raw("selected_occurrences", index_list(plan->selected))
      .number("selected_count", static_cast<std::int64_t>(plan->selected.size()));
  file_totals(yaml, *plan)
      .quoted("summary", "Applied replacement for " + std::to_string(plan->selected.size()) + " occurrence(s).");
  return yaml.done();
}

}  // namespace

std::string sha256_label(std::string_view text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  static constexpr char kHexDigits[] = "0123456789abcdef";
  std::string out = "sha256:";
  for (const unsigned char byte : digest) {
    out += kHexDigits[byte >> 4];
    out += kHexDigits[byte & 0x0f];
  }
  return out;
}

occurrence_plans::occurrence_plans(std::size_t max_plans, std::chrono::seconds max_age, clock_fn now)
    : max_plans_(max_plans), max_age_(max_age), now_(std::move(now)), ids_(std::random_device{}()) {}

void occurrence_plans::drop_expired() {
  const auto now = now_();
  std::erase_if(plans_, [&](const auto& entry) { return now - entry.second.made >= max_age_; });
}

std::string occurrence_plans::add(occurrence_plan plan) {
  lock_guard lock(mutex_);
  drop_expired();
  static constexpr char kIdDigits[] = "0123456789abcdef";
  do {
    plan.id.clear();
    auto bits = ids_();
    for (int i = 0; i < 8; ++i, bits >>= 4) plan.id += kIdDigits[bits & 0x0f];
  } while (plans_.contains(plan.id));
  const std::string id = plan.id;
  plans_.emplace(id, std::move(plan));
  while (plans_.size() > max_plans_) {
    const auto oldest = std::min_element(plans_.begin(), plans_.end(),
                                         [](const auto& a, const auto& b) { return a.second.made < b.second.made; });
    plans_.erase(oldest);
  }
  return id;
}

std::optional<occurrence_plan> occurrence_plans::find(std::string_view id, std::string_view dialog_id,
                                                      std::string_view member_id) {
  lock_guard lock(mutex_);
  drop_expired();
  const auto found = plans_.find(id);
  if (found == plans_.end() || found->second.dialog_id != dialog_id || found->second.member_id != member_id) {
    return std::nullopt;
  }
  return found->second;
}

void occurrence_plans::remove(std::string_view id) {
  lock_guard lock(mutex_);
  if (const auto found = plans_.find(id); found != plans_.end()) plans_.erase(found);
}

std::unique_ptr<tool> make_prepare_occurrence_replace(std::string_view prepare_name, const file_scope& scope,
                                                      std::shared_ptr<occurrence_plans> plans) {
  // The plan lives in memory only: nothing outside the log changes until apply.
  return std::make_unique<function_tool>(
      dominds_spec_or_note(prepare_name),
      [&scope, plans](const json::object& args, const tool_context& ctx) {
        return prepare_occurrence_plan(scope, *plans, args, ctx);
      },
      function_tool::effects::none);
}

std::unique_ptr<tool> make_apply_occurrence_replace(std::string_view apply_name, const file_scope& scope,
                                                    std::shared_ptr<occurrence_plans> plans) {
  return std::make_unique<function_tool>(dominds_spec_or_note(apply_name),
                                         [&scope, plans](const json::object& args, const tool_context& ctx) {
                                           return apply_occurrence_plan(scope, *plans, args, ctx);
                                         });
}

}  // namespace parley::tools::dominds_detail
