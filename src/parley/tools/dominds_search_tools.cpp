// Dominds' ripgrep tools over Parley's search_files (search_tool.hpp), which already drops every
// match in a file the member may not read: the arguments renamed (globs/include → glob, case →
// ignore_case, context_before/after → lines read back from the file), its 'path:line:text' lines
// read back and answered as Dominds' YAML (results with path, line, match; per-file counts; paths).
#include <boost/json/array.hpp>

#include <algorithm>
#include <cctype>
#include <map>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_rg_args.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/line_text.hpp"
#include "parley/tools/search_tool.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace json = boost::json;

enum class rg_mode { files, snippets, count };

constexpr std::int64_t kRgDefaultMaxResults = 50;
constexpr std::int64_t kRgDefaultMaxFiles = 200;
constexpr std::int64_t kRgParleyMaxResults = 1000;
constexpr std::int64_t kRgMaxContext = 10;

struct rg_request {
  rg_mode mode = rg_mode::snippets;
  std::string tool;  // the Dominds tool's name, for errors
  std::string pattern;
  std::string path = ".";
  std::string case_mode = "smart";
  bool fixed = false;
  std::vector<std::string> globs;
  std::int64_t limit = kRgDefaultMaxResults;  // results (snippets) or files (files, count)
  std::int64_t before = 0;
  std::int64_t after = 0;
};

result<rg_mode> fixed_mode(std::string_view text) {
  if (text.empty() || text == "snippets") return rg_mode::snippets;
  if (text == "files") return rg_mode::files;
  if (text == "count") return rg_mode::count;
  return make_error(errc::invalid_argument,
                    "mode: must be 'files', 'snippets' or 'count', got '" + std::string(text) + "'");
}

// include is a glob or a list of them, beside globs.
void read_include(json_fields& in, const json::object& args, std::vector<std::string>& globs) {
  const auto* include = args.if_contains("include");
  if (include == nullptr) return;
  if (include->is_string()) {
    globs.emplace_back(include->get_string());
    return;
  }
  auto listed = in.optional_strings("include");
  if (listed) globs.insert(globs.end(), listed->begin(), listed->end());
}

result<rg_request> read_rg_request(const json::object& args, std::string_view tool, rg_mode mode) {
  rg_request req;
  req.tool = std::string(tool);
  json_fields in(args);
  const bool is_fixed_tool = tool == "ripgrep_fixed";
  req.pattern = in.string(is_fixed_tool ? "literal" : "pattern");
  req.path = in.optional_string("path").value_or(".");
  req.case_mode = in.optional_string("case").value_or("smart");
  req.fixed = is_fixed_tool || in.optional_boolean("fixed_strings").value_or(false);
  req.globs = in.optional_strings("globs").value_or(std::vector<std::string>{});
  read_include(in, args, req.globs);
  const auto mode_text = is_fixed_tool ? in.optional_string("mode").value_or("") : std::string{};
  const auto max_results = in.optional_integer("max_results");
  const auto max_files = in.optional_integer("max_files");
  req.before = in.optional_integer("context_before").value_or(0);
  req.after = in.optional_integer("context_after").value_or(0);
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (req.pattern.empty())
    return make_error(errc::invalid_argument,
                      std::string(is_fixed_tool ? "literal" : "pattern") + ": must not be empty");
  if (req.case_mode != "smart" && req.case_mode != "sensitive" && req.case_mode != "insensitive") {
    return make_error(errc::invalid_argument, "case: must be one of 'smart', 'sensitive', 'insensitive'");
  }
  if (req.before < 0 || req.after < 0)
    return make_error(errc::invalid_argument, "context_before/context_after: must be 0 or more");
  if (is_fixed_tool) PARLEY_TRY_ASSIGN(mode, fixed_mode(mode_text));
  req.mode = mode;
  req.limit =
      mode == rg_mode::snippets ? max_results.value_or(kRgDefaultMaxResults) : max_files.value_or(kRgDefaultMaxFiles);
  if (req.limit < 1)
    return make_error(errc::invalid_argument,
                      std::string(mode == rg_mode::snippets ? "max_results" : "max_files") + ": must be 1 or more");
  req.before = std::min(req.before, kRgMaxContext);
  req.after = std::min(req.after, kRgMaxContext);
  return req;
}

bool ignores_case(const rg_request& req) {
  if (req.case_mode == "insensitive") return true;
  if (req.case_mode == "sensitive") return false;
  // smart: insensitive unless the pattern has an upper-case letter (ripgrep's --smart-case).
  return std::none_of(req.pattern.begin(), req.pattern.end(),
                      [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
}

json::object parley_search_args(const rg_request& req) {
  json::array globs;
  for (const auto& glob : req.globs) globs.emplace_back(glob);
  json::object out{
      {"pattern", req.pattern},
      {"path", req.path},
      {"fixed_strings", req.fixed},
      {"ignore_case", ignores_case(req)},
      {"max_results", req.mode == rg_mode::snippets ? std::min(req.limit, kRgParleyMaxResults) : kRgParleyMaxResults}};
  if (!globs.empty()) out["glob"] = std::move(globs);
  return out;
}

struct rg_match {
  std::string path;
  std::int64_t line = 0;
  std::string text;
};

// "path:12:text": the path ends at the first ':' followed by digits and ':'.
std::optional<rg_match> parse_match_line(std::string_view line) {
  for (std::size_t colon = line.find(':'); colon != std::string_view::npos; colon = line.find(':', colon + 1)) {
    std::size_t end = colon + 1;
    while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) ++end;
    if (end == colon + 1 || end >= line.size() || line[end] != ':') continue;
    return rg_match{std::string(line.substr(0, colon)),
                    std::stoll(std::string(line.substr(colon + 1, end - colon - 1))),
                    std::string(line.substr(end + 1))};
  }
  return std::nullopt;
}

struct rg_findings {
  std::vector<rg_match> matches;
  std::vector<std::string> notes;  // Parley's bracketed remarks (matches hidden, more not shown)
  bool truncated = false;
};

rg_findings read_findings(const std::string& text) {
  rg_findings out;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    if (line.starts_with("[")) {
      out.notes.emplace_back(line.substr(1, line.size() >= 2 ? line.size() - 2 : 0));
      if (line.find("not shown; raise max_results") != std::string_view::npos ||
          line.find("output was cut") != std::string_view::npos) {
        out.truncated = true;
      }
      continue;
    }
    if (auto match = parse_match_line(line)) out.matches.push_back(std::move(*match));
  }
  return out;
}

std::string flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : ", ") + yaml_quote(items[i]);
  return out + "]";
}

// The lines around a match, read again from the file (which the member may read: search showed it).
std::pair<std::vector<std::string>, std::vector<std::string>> context_of(const tool_context& ctx, const rg_match& match,
                                                                         const rg_request& req) {
  std::pair<std::vector<std::string>, std::vector<std::string>> out;
  auto where = resolve_for(ctx, match.path, file_access::read, access::path_kind::file);
  if (!where) return out;
  auto text = read_file_prefix(where->absolute, detail::kMaxEditBytes);
  if (!text) return out;
  const auto lines = split_lines(text->bytes);
  const auto at = match.line - 1;
  for (std::int64_t n = std::max<std::int64_t>(0, at - req.before); n < at && n < std::ssize(lines); ++n) {
    out.first.emplace_back(line_body(lines[static_cast<std::size_t>(n)]));
  }
  for (std::int64_t n = at + 1; n <= at + req.after && n < std::ssize(lines); ++n) {
    out.second.emplace_back(line_body(lines[static_cast<std::size_t>(n)]));
  }
  return out;
}

std::string render_results(const rg_request& req, const rg_findings& found, const tool_context& ctx,
                           std::int64_t& shown) {
  std::string out;
  if (req.mode == rg_mode::snippets) {
    for (const auto& match : found.matches) {
      if (shown == req.limit) break;
      ++shown;
      out += "  - path: " + yaml_quote(match.path) + "\n    line: " + std::to_string(match.line) +
             "\n    match: " + yaml_quote(match.text) + "\n";
      if (req.before == 0 && req.after == 0) continue;
      const auto [before, after] = context_of(ctx, match, req);
      out += "    before: " + flow_list(before) + "\n    after: " + flow_list(after) + "\n";
    }
    return out;
  }
  std::vector<std::pair<std::string, std::int64_t>> per_file;
  for (const auto& match : found.matches) {
    if (per_file.empty() || per_file.back().first != match.path) per_file.emplace_back(match.path, 0);
    ++per_file.back().second;
  }
  for (const auto& [path, count] : per_file) {
    if (shown == req.limit) break;
    ++shown;
    out += "  - path: " + yaml_quote(path) + "\n";
    if (req.mode == rg_mode::count) out += "    count: " + std::to_string(count) + "\n";
  }
  return out;
}

std::int64_t files_in(const rg_findings& found) {
  std::vector<std::string> paths;
  for (const auto& match : found.matches) {
    if (paths.empty() || paths.back() != match.path) paths.push_back(match.path);
  }
  std::sort(paths.begin(), paths.end());
  return std::unique(paths.begin(), paths.end()) - paths.begin();
}

const char* mode_name(rg_mode mode) {
  return mode == rg_mode::files ? "files" : mode == rg_mode::count ? "count" : "snippets";
}

tool_outcome rg_answer(const rg_request& req, const tool_outcome& parley, const tool_context& ctx) {
  if (!parley.ok) {
    return yaml_answer(false, mode_name(req.mode))
        .quoted("pattern", req.pattern)
        .quoted("path", req.path)
        .raw("error", "FAILED")
        .quoted("summary", parley.content)
        .done();
  }
  const auto found = read_findings(parley.content);
  std::int64_t shown = 0;
  const std::string results = render_results(req, found, ctx, shown);
  const auto files = files_in(found);
  const auto matches = static_cast<std::int64_t>(found.matches.size());
  const bool truncated = found.truncated || shown < (req.mode == rg_mode::snippets ? matches : files);
  auto yaml = yaml_answer(true, mode_name(req.mode));
  yaml.quoted("pattern", req.pattern).quoted("path", req.path);
  if (!req.globs.empty()) yaml.raw("globs", flow_list(req.globs));
  yaml.raw("case", req.case_mode)
      .flag("fixed_strings", req.fixed)
      .flag("regex", !req.fixed)
      .flag("truncated", truncated);
  yaml.raw("totals", "").raw("  files_matched", std::to_string(files)).raw("  matches", std::to_string(matches));
  yaml.raw("  shown_results", std::to_string(shown));
  yaml.raw("diagnostics", "").raw("  messages", flow_list(found.notes));
  yaml.quoted("summary", "Found " + std::to_string(matches) + " matches in " + std::to_string(files) + " files" +
                             (truncated ? "; showing " + std::to_string(shown) + " (truncated=true)." : "."));
  yaml.raw("results", results.empty() ? "[]" : "\n" + results.substr(0, results.size() - 1));
  return yaml.done();
}

class dominds_search final : public tool {
 public:
  dominds_search(std::string_view name, rg_mode mode)
      : name_(name), mode_(mode), spec_(dominds_spec_or_note(name)), inner_(make_search_tool()) {}
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }

  boost::asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    auto req = read_rg_request(args, name_, mode_);
    if (!req) {
      co_return yaml_answer(false, mode_name(mode_))
          .raw("error", "INVALID_ARGS")
          .quoted("summary", req.err().message)
          .done();
    }
    const auto parley_args = parley_search_args(*req);
    auto ran = co_await inner_->invoke(parley_args, ctx);
    co_return rg_answer(*req, ran, ctx);
  }

 private:
  std::string name_;
  rg_mode mode_;
  tool_spec spec_;
  std::unique_ptr<tool> inner_;
};

// ripgrep_search: Dominds' escape hatch with rg's own flags, read against an allowlist
// (dominds_rg_args.hpp) into the same search, answered as ripgrep_snippets answers.
class dominds_raw_search final : public tool {
 public:
  dominds_raw_search() : spec_(dominds_spec_or_note("ripgrep_search")) {}
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }

  boost::asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args);
    rg_request req;
    req.tool = "ripgrep_search";
    req.pattern = in.string("pattern");
    req.path = in.optional_string("path").value_or(".");
    const auto raw = in.optional_strings("rg_args").value_or(std::vector<std::string>{});
    if (!in.ok() || req.pattern.empty()) {
      co_return yaml_answer(false, "snippets")
          .raw("error", "INVALID_ARGS")
          .quoted("summary", in.ok() ? "pattern: must not be empty" : in.message())
          .done();
    }
    auto flags = read_rg_args(raw);
    if (!flags) {
      co_return yaml_answer(false, "snippets")
          .quoted("pattern", req.pattern)
          .quoted("path", req.path)
          .raw("error", "DISALLOWED_ARG")
          .quoted("summary", flags.err().message)
          .done();
    }
    req.case_mode = flags->case_mode.value_or("smart");
    req.fixed = flags->fixed_strings;
    req.globs = flags->globs;
    req.before = flags->before;
    req.after = flags->after;
    search_request search;
    search.pattern = req.pattern;
    search.path = req.path;
    search.globs = req.globs;
    search.fixed_strings = req.fixed;
    search.ignore_case = ignores_case(req);
    search.max_results = req.limit;
    search.vetted_flags = std::move(flags->vetted_flags);
    auto ran = co_await search_workspace(std::move(search), ctx);
    co_return rg_answer(req, ran, ctx);
  }

 private:
  tool_spec spec_;
};

}  // namespace

void register_search_tools(tool_registry& registry) {
  registry.add(std::make_unique<dominds_raw_search>());
  registry.add(std::make_unique<dominds_search>("ripgrep_files", rg_mode::files));
  registry.add(std::make_unique<dominds_search>("ripgrep_snippets", rg_mode::snippets));
  registry.add(std::make_unique<dominds_search>("ripgrep_count", rg_mode::count));
  registry.add(std::make_unique<dominds_search>("ripgrep_fixed", rg_mode::snippets));
}

}  // namespace parley::tools::dominds_detail
