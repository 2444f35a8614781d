// read_chunk_fields: a SAX handler for Boost.JSON's basic_parser that follows the path of each
// value (object and key, or array) and keeps the values the assembler uses. Everything else is
// walked over without being stored.
#include <boost/json/basic_parser_impl.hpp>

#include <array>
#include <cstdint>

#include "parley/core/json.hpp"
#include "parley/llm/openai/openai_chunk.hpp"

namespace parley::llm::openai {
namespace {

using boost::json::error_code;
using boost::json::string_view;

// What the object or array being read is.
enum class container : std::uint8_t {
  ignored,
  chunk,
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
  ignored,
  chunk,  // the document itself
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

class chunk_handler {
 public:
  // The names Boost.JSON's parser looks up.
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);  // NOLINT(readability-identifier-naming)
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);   // NOLINT(readability-identifier-naming)
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);     // NOLINT(readability-identifier-naming)
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);  // NOLINT(readability-identifier-naming)

  void start() {
    fields_.clear();
    depth_ = 0;
    is_object_ = false;
    needs_full_parse_ = false;
    in_string_ = false;
  }
  // Whether the document was an object the reader took whole.
  bool took_all() const noexcept { return is_object_ && !needs_full_parse_; }
  const chunk_fields& fields() const noexcept { return fields_; }

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }

  bool on_object_begin(error_code& ec) {
    container opened = container::ignored;
    switch (current_field()) {
      case field::chunk:
        is_object_ = true;
        opened = container::chunk;
        break;
      case field::usage:
        fields_.usage = chunk_usage{};
        fields_.usage.present = true;
        opened = container::usage;
        break;
      case field::choice:
        choice_ = &fields_.add_choice();
        opened = container::choice;
        break;
      case field::delta:
      case field::message:
        message_ = current_field() == field::delta ? &choice_->delta : &choice_->message;
        message_->clear();
        message_->present = true;
        opened = container::message;
        break;
      case field::tool_call:
        call_ = &message_->add_tool_call();
        opened = container::tool_call;
        break;
      case field::function:
        call_->has_function = true;
        call_->name.clear();
        call_->arguments.clear();
        opened = container::function;
        break;
      case field::prompt_details:
        fields_.usage.cached_tokens.reset();
        opened = container::prompt_details;
        break;
      case field::completion_details:
        fields_.usage.reasoning_tokens.reset();
        opened = container::completion_details;
        break;
      default:
        not_its_kind(current_field());
        break;
    }
    return open(opened, ec);
  }
  bool on_object_end(std::size_t, error_code&) { return close(); }

  bool on_array_begin(error_code& ec) {
    container opened = container::ignored;
    switch (current_field()) {
      case field::choices:
        fields_.choice_count = 0;
        opened = container::choices;
        break;
      case field::tool_calls:
        message_->tool_call_count = 0;
        opened = container::tool_calls;
        break;
      default:
        not_its_kind(current_field());
        break;
    }
    return open(opened, ec);
  }
  bool on_array_end(std::size_t, error_code&) { return close(); }

  bool on_key_part(string_view part, std::size_t so_far, error_code&) {
    if (so_far == part.size()) key_.clear();
    key_.append(part.data(), part.size());
    return true;
  }
  bool on_key(string_view part, std::size_t size, error_code&) {
    std::string_view key(part.data(), part.size());
    if (size != part.size()) {
      key_.append(part.data(), part.size());
      key = key_;
    }
    frames_[depth_ - 1].key = field_of_key(frames_[depth_ - 1].kind, key);
    return true;
  }

  bool on_string_part(string_view part, std::size_t, error_code&) {
    if (!in_string_) begin_string();
    if (string_ != nullptr) string_->append(part.data(), part.size());
    return true;
  }
  bool on_string(string_view part, std::size_t, error_code&) {
    if (!in_string_) begin_string();
    if (string_ != nullptr) string_->append(part.data(), part.size());
    in_string_ = false;
    return true;
  }

  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t value, string_view, error_code&) { return on_number(value); }
  bool on_uint64(std::uint64_t value, string_view, error_code&) { return on_number(static_cast<std::int64_t>(value)); }
  bool on_double(double value, string_view, error_code&) { return on_number(json_int_from_double(value)); }
  bool on_bool(bool, error_code&) {
    not_its_kind(current_field());
    return true;
  }
  bool on_null(error_code&) {
    // A null error is no error; every other kind of field is as good as absent.
    if (current_field() != field::error) not_its_kind(current_field());
    return true;
  }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }

 private:
  struct frame {
    container kind = container::ignored;
    field key = field::ignored;  // of the member being read, in an object
  };
  // Boost.JSON's default nesting limit is 32; deeper documents fail to parse before reaching this.
  static constexpr std::size_t kMaxDepth = 64;

  field current_field() const noexcept {
    if (depth_ == 0) return field::chunk;
    const frame& in = frames_[depth_ - 1];
    switch (in.kind) {
      case container::choices:
        return field::choice;
      case container::tool_calls:
        return field::tool_call;
      case container::ignored:
        return field::ignored;
      default:
        return in.key;
    }
  }

  bool open(container kind, error_code& ec) {
    if (depth_ == kMaxDepth) {
      ec = boost::json::error::too_deep;
      return false;
    }
    frames_[depth_++] = frame{kind, field::ignored};
    return true;
  }
  bool close() {
    --depth_;
    return true;
  }

  std::string* string_field(field f) {
    switch (f) {
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

  void begin_string() {
    in_string_ = true;
    const field f = current_field();
    string_ = string_field(f);
    if (string_ != nullptr) {
      string_->clear();
    } else {
      not_its_kind(f);
    }
  }

  bool on_number(std::int64_t value) {
    switch (current_field()) {
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
        not_its_kind(current_field());
        break;
    }
    return true;
  }

  // The field holds a value of another kind than the one read from it: as if it were absent, and
  // since the last of repeated keys counts, whatever an earlier one set is undone.
  void not_its_kind(field f) {
    switch (f) {
      case field::chunk:
      case field::error:
        needs_full_parse_ = true;
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
        if (std::string* text = string_field(f)) text->clear();
        break;  // an ignored field, or an element of an array that is not an object
    }
  }

  chunk_fields fields_;
  std::array<frame, kMaxDepth> frames_{};
  std::size_t depth_ = 0;
  // The innermost choice, message and tool call being read (inside them only).
  chunk_choice* choice_ = nullptr;
  chunk_message* message_ = nullptr;
  chunk_tool_call* call_ = nullptr;
  std::string key_;  // a key that arrives in parts
  std::string* string_ = nullptr;
  bool in_string_ = false;
  bool is_object_ = false;
  bool needs_full_parse_ = false;
};

bool only_whitespace(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

}  // namespace

const chunk_fields* read_chunk_fields(std::string_view text) {
  // One parser per thread, reused: its buffers (and the fields') are warm after the first chunks.
  // A chunk is read in one call, so nothing else runs on this thread between reset and use.
  thread_local boost::json::basic_parser<chunk_handler> parser{boost::json::parse_options{}};
  parser.reset();
  parser.handler().start();
  error_code ec;
  const std::size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (ec || !parser.handler().took_all() || !only_whitespace(text.substr(used))) return nullptr;
  return &parser.handler().fields();
}

}  // namespace parley::llm::openai
