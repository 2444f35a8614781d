// Reading a ToT run's log back (tot/run_log.hpp): an input is one line of a call file, or, after a
// first line `### task-info`, the text of 00-task-info.json.
//  - A call-file line: refused as errc::corrupt with a UTF-8 message when the line is UTF-8, or
//    read into an entry that to_json_line writes back as a line reading the same entry.
//  - The task info: a JSON object reads or is refused as errc::corrupt naming the file and field;
//    what reads has root dialogs only when the object names some.
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "parley/core/json.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tot/run_log.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

constexpr std::string_view kTaskInfoMark = "### task-info\n";

void check_line(std::string_view line) {
  auto entry = tot::read_json_line(line);
  if (!entry) {
    FUZZ_CHECK(entry.err().code == errc::corrupt, "refused with another code: " + entry.err().message);
    if (is_valid_utf8(line)) FUZZ_CHECK(is_valid_utf8(entry.err().message), "a message that is not UTF-8");
    return;
  }
  const std::string written = tot::to_json_line(*entry);
  auto again = tot::read_json_line(written);
  FUZZ_CHECK(again.has_value(), "a written entry does not read back: " + written);
  FUZZ_CHECK(again->ts_ms == entry->ts_ms && again->seq == entry->seq && again->level == entry->level &&
                 again->msg == entry->msg && again->data == entry->data,
             "a written entry reads back differently: " + written);
}

void check_task_info(std::string_view text) {
  auto parsed = parse_json(text);
  if (!parsed || !parsed->is_object()) return;
  const auto& info = parsed->get_object();
  auto fields = tot::read_task_info_fields(info);
  if (!fields) {
    FUZZ_CHECK(fields.err().code == errc::corrupt, "refused with another code: " + fields.err().message);
    FUZZ_CHECK(fields.err().message.starts_with("00-task-info.json: field '"),
               "a refusal that names no field: " + fields.err().message);
    return;
  }
  FUZZ_CHECK(fields->root_dialogs.empty() || info.contains("root_dialogs") || info.contains("root_dialog"),
             "root dialogs read from an object that names none");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = as_text(data, size);
  if (input.starts_with(kTaskInfoMark)) {
    check_task_info(input.substr(kTaskInfoMark.size()));
  } else {
    check_line(input);
  }
  return 0;
}
