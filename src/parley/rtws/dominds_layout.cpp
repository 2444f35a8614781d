#include "parley/rtws/dominds_layout.hpp"

#include <boost/json/value.hpp>

#include <fstream>
#include <optional>
#include <system_error>

#include "parley/core/json_read.hpp"
#include "parley/core/time.hpp"
#include "parley/rtws/rtws_layout.hpp"

namespace parley::rtws::dominds {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

bool dominds_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

// What the first line of a course file says about its writer, if anything.
std::optional<folder_layout> layout_of_course_line(const fs::path& course_file) {
  std::ifstream in(course_file);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  boost::system::error_code ec;
  const json::value value = read_json(line, ec);
  if (ec || !value.is_object()) return std::nullopt;
  const json::object& obj = value.get_object();
  if (obj.contains("dialogId") && obj.contains("seq")) return folder_layout::parley;
  if (const auto* type = obj.if_contains("type"); type != nullptr && type->is_string()) {
    if (std::string_view(type->get_string()).ends_with("_record")) return folder_layout::dominds;
  }
  return std::nullopt;
}

// The layout one entry of a bucket shows: a folder with neither dialog.yaml nor a course file is a
// segment of a nested id; one that lost its dialog.yaml is told by its course file, so that a damaged
// Parley export still reaches the importer that reports what is wrong with it.
std::optional<folder_layout> layout_of_entry(const fs::path& folder) {
  std::error_code ec;
  if (!fs::exists(folder / layout::dialog_file, ec)) {
    if (fs::exists(folder / course_file_name(1), ec)) return layout_of_course_line(folder / course_file_name(1));
    return folder_layout::dominds;
  }
  if (fs::is_directory(folder / side_dialogs_folder, ec)) return folder_layout::dominds;
  if (fs::is_directory(folder / layout::subdialogs_folder, ec)) return folder_layout::parley;
  return layout_of_course_line(folder / course_file_name(1));
}

}  // namespace

std::string_view bucket_for_status(events::dialog_status status) {
  switch (status) {
    case events::dialog_status::running:
      return layout::run_folder;
    case events::dialog_status::completed:
      return layout::done_folder;
    case events::dialog_status::archived:
      return archive_folder;
  }
  return layout::run_folder;
}

result<std::string> parley_id_of(std::string_view dominds_id) {
  std::string out;
  std::size_t segment = 0;
  for (const char c : dominds_id) {
    if (c == '/') {
      if (segment == 0) break;
      out += '-';
      segment = 0;
      continue;
    }
    if (!dominds_id_char(c) || (segment == 0 && c == '.')) {
      return make_error(errc::invalid_argument, "dialog id '" + std::string(dominds_id) +
                                                    "': a segment holds a character other than letters, digits, "
                                                    "'_' and '.', or starts with '.'");
    }
    out += c;
    ++segment;
  }
  if (segment == 0) {
    return make_error(errc::invalid_argument,
                      "dialog id '" + std::string(dominds_id) + "': empty, or an empty segment between '/'");
  }
  return out;
}

std::string dominds_id_of(std::string_view parley_id) {
  std::string out(parley_id);
  for (char& c : out) {
    if (c == '-') c = '/';
  }
  return out;
}

result<std::int64_t> read_timestamp_ms(std::string_view text) {
  if (auto strict = parse_iso8601_ms(text)) return *strict;
  // "2024-01-15 10:30:00[.mmm]": a space for the 'T', no zone.
  if (text.size() >= 19 && text[10] == ' ') {
    std::string iso(text);
    iso[10] = 'T';
    iso += 'Z';
    if (auto spaced = parse_iso8601_ms(iso)) return *spaced;
  }
  return make_error(errc::invalid_argument, "'" + std::string(text.substr(0, 40)) + "' is not a timestamp");
}

std::string format_timestamp(std::int64_t unix_ms) { return format_iso8601_ms(unix_ms); }

folder_layout detect_layout(const fs::path& rtws) {
  const fs::path dialogs = dialogs_path(rtws);
  std::error_code ec;
  for (const auto bucket : {layout::run_folder, layout::done_folder, archive_folder}) {
    for (fs::directory_iterator it(dialogs / bucket, ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().filename().string().starts_with(".") || !it->is_directory(ec)) continue;
      if (bucket == archive_folder) return folder_layout::dominds;
      if (const auto found = layout_of_entry(it->path())) return *found;
    }
    ec.clear();
  }
  return folder_layout::empty;
}

}  // namespace parley::rtws::dominds
