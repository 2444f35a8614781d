// rg --json gives one JSON object a line (begin, match, context, end, summary); each is parsed
// with its path, so matches can be filtered by the access rules before the model sees them.
#include "parley/tools/search_tool.hpp"

#include <map>

#include "parley/core/json_fields.hpp"
#include "parley/core/json_read.hpp"
#include "parley/core/utf8.hpp"
#include "parley/core/vocabulary.hpp"
#include "parley/tools/process_runner.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

constexpr std::int64_t kDefaultResults = 100;
constexpr std::int64_t kMaxResults = 1000;
constexpr std::int64_t kMaxContext = 10;
constexpr std::size_t kMaxLineBytes = 400;
constexpr std::size_t kRgOutputCap = std::size_t{8} * 1024 * 1024;

// The lines of `rg --json` this reader shows; the others (begin, end, summary) are skipped.
enum class rg_line { match, context };
constexpr name_table<rg_line, 2> kRgLineTypes{{{rg_line::match, "match"}, {rg_line::context, "context"}}};

tool_spec search_spec() {
  json::object properties{
      {"pattern",
       json::object{{"type", "string"},
                    {"minLength", 1},
                    {"description", "Regular expression (Rust regex syntax), or plain text with fixed_strings"}}},
      {"path", json::object{{"type", "string"},
                            {"description", "Folder or file to search, relative to the workspace; default '.'"}}},
      {"glob",
       json::object{{"type", "array"},
                    {"items", json::object{{"type", "string"}}},
                    {"maxItems", 20},
                    {"description", "Only files matching these globs, e.g. ['*.cpp', '!*_test.cpp'] ('!' excludes)"}}},
      {"fixed_strings",
       json::object{{"type", "boolean"}, {"description", "Treat pattern as plain text (default false)"}}},
      {"ignore_case", json::object{{"type", "boolean"}, {"description", "Case-insensitive (default false)"}}},
      {"context_lines", json::object{{"type", "integer"},
                                     {"minimum", 0},
                                     {"maximum", kMaxContext},
                                     {"description", "Lines of context before and after each match (default 0)"}}},
      {"max_results", json::object{{"type", "integer"},
                                   {"minimum", 1},
                                   {"maximum", kMaxResults},
                                   {"description", "Matching lines shown at most (default 100)"}}},
  };
  return {"search_files",
          "Search the workspace's text files with ripgrep. Answers 'path:line:text' for matching lines and "
          "'path-line-text' for context lines; files ignored by .gitignore and hidden files are skipped.",
          json::object{{"type", "object"},
                       {"properties", std::move(properties)},
                       {"required", json::array{"pattern"}},
                       {"additionalProperties", false}}};
}

std::string text_of(const json::value* field) {
  if (field == nullptr || !field->is_object()) return {};
  if (const auto* text = field->as_object().if_contains("text"); text != nullptr && text->is_string()) {
    return std::string(text->as_string());
  }
  return "[bytes that are not UTF-8]";
}

class search_tool final : public tool {
 public:
  explicit search_tool(std::string rg) : rg_(std::move(rg)), spec_(search_spec()) {}
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }

  boost::asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args);
    search_request request;
    request.pattern = in.string("pattern");
    request.path = in.optional_string("path").value_or(".");  // the schema's default: the workspace
    // Absent flags: off, as the schema says; absent context_lines: none; max_results: kDefaultResults.
    request.fixed_strings = in.optional_boolean("fixed_strings").value_or(false);
    request.ignore_case = in.optional_boolean("ignore_case").value_or(false);
    request.context_lines = in.optional_integer("context_lines").value_or(0);
    request.max_results = in.optional_integer("max_results").value_or(kDefaultResults);
    request.globs = in.optional_strings("glob").value_or(std::vector<std::string>{});
    if (!in.ok()) co_return detail::failed(in.message());
    co_return co_await search_workspace(std::move(request), ctx, rg_);
  }

  // The answer from rg's --json lines (search_workspace below).
  static tool_outcome render(const process_outcome& ran, const tool_context& ctx, std::size_t max_results,
                             bool with_context) {
    const std::string output = ran.head + ran.tail;
    if (ran.timed_out) return detail::failed("search_files timed out; narrow the path or the pattern");
    if (ran.exit_code == 2 && output.find("{\"type\"") == std::string::npos) {
      // rg's own error (an invalid regex, a bad glob) is plain text on stderr.
      return detail::failed("search_files: " + utf8_excerpt(output, 2000));
    }
    std::map<std::string, bool, std::less<>> readable;
    auto may_read = [&](const std::string& path) {
      auto [it, fresh] = readable.try_emplace(path, false);
      if (fresh) {
        it->second = static_cast<bool>(resolve_for(ctx, path, file_access::read, access::path_kind::file));
      }
      return it->second;
    };
    std::string out;
    std::size_t matches = 0;
    std::size_t shown = 0;
    std::size_t hidden = 0;
    std::string last_path;
    std::int64_t last_line = -1;
    std::size_t start = 0;
    while (start < output.size()) {
      std::size_t end = output.find('\n', start);
      if (end == std::string::npos) end = output.size();
      const std::string_view line(output.data() + start, end - start);
      start = end + 1;
      boost::system::error_code ec;
      auto value = read_json(line, ec);
      if (ec || !value.is_object()) continue;
      // A line of rg's output this reader does not understand is skipped, as one that is not JSON.
      json_fields message(value.as_object());
      const auto type = lookup_name(kRgLineTypes, message.string("type"));
      if (!message.ok() || !type) continue;
      const auto* data = message.object("data");
      if (data == nullptr) continue;
      const auto& fields = *data;
      std::string path = text_of(fields.if_contains("path"));
      if (path.starts_with("./")) path.erase(0, 2);
      const bool is_match = *type == rg_line::match;
      if (!may_read(path)) {
        hidden += is_match ? 1 : 0;
        continue;
      }
      if (is_match) ++matches;
      if (shown >= max_results) continue;
      // rg leaves line_number out when it does not count lines; it always does here (no --no-line-number).
      json_fields match(fields);
      const std::int64_t number = match.optional_integer("line_number").value_or(0);
      if (!match.ok()) continue;
      std::string text = text_of(fields.if_contains("lines"));
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      if (text.size() > kMaxLineBytes) text = utf8_excerpt(text, kMaxLineBytes);
      if (!last_path.empty() && (path != last_path || number != last_line + 1) && with_context) out += "--\n";
      out += path + (is_match ? ":" : "-") + std::to_string(number) + (is_match ? ":" : "-") + text + "\n";
      last_path = path;
      last_line = number;
      if (is_match) ++shown;
    }
    if (matches == 0) {
      std::string none = "no matches";
      if (hidden > 0) none += " (" + std::to_string(hidden) + " in files you may not read, not shown)";
      return tool_outcome{true, none};
    }
    if (matches > shown) {
      out += "[" + std::to_string(matches - shown) +
             " more matching lines not shown; raise max_results or narrow the search]\n";
    }
    if (ran.omitted_bytes > 0) out += "[ripgrep's output was cut: there are more matches than listed]\n";
    if (hidden > 0) out += "[" + std::to_string(hidden) + " matches in files you may not read, not shown]\n";
    return tool_outcome{true, repair_utf8(out).text};
  }

 private:
  std::string rg_;
  tool_spec spec_;
};

}  // namespace

boost::asio::awaitable<tool_outcome> search_workspace(search_request request, const tool_context& ctx,
                                                      std::string rg_program) {
  const std::string& shown = request.path;
  auto where = resolve_for(ctx, shown, file_access::read, access::path_kind::directory);
  if (!where) co_return detail::failed(where.err().message);
  std::error_code ec;
  if (!fs::exists(where->absolute, ec)) co_return detail::failed(detail::quote_path(shown) + " does not exist");
  process_request run;
  run.argv = {rg_program, "--json", "--no-config", "--no-follow"};
  if (request.fixed_strings) run.argv.emplace_back("--fixed-strings");
  if (request.ignore_case) run.argv.emplace_back("--ignore-case");
  if (request.context_lines > 0) run.argv.push_back("--context=" + std::to_string(request.context_lines));
  for (const auto& flag : request.vetted_flags) run.argv.push_back(flag);
  // Never searched at all: the reserved places and Parley's data.
  for (const char* reserved : {"!.minds/", "!.dialogs/", "!*.tsk/", "!*.TSK/"})
    run.argv.push_back(std::string("--glob=") + reserved);
  if (ctx.protected_dirs != nullptr) {
    for (const auto& dir : *ctx.protected_dirs) {
      const fs::path rel = dir.path.lexically_relative(where->root);
      if (!rel.empty() && *rel.begin() != "..") run.argv.push_back("--glob=!/" + rel.generic_string() + "/");
    }
  }
  for (const auto& glob : request.globs) run.argv.push_back("--glob=" + glob);
  run.argv.emplace_back("--regexp=" + request.pattern);
  run.argv.emplace_back("--");
  run.argv.emplace_back(where->relative.generic_string());
  run.cwd = where->root;
  run.output_cap = kRgOutputCap;
  auto ran = co_await run_process(std::move(run));
  if (!ran) co_return detail::failed("search_files cannot run ripgrep: " + ran.err().message);
  co_return search_tool::render(*ran, ctx, static_cast<std::size_t>(request.max_results), request.context_lines > 0);
}

std::unique_ptr<tool> make_search_tool(std::string rg_program) {
  return std::make_unique<search_tool>(std::move(rg_program));
}

}  // namespace parley::tools
