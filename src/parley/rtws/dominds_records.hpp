// The course records of one Dominds dialog turned into Parley events, in order. Internal to the
// Dominds reader (dominds_dialog.cpp). Record shapes are those dist/persistence.js builds:
// buildFuncCallRecord, buildFuncResultRecord, buildTellaskCallRecord, buildTellaskResultRecord,
// persistUserMessage (human_text_record), notifyGeneratingStart/Finish (gen_start/gen_finish),
// thinkingFinish (agent_thought_record), sayingFinish (agent_words_record).
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"

namespace parley::rtws::dominds {

// The generation a converter is reading (record_converter). Outside the class: clang 14 cannot
// default-construct a nested struct with member initializers in an optional member of the class
// that encloses it (the initializers are not parsed yet when optional's traits are checked).
struct open_generation {
  std::int64_t genseq = 0;
  std::string thinking;
  std::string saying;
  std::vector<events::tool_call_record> calls;
  std::vector<events::tool_result> results;  // written after the generation, as the engine does
  std::optional<std::string> model;
  bool finished = false;
};

class record_converter {
 public:
  record_converter(std::string dialog_id, std::string root_id);

  // The next event of the dialog, its seq assigned here.
  void append(events::event_payload payload, std::int64_t ts_ms);
  // The records that follow belong to `course`; each course after the first opens with course_started.
  void begin_course(std::int64_t course, std::int64_t ts_ms);
  // One record; an error names the field or says the type is not one Dominds 1.29 writes.
  result<void> take_record(const boost::json::object& record);
  // Ends an open generation (one with no gen_finish_record is interrupted) and writes its results.
  void close_generation();
  std::int64_t course() const noexcept { return course_; }
  std::int64_t last_ts_ms() const noexcept { return last_ts_ms_; }
  std::vector<event> take_events() { return std::move(events_); }

 private:
  void ensure_generation(std::int64_t genseq, std::int64_t ts_ms);
  result<void> take_human_text(const boost::json::object& record, std::int64_t ts_ms);
  result<void> take_generation_part(std::string_view type, const boost::json::object& record, std::int64_t ts_ms);
  result<void> take_result(std::string_view type, const boost::json::object& record, std::int64_t ts_ms);

  std::string dialog_id_;
  std::string root_id_;
  std::vector<event> events_;
  std::optional<open_generation> generation_;
  std::int64_t course_ = 1;
  std::int64_t rounds_ = 0;
  std::int64_t messages_ = 0;
  std::int64_t last_ts_ms_ = 0;
};

}  // namespace parley::rtws::dominds
