// Dominds' file_block_replace (and team_mgmt_file_block_replace through its scope): the block
// between a start anchor line and the first end anchor line after it is replaced, keeping the
// anchor lines (include_anchors, the default) or with them. Which block, when the anchors pair up
// more than once, is Dominds' rule: `occurrence` (1-based or 'last') chooses; without it an
// ambiguous pair is refused unless require_unique or strict is false (then the first is taken).
#include <boost/json/value.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <variant>

#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_file_ops.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/line_text.hpp"

namespace parley::tools::dominds_detail {
namespace {

constexpr std::string_view kBlockTool = "file_block_replace";

// Which pair of anchors: none given (0 or '' stand for none too, as Dominds reads them), an index,
// or the last.
struct block_occurrence {
  bool given = false;
  bool last = false;
  std::int64_t index = 1;
};

result<block_occurrence> read_block_occurrence(const boost::json::value* value) {
  const auto refused = [] {
    return make_error(errc::invalid_argument, "occurrence: must be a positive integer or 'last'");
  };
  if (value == nullptr) return block_occurrence{};
  if (value->is_int64()) {
    const auto n = value->get_int64();
    if (n == 0) return block_occurrence{};
    if (n < 0) return refused();
    return block_occurrence{true, false, n};
  }
  if (!value->is_string()) return refused();
  std::string_view text = value->get_string();
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.remove_suffix(1);
  if (text.empty()) return block_occurrence{};
  if (text == "last") return block_occurrence{true, true, 0};
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc{} || end != text.data() + text.size() || n < 1) return refused();
  return block_occurrence{true, false, n};
}

struct block_request {
  std::string path;
  std::string start_anchor;
  std::string end_anchor;
  std::string content;
  bool equals = false;
  bool include_anchors = true;
  bool require_unique = true;
  bool strict = true;
  block_occurrence occurrence;
};

result<block_request> read_block_request(const boost::json::object& args) {
  block_request req;
  json_fields in(args);
  req.path = in.string("path");
  req.start_anchor = in.string("start_anchor");
  req.end_anchor = in.string("end_anchor");
  req.content = in.optional_string("content").value_or("");
  const std::string match = in.optional_string("match").value_or("contains");
  req.include_anchors = in.optional_boolean("include_anchors").value_or(true);
  req.require_unique = in.optional_boolean("require_unique").value_or(true);
  req.strict = in.optional_boolean("strict").value_or(true);
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  for (const auto& [field, value] : {std::pair{"path", &req.path}, std::pair{"start_anchor", &req.start_anchor},
                                     std::pair{"end_anchor", &req.end_anchor}}) {
    if (value->empty()) return make_error(errc::invalid_argument, std::string(field) + ": must not be empty");
  }
  if (match != "contains" && match != "equals")
    return make_error(errc::invalid_argument, "match: must be 'contains' or 'equals'");
  req.equals = match == "equals";
  PARLEY_TRY_ASSIGN(req.occurrence, read_block_occurrence(args.if_contains("occurrence")));
  return req;
}

struct anchor_pair {
  std::size_t start = 0;  // 0-based line indexes
  std::size_t end = 0;
};

struct block_search {
  std::vector<std::size_t> starts;
  std::vector<std::size_t> ends;
  std::vector<anchor_pair> pairs;  // each start with the first end after it
};

block_search find_blocks(const std::vector<std::string>& lines, const block_request& req) {
  block_search found;
  const auto matches = [&](std::string_view body, const std::string& anchor) {
    return req.equals ? body == anchor : body.find(anchor) != std::string_view::npos;
  };
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto body = line_body(lines[i]);
    if (matches(body, req.start_anchor)) found.starts.push_back(i);
    if (matches(body, req.end_anchor)) found.ends.push_back(i);
  }
  for (const auto start : found.starts) {
    const auto end = std::upper_bound(found.ends.begin(), found.ends.end(), start);
    if (end != found.ends.end()) found.pairs.push_back({start, *end});
  }
  return found;
}

// The refusal of a block choice: Dominds' code and sentence, with the anchors and the count.
tool_outcome block_refusal(const file_scope& scope, const block_request& req, std::size_t candidates,
                           std::string_view code, std::string_view summary) {
  return yaml_answer(false, mode_of(scope, kBlockTool))
      .quoted("path", req.path)
      .quoted("start_anchor", req.start_anchor)
      .quoted("end_anchor", req.end_anchor)
      .number("candidates_count", static_cast<std::int64_t>(candidates))
      .raw("error", code)
      .quoted("summary", summary)
      .done();
}

// The chosen pair, or the answer that refuses the choice.
std::variant<anchor_pair, tool_outcome> choose_block(const file_scope& scope, const block_request& req,
                                                     const block_search& found) {
  const auto count = found.pairs.size();
  if (count == 0) {
    return block_refusal(scope, req, 0, "ANCHOR_NOT_FOUND",
                         "Anchors not found or not paired. Use file_range_edit (line-range precise edits).");
  }
  if (!req.occurrence.given && req.require_unique && req.strict && count != 1) {
    return block_refusal(scope, req, count, "ANCHOR_AMBIGUOUS",
                         "Ambiguous anchors: " + std::to_string(count) +
                             " candidate block(s). Specify occurrence=<n|last>, or use file_range_edit (line range).");
  }
  anchor_pair chosen;
  if (count == 1) {
    chosen = found.pairs.front();
  } else if (req.occurrence.last) {
    chosen = found.pairs.back();
  } else if (static_cast<std::size_t>(req.occurrence.index) <= count) {
    chosen = found.pairs[static_cast<std::size_t>(req.occurrence.index) - 1];
  } else {
    return block_refusal(scope, req, count, "OCCURRENCE_OUT_OF_RANGE",
                         "occurrence " + std::to_string(req.occurrence.index) + " is out of range (" +
                             std::to_string(count) + " candidate blocks).");
  }
  const auto inside = [&](const std::vector<std::size_t>& at) {
    return std::any_of(at.begin(), at.end(), [&](std::size_t i) { return i > chosen.start && i < chosen.end; });
  };
  if (inside(found.starts) || inside(found.ends)) {
    return block_refusal(scope, req, count, "ANCHOR_AMBIGUOUS",
                         "Nested/ambiguous anchors detected. Refusing to write; normalize anchors or use "
                         "file_range_edit (line range).");
  }
  return chosen;
}

}  // namespace

tool_outcome replace_anchored_block(const file_scope& scope, const boost::json::object& args, const tool_context& ctx) {
  auto req = read_block_request(args);
  if (!req) return invalid_args(scope, kBlockTool, req.err().message);
  if (req->content.empty()) {
    return yaml_error(mode_of(scope, kBlockTool), req->path, "CONTENT_REQUIRED",
                      "content: the new block content is required.");
  }
  auto file = open_text(scope, ctx, req->path, true);
  if (!file) return error_answer(scope, kBlockTool, req->path, file.err());
  auto lines = split_lines(file->text);
  const auto found = find_blocks(lines, *req);
  auto choice = choose_block(scope, *req, found);
  if (auto* refusal = std::get_if<tool_outcome>(&choice)) return std::move(*refusal);
  const auto block = std::get<anchor_pair>(choice);
  const std::size_t first = req->include_anchors ? block.start + 1 : block.start;
  const std::size_t removed = req->include_anchors ? block.end - block.start - 1 : block.end - block.start + 1;
  const bool ends_file = first + removed == lines.size();
  auto replacement = lines_to_insert(req->content, ends_file && !lines.back().ends_with('\n'));
  const auto at = lines.begin() + static_cast<std::ptrdiff_t>(first);
  lines.erase(at, at + static_cast<std::ptrdiff_t>(removed));
  lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(first), replacement.begin(), replacement.end());
  const std::string text = join_lines(lines);
  if (auto saved = save_text(scope, ctx, file->where, text); !saved)
    return error_answer(scope, kBlockTool, req->path, saved.err());
  const auto old_count = static_cast<std::int64_t>(removed);
  const auto new_count = static_cast<std::int64_t>(replacement.size());
  const std::string range = std::to_string(block.start + 1) + "–" + std::to_string(block.end + 1);
  return yaml_answer(true, mode_of(scope, kBlockTool))
      .quoted("path", req->path)
      .raw("action", "block_replace")
      .quoted("start_anchor", req->start_anchor)
      .quoted("end_anchor", req->end_anchor)
      .quoted("match", req->equals ? "equals" : "contains")
      .flag("include_anchors", req->include_anchors)
      .number("candidates_count", static_cast<std::int64_t>(found.pairs.size()))
      .raw("block_range", "")
      .raw("  start_line", std::to_string(block.start + 1))
      .raw("  end_line", std::to_string(block.end + 1))
      .raw("lines", "")
      .raw("  old", std::to_string(old_count))
      .raw("  new", std::to_string(new_count))
      .raw("  delta", std::to_string(new_count - old_count))
      .number("new_total_lines", count_lines(text))
      .number("new_total_bytes", static_cast<std::int64_t>(text.size()))
      .quoted("summary", "Block replaced: candidates=" + std::to_string(found.pairs.size()) + "; block lines " + range +
                             "; old=" + std::to_string(old_count) + ", new=" + std::to_string(new_count) +
                             ", delta=" + std::to_string(new_count - old_count) + ".")
      .done();
}

}  // namespace parley::tools::dominds_detail
