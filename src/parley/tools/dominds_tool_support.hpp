// What Dominds' tool names share in Parley (dominds_tools.hpp): their specs as Dominds defines them
// (data/dominds_tool_specs.json, from dominds@1.29.0's compiled tool definitions), the answer shapes
// (a fenced YAML block with status, mode and summary; Markdown for reads), Dominds' line ranges
// ('10~50', '300~', '~20', '~'), and a tool that renames its arguments for one of Parley's tools and
// reshapes its answer. Private to tools/.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools::dominds_detail {

// Dominds' spec of `name` (its description and parameter schema); an error when the table lacks it.
result<tool_spec> dominds_spec(std::string_view name);
// The same, or (a bug: a test checks every name has its spec) a spec whose description says the
// table lacks it and that takes no arguments.
tool_spec dominds_spec_or_note(std::string_view name);

// 'text' with quotes doubled: YAML's single-quoted scalar, as Dominds writes paths and summaries.
std::string yaml_quote(std::string_view text);

// A Dominds answer: "```yaml\nstatus: ok|error\nmode: <mode>\n...\n```".
class yaml_answer {
 public:
  yaml_answer(bool ok, std::string_view mode);
  yaml_answer& raw(std::string_view key, std::string_view value);  // numbers, booleans, nested text
  yaml_answer& quoted(std::string_view key, std::string_view value);
  yaml_answer& number(std::string_view key, std::int64_t value);
  yaml_answer& flag(std::string_view key, bool value);
  tool_outcome done() const;

 private:
  bool ok_;
  std::string yaml_;
};
// The error answer: status error, mode, the path when known, error CODE, summary.
tool_outcome yaml_error(std::string_view mode, std::string_view path, std::string_view code, std::string_view summary);

// 1-based inclusive lines; last 0: to the end of the file.
struct line_range {
  std::int64_t first = 1;
  std::int64_t last = 0;
};
// '' and '~' are the whole file. The error names `field` and says what is wrong.
result<line_range> parse_line_range(std::string_view text, std::string_view field);

// Counts lines as Dominds does: a final line without a newline counts, an empty text has none.
std::int64_t count_lines(std::string_view text);
// `text` with a newline added when it is not empty and lacks one (Dominds' writes do this).
std::string with_final_newline(std::string_view text);

// A Dominds tool done by one of Parley's: `translate` renames the arguments (its error is the
// message for the model, naming the field), the Parley tool runs with the member's context (so its
// access rules and confinement hold unchanged), and `reshape` gives its answer Dominds' shape.
class adapter_tool final : public tool {
 public:
  using translate_fn = std::function<result<boost::json::object>(const boost::json::object& args)>;
  using reshape_fn = std::function<tool_outcome(const boost::json::object& args, tool_outcome parley)>;
  adapter_tool(tool_spec spec, std::unique_ptr<tool> inner, translate_fn translate, reshape_fn reshape);

  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return inner_->has_effects(); }
  boost::asio::awaitable<tool_outcome> invoke(const boost::json::object& args, const tool_context& ctx) override;

 private:
  tool_spec spec_;
  std::unique_ptr<tool> inner_;
  translate_fn translate_;
  reshape_fn reshape_;
};

// The arguments as they are, and the answer as it is.
result<boost::json::object> same_arguments(const boost::json::object& args);

}  // namespace parley::tools::dominds_detail

namespace parley::tools::dominds_detail {

// ripgrep_files, ripgrep_snippets, ripgrep_count, ripgrep_fixed over Parley's search_files
// (dominds_search_tools.cpp).
void register_search_tools(tool_registry& registry);
// read_picture, list_dir, rm_file, rm_symlink, rm_dir, mk_dir, move_file, move_dir over Parley's
// workspace operations (dominds_tools.cpp).
void register_workspace_fs_tools(tool_registry& registry);
// read_symlink, create_symlink, rm_symlink (dominds_link_tools.cpp); write_picture (dominds_picture_write.cpp).
void register_link_tools(tool_registry& registry);
void register_picture_write_tool(tool_registry& registry);
// shell_cmd, readonly_shell over Parley's, and the memory tools under Dominds' names
// (dominds_shell_tools.cpp).
void register_shell_and_memory_tools(tool_registry& registry);

}  // namespace parley::tools::dominds_detail
