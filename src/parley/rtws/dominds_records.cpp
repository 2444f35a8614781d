#include "parley/rtws/dominds_records.hpp"

#include <array>
#include <string_view>

#include "parley/core/json_fields.hpp"
#include "parley/rtws/dominds_layout.hpp"

namespace parley::rtws::dominds {

namespace json = boost::json;

namespace {

// Records Dominds writes that carry no conversation Parley keeps: state snapshots for forks
// (docs/dialog-persistence.md, "reconciliation records"), UI-only text, image ingests, the
// Tellask bookkeeping whose call and result are taken from tellask_call/tellask_result, and
// provider-native calls that Parley's providers do not replay.
constexpr std::array<std::string_view, 15> kDomindsSkippedRecords{"active_callees_reconciled_record",
                                                                  "questions4human_reconciled_record",
                                                                  "reminders_reconciled_record",
                                                                  "sideDialog_registry_reconciled_record",
                                                                  "sideDialog_responses_reconciled_record",
                                                                  "sideDialog_created_record",
                                                                  "sideDialog_request_record",
                                                                  "tellask_anchor_record",
                                                                  "tellask_callee_record",
                                                                  "tellask_carryover_record",
                                                                  "tellask_reply_resolution_record",
                                                                  "runtime_guide_record",
                                                                  "ui_only_markdown_record",
                                                                  "tool_result_image_ingest_record",
                                                                  "user_image_ingest_record"};
constexpr std::array<std::string_view, 2> kDomindsNativeCallRecords{"web_search_call_record",
                                                                    "native_tool_call_record"};

bool is_one_of(std::string_view type, const auto& names) {
  for (const auto name : names) {
    if (name == type) return true;
  }
  return false;
}

}  // namespace

record_converter::record_converter(std::string dialog_id, std::string root_id)
    : dialog_id_(std::move(dialog_id)), root_id_(std::move(root_id)) {}

void record_converter::append(events::event_payload payload, std::int64_t ts_ms) {
  event ev;
  ev.dialog_id = dialog_id_;
  ev.root_id = root_id_;
  ev.seq = static_cast<std::int64_t>(events_.size()) + 1;
  ev.payload = std::move(payload);
  ev.ts_ms = ts_ms;
  events_.push_back(std::move(ev));
  last_ts_ms_ = ts_ms;
}

void record_converter::begin_course(std::int64_t course, std::int64_t ts_ms) {
  close_generation();
  if (course > 1) append(events::course_started{course, ""}, ts_ms);
  course_ = course;
}

void record_converter::close_generation() {
  if (!generation_) return;
  open_generation gen = std::move(*generation_);
  generation_.reset();
  events::generation_finished finished;
  finished.course = course_;
  finished.genseq = gen.genseq;
  finished.thinking = std::move(gen.thinking);
  finished.saying = std::move(gen.saying);
  finished.finish_reason = gen.calls.empty() ? "stop" : "tool_calls";
  finished.tool_calls = std::move(gen.calls);
  finished.model = std::move(gen.model);
  finished.interrupted = !gen.finished;
  if (finished.interrupted) finished.finish_reason = "interrupted";
  append(std::move(finished), last_ts_ms_);
  for (auto& result : gen.results) append(std::move(result), last_ts_ms_);
}

void record_converter::ensure_generation(std::int64_t genseq, std::int64_t ts_ms) {
  if (generation_ && generation_->genseq == genseq) return;
  close_generation();
  generation_.emplace();
  generation_->genseq = genseq;
  append(events::generation_started{course_, genseq, ++rounds_}, ts_ms);
}

result<void> record_converter::take_record(const json::object& record) {
  json_fields in(record);
  const std::string type = in.string("type");
  const std::string ts = in.string("ts");
  PARLEY_TRY(in.status());
  auto ts_ms = read_timestamp_ms(ts);
  if (!ts_ms) return make_error(errc::invalid_argument, "field 'ts': " + ts_ms.err().message);
  if (type == "human_text_record") return take_human_text(record, *ts_ms);
  if (type == "gen_start_record" || type == "gen_finish_record" || type == "agent_thought_record" ||
      type == "agent_words_record" || type == "func_call_record" || type == "tellask_call_record") {
    return take_generation_part(type, record, *ts_ms);
  }
  if (type == "func_result_record" || type == "tellask_result_record") return take_result(type, record, *ts_ms);
  if (is_one_of(type, kDomindsSkippedRecords) || is_one_of(type, kDomindsNativeCallRecords)) {
    last_ts_ms_ = *ts_ms;
    return ok();
  }
  return make_error(errc::invalid_argument,
                    "field 'type': '" + type.substr(0, 60) + "' is not a record type Dominds 1.29 writes");
}

result<void> record_converter::take_human_text(const json::object& record, std::int64_t ts_ms) {
  json_fields in(record);
  events::user_message message;
  message.course = course_;
  message.content = in.string("content");
  const auto msg_id = in.optional_string("msgId");
  const auto origin = in.optional_string("origin");
  PARLEY_TRY(in.status());
  close_generation();
  ++messages_;
  // persistUserMessage may be given no msgId; Parley's inputs always have one.
  message.msg_id = msg_id.value_or(dialog_id_ + "-c" + std::to_string(course_) + "-m" + std::to_string(messages_));
  // 'user' is a human; 'runtime' and 'diligence_push' are the runtime's own prompts.
  message.origin = origin.value_or("user") == "user" ? events::message_origin::user : events::message_origin::system;
  append(std::move(message), ts_ms);
  return ok();
}

result<void> record_converter::take_generation_part(std::string_view type, const json::object& record,
                                                    std::int64_t ts_ms) {
  json_fields in(record);
  const std::int64_t genseq = in.integer("genseq");
  PARLEY_TRY(in.status());
  if (type == "gen_start_record") {
    close_generation();
    ensure_generation(genseq, ts_ms);
    return ok();
  }
  if (type == "gen_finish_record") {
    const json::value* model = record.if_contains("llmGenModel");
    ensure_generation(genseq, ts_ms);
    if (model != nullptr && model->is_string()) generation_->model = std::string(model->get_string());
    generation_->finished = true;
    last_ts_ms_ = ts_ms;
    close_generation();
    return ok();
  }
  if (type == "agent_thought_record" || type == "agent_words_record") {
    const std::string content = in.string("content");
    PARLEY_TRY(in.status());
    ensure_generation(genseq, ts_ms);
    (type == "agent_words_record" ? generation_->saying : generation_->thinking) += content;
    last_ts_ms_ = ts_ms;
    return ok();
  }
  events::tool_call_record call;
  call.id = in.string("id");
  call.name = in.string("name");
  call.arguments = in.string("rawArgumentsText");
  PARLEY_TRY(in.status());
  ensure_generation(genseq, ts_ms);
  generation_->calls.push_back(std::move(call));
  last_ts_ms_ = ts_ms;
  return ok();
}

result<void> record_converter::take_result(std::string_view type, const json::object& record, std::int64_t ts_ms) {
  json_fields in(record);
  events::tool_result result;
  result.course = course_;
  if (type == "func_result_record") {
    result.call_id = in.string("id");
    result.name = in.string("name");
    result.content = in.string("content");
    result.genseq = in.optional_integer("genseq").value_or(0);
  } else {
    // buildTellaskResultRecord: the callee's answer to a Tellask, askHuman or FBR call.
    result.call_id = in.string("callId");
    result.name = in.string("callName");
    result.content = in.string("content");
    result.ok = in.string("status") != "failed";
    result.genseq = in.optional_integer("callSiteGenseq").value_or(0);
  }
  PARLEY_TRY(in.status());
  last_ts_ms_ = ts_ms;
  if (generation_) {
    if (result.genseq == 0) result.genseq = generation_->genseq;
    generation_->results.push_back(std::move(result));
    return ok();
  }
  append(std::move(result), ts_ms);
  return ok();
}

}  // namespace parley::rtws::dominds
