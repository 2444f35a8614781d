// Dominds' pad_* tools over a dialog's reminders (dominds_pads.hpp).
#include "parley/engine/dominds_pads.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/engine/scratch_pad.hpp"
#include "parley/tools/dominds_tools.hpp"
#include "parley/tools/workspace_access.hpp"

namespace parley::engine {
namespace {

namespace json = boost::json;
using namespace dominds_pad_tool;

// pad_load_file_range reads at most this much of a file (a range of a larger file is refused).
constexpr std::uintmax_t kMaxPadSourceBytes = 16 * 1024 * 1024;
constexpr std::string_view kPadIntentSuggestion =
    "Add intent/completion so humans and future model turns can understand why this scratch pad exists and when "
    "to delete it.";

std::string pad_yaml_quote(std::string_view text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A Dominds pad answer: a fenced YAML block of `key: value` lines.
class pad_answer {
 public:
  pad_answer(bool ok, std::string_view mode) : ok_(ok) {
    yaml_ = std::string("status: ") + (ok ? "ok" : "error") + "\nmode: " + std::string(mode);
  }
  pad_answer& raw(std::string_view key, std::string_view value) {
    yaml_ += "\n" + std::string(key) + ": " + std::string(value);
    return *this;
  }
  pad_answer& quoted(std::string_view key, std::string_view value) { return raw(key, pad_yaml_quote(value)); }
  pad_answer& intent_notice(const scratch_pad& pad) {
    if (pad.intent) return *this;
    return raw("notice", "PAD_INTENT_MISSING").quoted("suggestion", kPadIntentSuggestion);
  }
  tool_reply done() const { return tools::tool_outcome{ok_, "```yaml\n" + yaml_ + "\n```"}; }

 private:
  bool ok_;
  std::string yaml_;
};

tool_reply pad_invalid(std::string_view mode, std::string_view summary) {
  return pad_answer(false, mode).raw("error", "INVALID_ARGS").quoted("summary", summary).done();
}

tool_reply pad_failure(std::string_view mode, std::string_view pad_id, std::string_view code,
                       std::string_view summary) {
  return pad_answer(false, mode).quoted("pad_id", pad_id).raw("error", code).quoted("summary", summary).done();
}

tool_reply pad_missing(std::string_view mode, std::string_view field, const std::string& pad_id) {
  const std::string prefix = field == "pad_id" ? "" : std::string(field) + ": ";
  return pad_failure(mode, pad_id, "PAD_NOT_FOUND", prefix + "pad_id=" + pad_id + " does not exist");
}

llm::tool_spec pad_spec(std::string_view name) {
  auto spec = tools::dominds_tool_spec(name);
  // A test checks that every name has its spec; without one the tool takes no arguments.
  if (!spec) return {std::string(name), "Dominds' " + std::string(name) + " (no spec)", json::object{}};
  spec->name = std::string(name);
  return *std::move(spec);
}

struct found_pad {
  std::size_t index = 0;
  scratch_pad pad;
};

std::optional<found_pad> find_pad(const dialog_runtime& dialog, std::string_view id) {
  const auto& reminders = dialog.state().reminders;
  for (std::size_t i = 0; i < reminders.size(); ++i) {
    if (!reminders[i].starts_with("[Scratch Pad]")) continue;
    if (auto pad = parse_pad(reminders[i]); pad && pad->id == id) return found_pad{i, std::move(*pad)};
  }
  return std::nullopt;
}

// intent, completion, source_note, delete_when_done as a call gives them: trimmed, folded onto one
// line, an empty one as absent.
struct pad_meta_patch {
  std::optional<std::string> intent;
  std::optional<std::string> completion;
  std::optional<std::string> source_note;
  std::optional<bool> delete_when_done;
  std::string_view language = "en";  // of a pad this call makes: the team's work language
};

std::optional<std::string> pad_note(std::optional<std::string> value) {
  if (!value) return std::nullopt;
  std::string folded;
  for (const char c : *value) folded += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  const auto first = folded.find_first_not_of(' ');
  if (first == std::string::npos) return std::nullopt;
  return folded.substr(first, folded.find_last_not_of(' ') - first + 1);
}

pad_meta_patch read_pad_meta(json_fields& in) {
  pad_meta_patch patch;
  patch.intent = pad_note(in.optional_string("intent"));
  patch.completion = pad_note(in.optional_string("completion"));
  patch.source_note = pad_note(in.optional_string("source_note"));
  patch.delete_when_done = in.optional_boolean("delete_when_done");
  return patch;
}

// As Dominds' buildPadMeta: what the call gives, else what the pad (or the pad it came from) said.
// A new pad's notes are in the patch's language; a changed pad keeps its own.
scratch_pad pad_with(std::string id, std::vector<std::string> lines, const scratch_pad* previous,
                     const pad_meta_patch& patch) {
  scratch_pad pad;
  pad.language = previous != nullptr ? previous->language : std::string(patch.language);
  pad.id = std::move(id);
  pad.lines = std::move(lines);
  pad.intent = patch.intent ? patch.intent : previous != nullptr ? previous->intent : std::nullopt;
  pad.completion = patch.completion ? patch.completion : previous != nullptr ? previous->completion : std::nullopt;
  pad.source_note = patch.source_note ? patch.source_note : previous != nullptr ? previous->source_note : std::nullopt;
  pad.delete_when_done = patch.delete_when_done.value_or(previous != nullptr ? previous->delete_when_done : true);
  return pad;
}

// Refuses a pad past kMaxPadBytes, naming it; nullopt: it fits.
std::optional<tool_reply> pad_too_large(std::string_view mode, const scratch_pad& pad) {
  const auto bytes = pad_bytes(pad.lines);
  if (bytes <= kMaxPadBytes) return std::nullopt;
  return pad_failure(mode, pad.id, "PAD_TOO_LARGE",
                     "pad_id=" + pad.id + " would hold " + std::to_string(bytes) + " bytes, more than the " +
                         std::to_string(kMaxPadBytes) + " a pad may hold; keep a smaller range in it");
}

result<void> stage_pad(dialog_host& dialogs, dialog_runtime& dialog, const std::optional<found_pad>& at,
                       const scratch_pad& pad) {
  if (at) return dialogs.stage(dialog, events::reminder_updated{static_cast<std::int64_t>(at->index), render_pad(pad)});
  return dialogs.stage(dialog, events::reminder_added{render_pad(pad)});
}

enum class pad_write_mode { upsert, create, replace, append };

pad_write_mode pad_mode_of(std::string_view mode) {
  if (mode == "create") return pad_write_mode::create;
  if (mode == "replace") return pad_write_mode::replace;
  if (mode == "append") return pad_write_mode::append;
  return pad_write_mode::upsert;  // "" and "upsert"; the schema's enum refuses any other
}

// What pad_write and pad_load_file_range share: the mode's check, then the whole pad written.
result<tool_reply> put_whole_pad(dialog_host& dialogs, dialog_runtime& dialog, std::string_view tool,
                                 const std::string& id, pad_write_mode mode, std::vector<std::string> lines,
                                 const pad_meta_patch& patch, const std::string& summary) {
  auto found = find_pad(dialog, id);
  if (mode == pad_write_mode::create && found) {
    return pad_failure(tool, id, "PAD_ALREADY_EXISTS", "pad_id=" + id + " already exists");
  }
  if ((mode == pad_write_mode::replace || mode == pad_write_mode::append) && !found) {
    return pad_missing(tool, "pad_id", id);
  }
  if (mode == pad_write_mode::append && found)
    lines.insert(lines.begin(), found->pad.lines.begin(), found->pad.lines.end());
  const auto pad = pad_with(id, std::move(lines), found ? &found->pad : nullptr, patch);
  if (auto refused = pad_too_large(tool, pad)) return *refused;
  PARLEY_TRY(stage_pad(dialogs, dialog, found, pad));
  return pad_answer(true, tool).quoted("pad_id", id).quoted("summary", summary).intent_notice(pad).done();
}

result<tool_reply> pad_write_tool(dialog_host& dialogs, dialog_runtime& dialog, const json::object& args,
                                  std::string_view language) {
  json_fields in(args);
  const std::string raw_id = in.string("pad_id");
  const std::string content = in.string("content");
  const auto mode = pad_mode_of(in.optional_string("mode").value_or(""));
  auto patch = read_pad_meta(in);
  patch.language = language;
  if (!in.ok()) return pad_invalid(pad_write, in.message());
  auto id = normalize_pad_id(raw_id, "pad_id");
  if (!id) return pad_invalid(pad_write, id.err().message);
  const std::string summary = "pad_id=" + *id + (mode == pad_write_mode::append ? " appended" : " written");
  return put_whole_pad(dialogs, dialog, pad_write, *id, mode, pad_text_lines(content), patch, summary);
}

// The file's text, read under the member's read rules as read_file reads it.
result<std::string> read_pad_source(const tools::tool_context& reads, const std::string& path) {
  tools::workspace_path where;
  PARLEY_TRY_ASSIGN(where, tools::resolve_for(reads, path, tools::file_access::read, access::path_kind::file));
  std::error_code ec;
  const auto type = std::filesystem::status(where.absolute, ec).type();
  if (type == std::filesystem::file_type::not_found)
    return make_error(errc::not_found, "'" + path + "' does not exist");
  if (type != std::filesystem::file_type::regular) {
    return make_error(errc::conflict, "'" + path + "' is not a regular file");
  }
  file_text text;
  PARLEY_TRY_ASSIGN(text, read_file_prefix(where.absolute, kMaxPadSourceBytes));
  if (text.bytes.size() < text.size) {
    return make_error(errc::limit_exceeded, "'" + path + "' is too large (" + std::to_string(text.size) + " bytes)");
  }
  if (text.bytes.find('\0') != std::string::npos) {
    return make_error(errc::conflict, "'" + path + "' looks like a binary file; a pad holds text");
  }
  return std::move(text.bytes);
}

std::string_view pad_read_error_code(errc code) {
  switch (code) {
    case errc::not_found:
      return "FILE_NOT_FOUND";
    case errc::invalid_argument:
      return "ACCESS_DENIED";
    default:
      return "FAILED";
  }
}

result<tool_reply> pad_load_tool(dialog_host& dialogs, const tools::tool_context& reads, dialog_runtime& dialog,
                                 const json::object& args, std::string_view language) {
  json_fields in(args);
  const std::string raw_id = in.string("pad_id");
  const std::string path = in.string("path");
  std::string range = in.optional_string("range").value_or("");
  const auto mode = pad_mode_of(in.optional_string("mode").value_or(""));
  auto patch = read_pad_meta(in);
  patch.language = language;
  if (!in.ok()) return pad_invalid(pad_load_file_range, in.message());
  auto id = normalize_pad_id(raw_id, "pad_id");
  if (!id) return pad_invalid(pad_load_file_range, id.err().message);
  if (path.find_first_not_of(" \t") == std::string::npos) return pad_invalid(pad_load_file_range, "path: is empty");
  if (range.find_first_not_of(" \t") == std::string::npos) range = "~";
  if (!patch.source_note) {
    patch.source_note = "Loaded from " + path + (range == "~" ? std::string(" full file") : " range " + range);
  }
  auto text = read_pad_source(reads, path);
  if (!text) return pad_failure(pad_load_file_range, *id, pad_read_error_code(text.err().code), text.err().message);
  auto lines = select_pad_lines(pad_text_lines(*text), range, "range");
  if (!lines) return pad_invalid(pad_load_file_range, lines.err().message);
  return put_whole_pad(dialogs, dialog, pad_load_file_range, *id, mode, std::move(*lines), patch,
                       "loaded " + path + ":" + range + " into pad_id=" + *id);
}

// pad_edit, pad_insert and pad_delete_range: a change to the lines of one existing pad.
result<tool_reply> pad_lines_tool(dialog_host& dialogs, dialog_runtime& dialog, std::string_view tool,
                                  const json::object& args) {
  json_fields in(args);
  const std::string raw_id = in.string("pad_id");
  const std::string range = tool == pad_insert ? std::string() : in.string("range");
  const std::int64_t line = tool == pad_insert ? in.integer("line") : 0;
  const std::string content = tool == pad_delete_range ? std::string() : in.optional_string("content").value_or("");
  if (!in.ok()) return pad_invalid(tool, in.message());
  auto id = normalize_pad_id(raw_id, "pad_id");
  if (!id) return pad_invalid(tool, id.err().message);
  auto found = find_pad(dialog, *id);
  if (!found) return pad_missing(tool, "pad_id", *id);
  const auto& lines = found->pad.lines;
  result<std::vector<std::string>> next = lines;
  std::string summary;
  if (tool == pad_insert) {
    const auto most = static_cast<std::int64_t>(lines.size()) + 1;
    if (line < 1 || line > most) {
      return pad_invalid(tool, "line: must be between 1 and " + std::to_string(most) + ", got " + std::to_string(line));
    }
    auto inserted = pad_body_lines(content);
    next->insert(next->begin() + (line - 1), inserted.begin(), inserted.end());
    summary = "inserted text before line " + std::to_string(line) + " in pad_id=" + *id;
  } else {
    next = replace_pad_lines(lines, range, "range", pad_body_lines(content));
    if (!next) return pad_invalid(tool, next.err().message);
    summary = (tool == pad_edit ? "edited pad_id=" : "deleted range in pad_id=") + *id;
  }
  const auto pad = pad_with(*id, std::move(*next), &found->pad, {});
  if (auto refused = pad_too_large(tool, pad)) return *refused;
  PARLEY_TRY(stage_pad(dialogs, dialog, found, pad));
  return pad_answer(true, tool).quoted("pad_id", *id).quoted("summary", summary).done();
}

// pad_copy and pad_move: a range of one pad into a range of another (created when absent and
// to_range is '~'); a move also takes the range out of its source.
result<tool_reply> pad_transfer_tool(dialog_host& dialogs, dialog_runtime& dialog, std::string_view tool,
                                     const json::object& args) {
  json_fields in(args);
  const std::string raw_from = in.string("from_pad_id");
  const std::string raw_to = in.string("to_pad_id");
  std::string from_range = in.optional_string("from_range").value_or("");
  std::string to_range = in.optional_string("to_range").value_or("");
  const auto patch = read_pad_meta(in);
  if (!in.ok()) return pad_invalid(tool, in.message());
  auto from = normalize_pad_id(raw_from, "from_pad_id");
  if (!from) return pad_invalid(tool, from.err().message);
  auto to = normalize_pad_id(raw_to, "to_pad_id");
  if (!to) return pad_invalid(tool, to.err().message);
  const bool move = tool == pad_move;
  if (move && *from == *to) {
    return pad_failure(tool, *from, "SAME_PAD_MOVE_UNSUPPORTED",
                       "Use pad_copy plus pad_delete_range, or pad_edit, for same-pad rearrangement.");
  }
  if (from_range.find_first_not_of(" \t") == std::string::npos) from_range = "~";
  if (to_range.find_first_not_of(" \t") == std::string::npos) to_range = "~";
  auto source = find_pad(dialog, *from);
  if (!source) return pad_missing(tool, "from_pad_id", *from);
  auto taken = select_pad_lines(source->pad.lines, from_range, "from_range");
  if (!taken) return pad_invalid(tool, taken.err().message);
  auto target = find_pad(dialog, *to);
  std::optional<scratch_pad> written;
  if (!target) {
    if (to_range != "~") {
      return pad_answer(false, tool)
          .quoted("from_pad_id", *from)
          .quoted("to_pad_id", *to)
          .raw("error", "PAD_NOT_FOUND")
          .quoted("summary",
                  std::string("Target pad does not exist; omit to_range or use \"~\" to create it from the ") +
                      (move ? "moved" : "copied") + " text.")
          .done();
    }
    written = pad_with(*to, *taken, &source->pad, patch);
  } else {
    auto next = replace_pad_lines(target->pad.lines, to_range, "to_range", *taken);
    if (!next) return pad_invalid(tool, next.err().message);
    written = pad_with(*to, std::move(*next), &target->pad, patch);
  }
  std::optional<scratch_pad> emptied;
  if (move) {
    auto rest = replace_pad_lines(source->pad.lines, from_range, "from_range", {});
    if (!rest) return pad_invalid(tool, rest.err().message);
    emptied = pad_with(*from, std::move(*rest), &source->pad, {});
  }
  if (auto refused = pad_too_large(tool, *written)) return *refused;
  PARLEY_TRY(stage_pad(dialogs, dialog, target, *written));
  if (emptied) PARLEY_TRY(stage_pad(dialogs, dialog, source, *emptied));
  return pad_answer(true, tool)
      .quoted("from_pad_id", *from)
      .quoted("from_range", from_range)
      .quoted("to_pad_id", *to)
      .quoted("to_range", to_range)
      .quoted("summary",
              std::string(move ? "moved " : "copied ") + *from + ":" + from_range + " to " + *to + ":" + to_range)
      .intent_notice(*written)
      .done();
}

result<tool_reply> pad_delete_tool(dialog_host& dialogs, dialog_runtime& dialog, const json::object& args) {
  json_fields in(args);
  const std::string raw_id = in.string("pad_id");
  if (!in.ok()) return pad_invalid(pad_delete, in.message());
  auto id = normalize_pad_id(raw_id, "pad_id");
  if (!id) return pad_invalid(pad_delete, id.err().message);
  const auto found = find_pad(dialog, *id);
  if (!found) return pad_missing(pad_delete, "pad_id", *id);
  PARLEY_TRY(dialogs.stage(dialog, events::reminder_deleted{static_cast<std::int64_t>(found->index)}));
  return pad_answer(true, pad_delete).quoted("pad_id", *id).quoted("summary", "deleted pad_id=" + *id).done();
}

}  // namespace

std::vector<llm::tool_spec> dominds_pad_specs() {
  std::vector<llm::tool_spec> specs;
  for (const auto name :
       {pad_write, pad_load_file_range, pad_edit, pad_insert, pad_delete_range, pad_copy, pad_move, pad_delete}) {
    specs.push_back(pad_spec(name));
  }
  return specs;
}

bool is_pad_tool(std::string_view name) {
  return name == pad_write || name == pad_load_file_range || name == pad_edit || name == pad_insert ||
         name == pad_delete_range || name == pad_copy || name == pad_move || name == pad_delete;
}

bool is_pad_reminder(std::string_view reminder) { return parse_pad(reminder).has_value(); }

std::string pad_reminder_refusal(std::string_view reminder_tool, std::string_view reminder) {
  const auto pad = parse_pad(reminder);
  const std::string id = pad ? pad->id : std::string();
  if (reminder_tool == "delete_reminder") {
    return "Error: This reminder cannot be deleted via delete_reminder. Use instead: pad_delete({ \"pad_id\": \"" + id +
           "\" })";
  }
  return "Error: This reminder cannot be edited via update_reminder. Follow instead: Use "
         "pad_write/pad_edit/pad_load_file_range with pad_id=\"" +
         id + "\".";
}

result<tool_reply> run_dominds_pad_tool(dialog_host& dialogs, const tools::tool_context& reads, dialog_runtime& dialog,
                                        std::string_view name, const json::object& args, std::string_view language) {
  if (name == pad_write) return pad_write_tool(dialogs, dialog, args, language);
  if (name == pad_load_file_range) return pad_load_tool(dialogs, reads, dialog, args, language);
  if (name == pad_copy || name == pad_move) return pad_transfer_tool(dialogs, dialog, name, args);
  if (name == pad_delete) return pad_delete_tool(dialogs, dialog, args);
  return pad_lines_tool(dialogs, dialog, name, args);
}

}  // namespace parley::engine
