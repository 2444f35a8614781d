// read_chunk_fields: the fields of a chunk the assembler uses, read by a json_field_handler.
#include <cstdint>
#include <string_view>

#include "parley/llm/json_field_reader.hpp"
#include "parley/llm/openai/openai_chunk.hpp"

namespace parley::llm::openai {
namespace {

// What the object or array being read is.
enum class container : std::uint8_t {
  ignored = kIgnoredField,
  chunk = kDocumentField + 1,
  choices,
  choice,
  message,  // a choice's delta or message
  tool_calls,
  tool_call,
  function,
  usage,
  prompt_details,
  completion_details,
};

// What a value stands for, from the container it is in and its key there.
enum class field : std::uint8_t {
  ignored = kIgnoredField,
  chunk = kDocumentField,
  error,
  usage,
  choices,
  choice,  // an element of choices
  choice_index,
  delta,
  message,
  finish_reason,
  reasoning_content,
  reasoning,
  content,
  tool_calls,
  tool_call,  // an element of tool_calls
  call_index,
  call_id,
  function,
  function_name,
  function_arguments,
  prompt_tokens,
  completion_tokens,
  prompt_details,
  completion_details,
  cached_tokens,
  reasoning_tokens,
};

// The field `key` names in container `in`. A switch with literal comparisons: a table scanned for
// every key of every chunk cost a sixth of the reading.
field field_of_key(container in, std::string_view key) {
  switch (in) {
    case container::chunk:
      if (key == "choices") return field::choices;
      if (key == "usage") return field::usage;
      if (key == "error") return field::error;
      return field::ignored;
    case container::choice:
      if (key == "delta") return field::delta;
      if (key == "index") return field::choice_index;
      if (key == "finish_reason") return field::finish_reason;
      if (key == "message") return field::message;
      return field::ignored;
    case container::message:
      if (key == "content") return field::content;
      if (key == "reasoning_content") return field::reasoning_content;
      if (key == "reasoning") return field::reasoning;
      if (key == "tool_calls") return field::tool_calls;
      return field::ignored;
    case container::tool_call:
      if (key == "index") return field::call_index;
      if (key == "id") return field::call_id;
      if (key == "function") return field::function;
      return field::ignored;
    case container::function:
      if (key == "arguments") return field::function_arguments;
      if (key == "name") return field::function_name;
      return field::ignored;
    case container::usage:
      if (key == "prompt_tokens") return field::prompt_tokens;
      if (key == "completion_tokens") return field::completion_tokens;
      if (key == "prompt_tokens_details") return field::prompt_details;
      if (key == "completion_tokens_details") return field::completion_details;
      return field::ignored;
    case container::prompt_details:
      return key == "cached_tokens" ? field::cached_tokens : field::ignored;
    case container::completion_details:
      return key == "reasoning_tokens" ? field::reasoning_tokens : field::ignored;
    default:
      return field::ignored;
  }
}

class chunk_handler : public json_field_handler<chunk_handler> {
 public:
  const chunk_fields& fields() const noexcept { return fields_; }
  // The chunk carries an error (the last `error` key is not null): the full parse reports it.
  bool has_error() const noexcept { return error_; }

  void clear_fields() {
    fields_.clear();
    error_ = false;
  }

  static std::uint8_t field_of_key(std::uint8_t in, std::string_view key) {
    return as_byte(openai::field_of_key(static_cast<container>(in), key));
  }

  static std::uint8_t element_field(std::uint8_t array) {
    switch (static_cast<container>(array)) {
      case container::choices:
        return as_byte(field::choice);
      case container::tool_calls:
        return as_byte(field::tool_call);
      default:
        return kIgnoredField;
    }
  }

  std::uint8_t open_object(std::uint8_t value) {
    switch (static_cast<field>(value)) {
      case field::chunk:
        return as_byte(container::chunk);
      case field::usage:
        fields_.usage = chunk_usage{};
        fields_.usage.present = true;
        return as_byte(container::usage);
      case field::choice:
        choice_ = &fields_.add_choice();
        return as_byte(container::choice);
      case field::delta:
      case field::message:
        message_ = static_cast<field>(value) == field::delta ? &choice_->delta : &choice_->message;
        message_->clear();
        message_->present = true;
        return as_byte(container::message);
      case field::tool_call:
        call_ = &message_->add_tool_call();
        return as_byte(container::tool_call);
      case field::function:
        call_->has_function = true;
        call_->name.clear();
        call_->arguments.clear();
        return as_byte(container::function);
      case field::prompt_details:
        fields_.usage.cached_tokens.reset();
        return as_byte(container::prompt_details);
      case field::completion_details:
        fields_.usage.reasoning_tokens.reset();
        return as_byte(container::completion_details);
      default:
        not_its_kind(static_cast<field>(value));
        return kIgnoredField;
    }
  }

  std::uint8_t open_array(std::uint8_t value) {
    switch (static_cast<field>(value)) {
      case field::choices:
        fields_.choice_count = 0;
        return as_byte(container::choices);
      case field::tool_calls:
        message_->tool_call_count = 0;
        return as_byte(container::tool_calls);
      default:
        not_its_kind(static_cast<field>(value));
        return kIgnoredField;
    }
  }

  std::string* string_field(std::uint8_t value) {
    switch (static_cast<field>(value)) {
      case field::finish_reason:
        return &choice_->finish_reason;
      case field::reasoning_content:
        return &message_->reasoning_content;
      case field::reasoning:
        return &message_->reasoning;
      case field::content:
        return &message_->content;
      case field::call_id:
        return &call_->id;
      case field::function_name:
        return &call_->name;
      case field::function_arguments:
        return &call_->arguments;
      default:
        return nullptr;
    }
  }

  void number(std::uint8_t value_field, std::int64_t value) {
    switch (static_cast<field>(value_field)) {
      case field::choice_index:
        choice_->index = value;
        break;
      case field::call_index:
        call_->index = value;
        break;
      case field::prompt_tokens:
        fields_.usage.prompt_tokens = value;
        break;
      case field::completion_tokens:
        fields_.usage.completion_tokens = value;
        break;
      case field::cached_tokens:
        fields_.usage.cached_tokens = value;
        break;
      case field::reasoning_tokens:
        fields_.usage.reasoning_tokens = value;
        break;
      default:
        not_its_kind(static_cast<field>(value_field));
        break;
    }
  }

  void other_value(std::uint8_t value, bool is_null) {
    if (static_cast<field>(value) == field::error) {
      error_ = !is_null;  // a null error is no error
    } else {
      not_its_kind(static_cast<field>(value));  // as good as absent
    }
  }

 private:
  // Since the last of repeated keys counts, whatever an earlier one set is undone.
  void not_its_kind(field f) {
    switch (f) {
      case field::error:
        error_ = true;
        break;
      case field::usage:
        fields_.usage = chunk_usage{};
        break;
      case field::choices:
        fields_.choice_count = 0;
        break;
      case field::choice_index:
        choice_->index = 0;
        break;
      case field::delta:
        choice_->delta.clear();
        break;
      case field::message:
        choice_->message.clear();
        break;
      case field::tool_calls:
        message_->tool_call_count = 0;
        break;
      case field::call_index:
        call_->index = -1;
        break;
      case field::function:
        call_->has_function = false;
        call_->name.clear();
        call_->arguments.clear();
        break;
      case field::prompt_tokens:
        fields_.usage.prompt_tokens.reset();
        break;
      case field::completion_tokens:
        fields_.usage.completion_tokens.reset();
        break;
      case field::prompt_details:
      case field::cached_tokens:
        fields_.usage.cached_tokens.reset();
        break;
      case field::completion_details:
      case field::reasoning_tokens:
        fields_.usage.reasoning_tokens.reset();
        break;
      default:
        if (std::string* text = string_field(as_byte(f))) text->clear();
        break;  // or an element of an array that is not an object: skipped
    }
  }

  chunk_fields fields_;
  // The innermost choice, message and tool call being read (inside them only).
  chunk_choice* choice_ = nullptr;
  chunk_message* message_ = nullptr;
  chunk_tool_call* call_ = nullptr;
  bool error_ = false;
};

}  // namespace

const chunk_fields* read_chunk_fields(std::string_view text) {
  // One parser per thread, reused: its buffers (and the fields') are warm after the first chunks.
  // A chunk is read in one call, so nothing else runs on this thread between reset and use.
  thread_local boost::json::basic_parser<chunk_handler> parser{boost::json::parse_options{}};
  return read_json_fields(parser, text) && !parser.handler().has_error() ? &parser.handler().fields() : nullptr;
}

}  // namespace parley::llm::openai
