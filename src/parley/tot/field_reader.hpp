// A strict reader of one JSON object for the ToT protocol (seed 003): every field is read with its
// expected type and range, and `finish()` refuses any field that was not read. The first problem
// wins and is named by its full path ("payload.evaluations[0].score: 11 is outside 0–10"), so a
// model or a client is told exactly what to fix.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"

namespace parley::tot {

class field_reader {
 public:
  // `value` must be an object; otherwise the reader starts failed with "<path>: must be an object".
  field_reader(const json::value& value, std::string path);

  bool ok() const noexcept { return !problem_; }
  // The path of a field of this object, as errors name it.
  std::string path_of(std::string_view key) const;
  // A field; nullptr (and a failure when `required`) when absent. JSON null counts as absent.
  const json::value* field(std::string_view key, bool required);

  void text(std::string_view key, std::string& out, bool required = true, bool non_empty = false);
  void optional_text(std::string_view key, std::optional<std::string>& out);  // null → nullopt
  void number(std::string_view key, double& out, double min, double max, bool required = true);
  void integer(std::string_view key, std::int64_t& out, std::int64_t min, std::int64_t max, bool required = true);
  void boolean(std::string_view key, bool& out, bool required = true);
  void texts(std::string_view key, std::vector<std::string>& out, bool required = true);
  void object(std::string_view key, json::object& out, bool required = true);

  // Records a problem of a field (the first one is kept).
  void fail(std::string field_path, std::string problem);
  // Adopts the error of a nested reader or parse.
  void adopt(const error& nested);
  // Refuses unread fields; returns the first problem met, if any.
  result<void> finish();

 private:
  const json::object* object_ = nullptr;
  std::string path_;
  std::set<std::string, std::less<>> read_;
  std::optional<error> problem_;
};

// "a number", "a string" ... for messages.
std::string describe_kind(const json::value& value);

}  // namespace parley::tot
