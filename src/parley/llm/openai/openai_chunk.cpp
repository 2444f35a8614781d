#include "parley/llm/openai/openai_chunk.hpp"

#include "parley/core/json.hpp"

namespace parley::llm::openai {

void chunk_tool_call::clear() {
  index = -1;
  id.clear();
  has_function = false;
  name.clear();
  arguments.clear();
}

void chunk_message::clear() {
  present = false;
  reasoning_content.clear();
  reasoning.clear();
  content.clear();
  tool_call_count = 0;
}

namespace {

// The next entry of a list whose buffers are kept from chunk to chunk, cleared.
template <class Entry>
Entry& next_entry(std::vector<Entry>& entries, std::size_t& count) {
  if (count == entries.size()) entries.emplace_back();
  Entry& entry = entries[count++];
  entry.clear();
  return entry;
}

}  // namespace

chunk_tool_call& chunk_message::add_tool_call() { return next_entry(tool_calls, tool_call_count); }

void chunk_choice::clear() {
  index = 0;
  delta.clear();
  message.clear();
  finish_reason.clear();
}

void chunk_fields::clear() {
  usage = chunk_usage{};
  choice_count = 0;
}

chunk_choice& chunk_fields::add_choice() { return next_entry(choices, choice_count); }

namespace {

void assign_string_at(const json::object& obj, std::string_view key, std::string& out) {
  const auto* found = obj.if_contains(key);
  if (found != nullptr && found->is_string()) out.assign(found->get_string());
}

std::optional<std::int64_t> count_at(const json::object& obj, std::string_view key) {
  const auto* found = obj.if_contains(key);
  if (found == nullptr || !(found->is_int64() || found->is_uint64() || found->is_double())) return std::nullopt;
  return json_int_or(obj, key);
}

void message_from(const json::object* fields, chunk_message& out) {
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
    chunk_tool_call& call = out.add_tool_call();
    call.index = json_int_or(*call_fields, "index", -1);
    assign_string_at(*call_fields, "id", call.id);
    if (const auto* function = json_object_at(*call_fields, "function")) {
      call.has_function = true;
      assign_string_at(*function, "name", call.name);
      assign_string_at(*function, "arguments", call.arguments);
    }
  }
}

}  // namespace

void chunk_fields_from(const json::object& chunk, chunk_fields& out) {
  out.clear();
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
  const auto* choices = json_array_at(chunk, "choices");
  if (choices == nullptr) return;
  for (const auto& element : *choices) {
    const auto* fields = element.if_object();
    if (fields == nullptr) continue;
    chunk_choice& choice = out.add_choice();
    choice.index = json_int_or(*fields, "index", 0);
    message_from(json_object_at(*fields, "delta"), choice.delta);
    message_from(json_object_at(*fields, "message"), choice.message);
    assign_string_at(*fields, "finish_reason", choice.finish_reason);
  }
}

}  // namespace parley::llm::openai
