// What a member tool's run leaves in the log besides its result (tool_run_records.hpp).
#include "parley/engine/tool_run_records.hpp"

#include <boost/json/object.hpp>

#include <string>
#include <string_view>

#include "parley/core/ids.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/json_read.hpp"
#include "parley/core/utf8.hpp"

namespace parley::engine {

namespace {

constexpr std::size_t kPurposeChars = 500;
constexpr std::string_view kMemoryFolder = ".minds/memory/";

// What a tool call wrote into the member's memory files, if anything: that text is the memory
// entry an introspection turn produced.
std::string memory_written_by(const llm::tool_call& call, bool ok) {
  if (!ok || (call.name != "write_file" && call.name != "edit_file")) return {};
  boost::system::error_code ec;
  const auto args = read_json(call.arguments, ec);
  if (ec || !args.is_object()) return {};
  // The arguments the tool took, so they passed its schema: both fields are required there.
  json_fields in(args.get_object());
  const std::string path = in.string("path");
  std::string written = in.string(call.name == "write_file" ? "content" : "new_text");
  if (!in.ok() || path.rfind(kMemoryFolder, 0) != 0) return {};
  return written;
}

}  // namespace

void make_loggable(tools::tool_outcome& outcome) {
  if (is_valid_utf8(outcome.content)) return;
  auto repaired = repair_utf8(outcome.content);
  outcome.content = std::move(repaired.text);
  outcome.content += "\n[parley: " + std::to_string(repaired.replaced) +
                     " byte sequence(s) of this result were not valid UTF-8 (another encoding, or binary data); "
                     "each is shown as U+FFFD]";
}

events::record_introspection introspection_of(const dialog_runtime& dialog, const llm::tool_call& call,
                                              const tools::tool_outcome& outcome, std::int64_t started_ms,
                                              std::int64_t finished_ms) {
  std::string purpose;
  for (auto m = dialog.messages().rbegin(); m != dialog.messages().rend(); ++m) {
    if (m->role != events::message_role::assistant) continue;
    purpose = !m->content.empty() ? m->content : m->thinking;
    break;
  }
  if (purpose.empty()) purpose = "use " + call.name;
  if (purpose.size() > kPurposeChars) {
    std::size_t cut = kPurposeChars;  // never inside a UTF-8 sequence
    while (cut > 0 && (static_cast<unsigned char>(purpose[cut]) & 0xc0) == 0x80) --cut;
    purpose = purpose.substr(0, cut) + "…";
  }
  events::record_introspection out;
  out.turn_id = new_uuid();
  out.purpose = std::move(purpose);
  out.tool_used = call.name;
  out.tool_input = call.arguments;
  out.tool_output = outcome.content;
  out.started_at = started_ms;
  out.duration_ms = finished_ms - started_ms;
  out.ai_id = dialog.speaking_member();
  if (auto entry = memory_written_by(call, outcome.ok); !entry.empty()) {
    out.generated_entry = std::move(entry);
    out.memory_id = new_uuid();
  }
  return out;
}

}  // namespace parley::engine
