// A JSON array of records written element by element — one statement's parameter for
// json_to_recordset (pg_rows.hpp) — and how many it holds.
#pragma once

#include <cstdint>
#include <string>

#include "parley/core/json_text.hpp"

namespace parley::pg {

class record_set {
 public:
  record_set() { writer_.begin_array(); }
  record_set(const record_set&) = delete;
  record_set& operator=(const record_set&) = delete;
  json_text_writer& writer() { return writer_; }
  std::size_t bytes() const noexcept { return text_.size(); }
  void counted() { ++count_; }
  std::int64_t count() const noexcept { return count_; }
  // The array, closed.
  const std::string& text() {
    if (!closed_) writer_.end_array();
    closed_ = true;
    return text_;
  }

 private:
  std::string text_;
  json_text_writer writer_{text_};
  std::int64_t count_ = 0;
  bool closed_ = false;
};

}  // namespace parley::pg
