// The file tools that write text (create_new_file, overwrite_entire_file, the line edits, the
// occurrence replace, team_mgmt's create and overwrite) written from a scratch pad
// (dominds_pads.hpp): the call's pad_id / pad_range become the `content` the file tool writes, so
// the tool itself (its access rules, team_mgmt's check that the team still loads) is unchanged;
// its answer then says where the text came from.
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>

#include "parley/core/json_fields.hpp"
#include "parley/core/json_read.hpp"
#include "parley/engine/dominds_pads.hpp"
#include "parley/engine/scratch_pad.hpp"
#include "parley/engine/taskdoc.hpp"

namespace parley::engine {
namespace {

namespace json = boost::json;

// The tools that take pad_id in Dominds (its resolveFileBodySource and resolveFileRangeEditSource).
bool is_pad_source_tool(std::string_view name) {
  static constexpr std::array<std::string_view, 10> kPadSourceTools{
      "create_new_file",           "overwrite_entire_file",
      "file_range_edit",           "file_append",
      "file_insert_after",         "file_insert_before",
      "file_block_replace",        "prepare_occurrence_replace",
      "team_mgmt_create_new_file", "team_mgmt_overwrite_entire_file"};
  return std::find(kPadSourceTools.begin(), kPadSourceTools.end(), name) != kPadSourceTools.end();
}

bool blank_source_text(const std::optional<std::string>& text) {
  return !text || text->find_first_not_of(" \t\r\n") == std::string::npos;
}

std::string source_yaml_quote(std::string_view text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

tools::tool_outcome pad_source_refusal(std::string_view tool, std::string_view path, std::string_view code,
                                       std::string_view summary) {
  return tools::tool_outcome{false, "```yaml\nstatus: error\nmode: " + std::string(tool) +
                                        "\npath: " + source_yaml_quote(path) + "\nerror: " + std::string(code) +
                                        "\nsummary: " + source_yaml_quote(summary) + "\n```"};
}

// Dominds' cleanup suggestion for a pad a file was written from.
std::string pad_cleanup_suggestion(const scratch_pad& pad) {
  if (!pad.delete_when_done) {
    return "This pad is marked keep-while-needed; delete it when the current task no longer needs it.";
  }
  if (pad.completion) {
    return "Completion says: \"" + *pad.completion +
           "\". If this condition is now met, delete this pad with pad_delete.";
  }
  return "If this pad has served its purpose, delete it with pad_delete.";
}

std::string pad_source_lines(const scratch_pad& pad, std::string_view range, const std::string& selected,
                             std::size_t selected_lines) {
  std::string full;
  for (const auto& line : pad.lines) full += line + "\n";
  std::string out = "source: pad\npad_id: " + source_yaml_quote(pad.id) + "\npad_range: " + source_yaml_quote(range) +
                    "\npad_hash: " + source_yaml_quote(content_hash(full)) +
                    "\npad_selected_lines: " + std::to_string(selected_lines) +
                    "\npad_selected_bytes: " + std::to_string(selected.size()) +
                    "\npad_selected_hash: " + source_yaml_quote(content_hash(selected)) + "\n";
  if (pad.intent) out += "pad_intent: " + source_yaml_quote(*pad.intent) + "\n";
  if (pad.completion) out += "pad_completion: " + source_yaml_quote(*pad.completion) + "\n";
  if (pad.source_note) out += "pad_source_note: " + source_yaml_quote(*pad.source_note) + "\n";
  out += std::string("pad_delete_when_done: ") + (pad.delete_when_done ? "true" : "false") + "\n";
  return out + "pad_cleanup_suggestion: " + source_yaml_quote(pad_cleanup_suggestion(pad)) + "\n";
}

std::optional<scratch_pad> dialog_pad_named(const dialog_runtime& dialog, std::string_view id) {
  for (const auto& reminder : dialog.state().reminders) {
    if (auto pad = parse_pad(reminder); pad && pad->id == id) return pad;
  }
  return std::nullopt;
}

}  // namespace

pad_source_decision resolve_pad_source(const dialog_runtime& dialog, const llm::tool_call& call) {
  if (!is_pad_source_tool(call.name)) return {};
  boost::system::error_code ec;
  const auto raw = read_json(call.arguments.empty() ? std::string_view("{}") : call.arguments, ec);
  if (ec || !raw.is_object()) return {};  // the schema check refuses it
  json::object args = raw.get_object();
  if (!args.contains("pad_id") && !args.contains("pad_range")) return {};
  json_fields in(args);
  const std::string path = in.optional_string("path").value_or("");
  const auto pad_id = in.optional_string("pad_id");
  const auto pad_range = in.optional_string("pad_range");
  const auto content = in.optional_string("content");
  if (!in.ok()) return {};  // a wrong type: the schema check names it
  const bool from_pad = !blank_source_text(pad_id);
  if (from_pad && content && !blank_source_text(content)) {
    return {std::nullopt,
            pad_source_refusal(call.name, path, "INVALID_ARGS", "Provide either `content` or `pad_id`, not both")};
  }
  if (!from_pad && !blank_source_text(pad_range)) {
    return {std::nullopt, pad_source_refusal(call.name, path, "INVALID_ARGS", "pad_range: requires `pad_id`")};
  }
  args.erase("pad_id");
  args.erase("pad_range");
  pad_sourced_call out{call, {}};
  if (from_pad) {
    auto id = normalize_pad_id(*pad_id, "pad_id");
    if (!id) return {std::nullopt, pad_source_refusal(call.name, path, "INVALID_ARGS", id.err().message)};
    const auto pad = dialog_pad_named(dialog, *id);
    if (!pad) {
      return {std::nullopt, pad_source_refusal(call.name, path, "PAD_NOT_FOUND", "pad_id=" + *id + " does not exist")};
    }
    const std::string range = blank_source_text(pad_range) ? std::string("~") : *pad_range;
    auto lines = select_pad_lines(pad->lines, range, "pad_range");
    if (!lines) return {std::nullopt, pad_source_refusal(call.name, path, "INVALID_ARGS", lines.err().message)};
    std::string text;
    for (const auto& line : *lines) text += line + "\n";
    out.source_yaml = pad_source_lines(*pad, range, text, lines->size());
    args["content"] = text;
  }
  out.call.arguments = json::serialize(args);
  return {std::move(out), std::nullopt};
}

void add_pad_source(tools::tool_outcome& outcome, std::string_view source_yaml) {
  if (source_yaml.empty()) return;
  const auto path = outcome.content.find("\npath: ");
  if (path == std::string::npos) return;
  const auto end = outcome.content.find('\n', path + 1);
  if (end == std::string::npos) return;
  outcome.content.insert(end + 1, source_yaml);
}

}  // namespace parley::engine
