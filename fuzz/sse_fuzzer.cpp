// The SSE readers: an input is the body of a streamed model answer.
//  - sse_parser: the same events (and the same success) however the bytes are split into chunks;
//    no field of an event holds a line break it should not; the event name is never empty.
//  - The SAX field readers of Chat Completions chunks and Messages events find exactly what a full
//    parse finds, and refuse only what is not an object (or, for chunks, carries an error).
//  - Both stream assemblers, fed the events: the sink sees the stream order contract and the
//    response holds what was streamed; a finished answer has a known finish reason and well-formed
//    tool calls; an interrupted one too. Their errors are UTF-8 whatever the bytes: the engine
//    logs them (drive_failed), and the log refuses anything else.
#include <boost/json/serialize.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "checking_sink.hpp"
#include "fuzz_support.hpp"
#include "parley/core/json.hpp"
#include "parley/core/utf8.hpp"
#include "parley/http/sse_parser.hpp"
#include "parley/llm/anthropic/anthropic_event.hpp"
#include "parley/llm/anthropic/anthropic_stream.hpp"
#include "parley/llm/openai/openai_chunk.hpp"
#include "parley/llm/openai/openai_stream.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

// Small bounds, so that inputs of a few kilobytes reach them.
constexpr http::sse_limits kLimits{512, 2048};

struct parse_outcome {
  std::vector<http::sse_event> events;
  bool ok = true;
};

// Feeds `stream` in chunks whose sizes come from `next_size` (0: the rest at once).
template <class NextSize>
parse_outcome parse_in_chunks(std::string_view stream, NextSize next_size) {
  http::sse_parser parser(kLimits);
  parse_outcome out;
  while (!stream.empty()) {
    std::size_t size = next_size();
    if (size == 0 || size > stream.size()) size = stream.size();
    if (!parser.feed(stream.substr(0, size), out.events)) {
      out.ok = false;
      return out;
    }
    stream.remove_prefix(size);
  }
  out.ok = parser.finish(out.events).has_value();
  return out;
}

std::string describe(const http::sse_event& e) {
  return "event=" + e.event + " id=" + e.id + " retry=" + (e.retry_ms ? std::to_string(*e.retry_ms) : "-") +
         " data=" + e.data;
}

void check_same(const parse_outcome& a, const parse_outcome& b, const char* how) {
  FUZZ_CHECK(a.ok == b.ok, std::string("success differs when fed ") + how);
  // After an error the events delivered so far depend on where the chunk ended; only a stream that
  // was read whole must give exactly the same events.
  if (!a.ok) return;
  FUZZ_CHECK(a.events.size() == b.events.size(), std::string("event count differs when fed ") + how);
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    FUZZ_CHECK(describe(a.events[i]) == describe(b.events[i]),
               std::string("event ") + std::to_string(i) + " differs when fed " + how + ":\n" + describe(a.events[i]) +
                   "\n" + describe(b.events[i]));
  }
}

void check_event(const http::sse_event& e) {
  FUZZ_CHECK(!e.event.empty(), "an event without a name");
  FUZZ_CHECK(e.event.find_first_of("\r\n") == std::string::npos, "a line break in the event name");
  FUZZ_CHECK(e.id.find_first_of("\r\n") == std::string::npos, "a line break in the id");
  FUZZ_CHECK(e.id.find('\0') == std::string::npos, "a NUL in the id");
  FUZZ_CHECK(e.data.find('\r') == std::string::npos, "a CR in the data");
  FUZZ_CHECK(e.data.size() <= kLimits.max_event_bytes, "an event larger than the limit");
  FUZZ_CHECK(!e.retry_ms || *e.retry_ms >= 0, "a negative retry");
}

// ---- Chat Completions chunks: the reader against the full parse (as in openai_chunk_test.cpp) ----

std::string describe(const llm::openai::chunk_message& m) {
  if (!m.present) return "absent";
  std::string out = "rc=" + m.reasoning_content + "|r=" + m.reasoning + "|c=" + m.content + "|calls[";
  for (std::size_t i = 0; i < m.tool_call_count; ++i) {
    const auto& c = m.tool_calls[i];
    out += "{" + std::to_string(c.index) + "," + c.id + "," +
           (c.has_function ? "f:" + c.name + "," + c.arguments : "-") + "}";
  }
  return out + "]";
}

std::string count(const std::optional<std::int64_t>& value) {
  return value ? std::to_string(*value) : std::string("none");
}

std::string describe(const llm::openai::chunk_fields& f) {
  std::string out = "usage:";
  out += f.usage.present ? count(f.usage.prompt_tokens) + "," + count(f.usage.completion_tokens) + "," +
                               count(f.usage.cached_tokens) + "," + count(f.usage.reasoning_tokens)
                         : "absent";
  for (std::size_t i = 0; i < f.choice_count; ++i) {
    const auto& c = f.choices[i];
    out += "\nchoice " + std::to_string(c.index) + " finish=" + c.finish_reason + " delta=" + describe(c.delta) +
           " message=" + describe(c.message);
  }
  return out;
}

void assign_string_at(const json::object& obj, std::string_view key, std::string& out) {
  const auto* found = obj.if_contains(key);
  if (found != nullptr && found->is_string()) out.assign(found->get_string());
}

std::optional<std::int64_t> count_at(const json::object& obj, std::string_view key) {
  const auto* found = obj.if_contains(key);
  if (found == nullptr || !(found->is_int64() || found->is_uint64() || found->is_double())) return std::nullopt;
  return json_int_or(obj, key);
}

void message_from(const json::object* fields, llm::openai::chunk_message& out) {
  if (fields == nullptr) return;
  out.present = true;
  assign_string_at(*fields, "reasoning_content", out.reasoning_content);
  assign_string_at(*fields, "reasoning", out.reasoning);
  assign_string_at(*fields, "content", out.content);
  const auto* calls = json_array_at(*fields, "tool_calls");
  if (calls == nullptr) return;
  for (const auto& element : *calls) {
    const auto* call_fields = element.if_object();
    if (call_fields == nullptr) continue;
    auto& call = out.add_tool_call();
    call.index = json_int_or(*call_fields, "index", -1);
    assign_string_at(*call_fields, "id", call.id);
    if (const auto* function = json_object_at(*call_fields, "function")) {
      call.has_function = true;
      assign_string_at(*function, "name", call.name);
      assign_string_at(*function, "arguments", call.arguments);
    }
  }
}

std::string reference_chunk(const json::object& chunk) {
  llm::openai::chunk_fields out;
  if (const auto* usage = json_object_at(chunk, "usage")) {
    out.usage.present = true;
    out.usage.prompt_tokens = count_at(*usage, "prompt_tokens");
    out.usage.completion_tokens = count_at(*usage, "completion_tokens");
    if (const auto* prompt = json_object_at(*usage, "prompt_tokens_details")) {
      out.usage.cached_tokens = count_at(*prompt, "cached_tokens");
    }
    if (const auto* completion = json_object_at(*usage, "completion_tokens_details")) {
      out.usage.reasoning_tokens = count_at(*completion, "reasoning_tokens");
    }
  }
  if (const auto* choices = json_array_at(chunk, "choices")) {
    for (const auto& element : *choices) {
      const auto* fields = element.if_object();
      if (fields == nullptr) continue;
      auto& choice = out.add_choice();
      choice.index = json_int_or(*fields, "index", 0);
      message_from(json_object_at(*fields, "delta"), choice.delta);
      message_from(json_object_at(*fields, "message"), choice.message);
      assign_string_at(*fields, "finish_reason", choice.finish_reason);
    }
  }
  return describe(out);
}

void check_chunk_reader(std::string_view text) {
  const llm::openai::chunk_fields* read = llm::openai::read_chunk_fields(text);
  auto parsed = parse_json(text);
  const json::object* object = parsed && parsed->is_object() ? &parsed->get_object() : nullptr;
  const json::value* error = object != nullptr ? object->if_contains("error") : nullptr;
  const bool takes = object != nullptr && (error == nullptr || error->is_null());
  FUZZ_CHECK((read != nullptr) == takes, "the chunk reader " + std::string(read ? "took" : "refused") +
                                             " what the full parse " + (takes ? "takes" : "refuses") + ": " +
                                             std::string(text));
  if (read != nullptr) {
    const std::string by_reader = describe(*read);
    const std::string by_parse = reference_chunk(*object);
    FUZZ_CHECK(by_reader == by_parse, "the chunk reader found\n" + by_reader + "\nthe full parse\n" + by_parse);
  }
}

// ---- Messages events ----

std::string describe_event(const std::string& type, std::int64_t index, bool has_delta, const std::string& delta_type,
                           const std::string& text, const std::string& thinking, const std::string& signature,
                           const std::string& partial_json) {
  return "type=" + type + " index=" + std::to_string(index) +
         (has_delta ? " delta{" + delta_type + "|" + text + "|" + thinking + "|" + signature + "|" + partial_json + "}"
                    : " no delta");
}

void check_event_reader(std::string_view text) {
  const llm::anthropic::event_fields* read = llm::anthropic::read_event_fields(text);
  auto parsed = parse_json(text);
  const bool takes = parsed && parsed->is_object();
  FUZZ_CHECK((read != nullptr) == takes, "the event reader " + std::string(read ? "took" : "refused") +
                                             " what the full parse " + (takes ? "takes" : "refuses") + ": " +
                                             std::string(text));
  if (read == nullptr) return;
  const json::object& event = parsed->get_object();
  const json::object* delta = json_object_at(event, "delta");
  const json::object none;
  const json::object& d = delta != nullptr ? *delta : none;
  const std::string by_parse =
      describe_event(json_string_or(event, "type"), json_int_or(event, "index", 0), delta != nullptr,
                     json_string_or(d, "type"), json_string_or(d, "text"), json_string_or(d, "thinking"),
                     json_string_or(d, "signature"), json_string_or(d, "partial_json"));
  const std::string by_reader =
      describe_event(read->type, read->index, read->delta.present, read->delta.type, read->delta.text,
                     read->delta.thinking, read->delta.signature, read->delta.partial_json);
  FUZZ_CHECK(by_reader == by_parse, "the event reader found\n" + by_reader + "\nthe full parse\n" + by_parse);
}

// ---- The assemblers ----

void check_error(const error& err) {
  FUZZ_CHECK(is_valid_utf8(err.message), "an assembler error that is not UTF-8: " + err.message);
}

bool is_one_of(std::string_view value, std::initializer_list<std::string_view> allowed) {
  for (auto a : allowed)
    if (value == a) return true;
  return false;
}

void check_finished(const result<llm::model_response>& response, const fuzz::checking_sink& sink, bool calls_need_ids) {
  if (!response) {
    check_error(response.err());
    return;
  }
  sink.check_response(*response);
  FUZZ_CHECK(is_one_of(response->finish_reason, {"stop", "length", "tool_calls", "content_filter"}),
             "unknown finish_reason '" + response->finish_reason + "'");
  for (const auto& call : response->tool_calls) {
    FUZZ_CHECK(!call.arguments.empty(), "a tool call with empty arguments text");
    if (calls_need_ids) {
      FUZZ_CHECK(!call.name.empty(), "a tool call without a name");
      FUZZ_CHECK(!call.id.empty(), "a tool call without an id");
    }
  }
}

template <class Assembler>
void run_assembler(const std::vector<http::sse_event>& events, bool calls_need_ids) {
  // Whole: every event, then finish.
  {
    fuzz::checking_sink sink;
    Assembler assembler(sink);
    bool ok = true;
    for (const auto& e : events) {
      if (auto taken = assembler.on_event(e); !taken) {
        check_error(taken.err());
        ok = false;
        break;
      }
    }
    if (ok) check_finished(assembler.finish(), sink, calls_need_ids);
  }
  // Stopped half way: what arrived so far, marked interrupted.
  {
    fuzz::checking_sink sink;
    Assembler assembler(sink);
    for (std::size_t i = 0; i < events.size() / 2; ++i) {
      if (!assembler.on_event(events[i])) break;
    }
    const llm::model_response response = assembler.interrupt();
    sink.check_response(response);
    FUZZ_CHECK(response.finish_reason == "interrupted", "an interrupted response says " + response.finish_reason);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view stream = as_text(data, size);

  const parse_outcome whole = parse_in_chunks(stream, [] { return std::size_t{0}; });
  const parse_outcome bytewise = parse_in_chunks(stream, [] { return std::size_t{1}; });
  check_same(whole, bytewise, "byte by byte");
  // Chunk sizes from the content, so that every input has its own split, and it is reproducible.
  std::uint32_t state = 2166136261U;
  for (const std::uint8_t byte : stream) state = (state ^ byte) * 16777619U;
  const parse_outcome uneven = parse_in_chunks(stream, [&] {
    state = state * 1103515245U + 12345U;
    return std::size_t{1} + (state >> 16) % 23;
  });
  check_same(whole, uneven, "in uneven chunks");

  for (const auto& e : whole.events) {
    check_event(e);
    if (e.data != "[DONE]") {
      check_chunk_reader(e.data);
      check_event_reader(e.data);
    }
  }
  run_assembler<llm::openai::stream_assembler>(whole.events, true);
  run_assembler<llm::anthropic::stream_assembler>(whole.events, false);

  // The same text as a non-streamed answer body.
  {
    fuzz::checking_sink sink;
    llm::openai::stream_assembler assembler(sink);
    if (auto taken = assembler.on_whole_answer(stream); !taken) {
      check_error(taken.err());
    } else {
      check_finished(assembler.finish(), sink, true);
    }
  }
  if (auto parsed = parse_json(stream); parsed && parsed->is_object()) {
    fuzz::checking_sink sink;
    llm::anthropic::stream_assembler assembler(sink);
    if (auto taken = assembler.on_message(parsed->get_object()); !taken) {
      check_error(taken.err());
    } else {
      check_finished(assembler.finish(), sink, false);
    }
  }
  return 0;
}
