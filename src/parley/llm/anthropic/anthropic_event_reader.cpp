// read_event_fields: the fields of a stream event the assembler reads, by a json_field_handler.
#include <cstdint>
#include <string_view>

#include "parley/llm/anthropic/anthropic_event.hpp"
#include "parley/llm/json_field_reader.hpp"

namespace parley::llm::anthropic {

void event_delta::clear() {
  present = false;
  type.clear();
  text.clear();
  thinking.clear();
  signature.clear();
  partial_json.clear();
}

void event_fields::clear() {
  type.clear();
  index = 0;
  delta.clear();
}

namespace {

enum class container : std::uint8_t { ignored = kIgnoredField, event = kDocumentField + 1, delta };

enum class field : std::uint8_t {
  ignored = kIgnoredField,
  event = kDocumentField,
  type,
  index,
  delta,
  delta_type,
  text,
  thinking,
  signature,
  partial_json,
};

class event_handler : public json_field_handler<event_handler> {
 public:
  const event_fields& fields() const noexcept { return fields_; }

  void clear_fields() { fields_.clear(); }

  static std::uint8_t field_of_key(std::uint8_t in, std::string_view key) {
    if (static_cast<container>(in) == container::event) {
      if (key == "type") return as_byte(field::type);
      if (key == "index") return as_byte(field::index);
      if (key == "delta") return as_byte(field::delta);
      return kIgnoredField;
    }
    if (key == "type") return as_byte(field::delta_type);
    if (key == "text") return as_byte(field::text);
    if (key == "partial_json") return as_byte(field::partial_json);
    if (key == "thinking") return as_byte(field::thinking);
    if (key == "signature") return as_byte(field::signature);
    return kIgnoredField;
  }

  static std::uint8_t element_field(std::uint8_t) { return kIgnoredField; }

  std::uint8_t open_object(std::uint8_t value) {
    if (static_cast<field>(value) == field::event) return as_byte(container::event);
    if (static_cast<field>(value) == field::delta) {
      fields_.delta.clear();
      fields_.delta.present = true;
      return as_byte(container::delta);
    }
    not_its_kind(static_cast<field>(value));
    return kIgnoredField;
  }

  std::uint8_t open_array(std::uint8_t value) {
    not_its_kind(static_cast<field>(value));
    return kIgnoredField;
  }

  std::string* string_field(std::uint8_t value) {
    switch (static_cast<field>(value)) {
      case field::type:
        return &fields_.type;
      case field::delta_type:
        return &fields_.delta.type;
      case field::text:
        return &fields_.delta.text;
      case field::thinking:
        return &fields_.delta.thinking;
      case field::signature:
        return &fields_.delta.signature;
      case field::partial_json:
        return &fields_.delta.partial_json;
      default:
        return nullptr;
    }
  }

  void number(std::uint8_t value_field, std::int64_t value) {
    if (static_cast<field>(value_field) == field::index) {
      fields_.index = value;
    } else {
      not_its_kind(static_cast<field>(value_field));
    }
  }

  void other_value(std::uint8_t value, bool) { not_its_kind(static_cast<field>(value)); }

 private:
  // A value of another kind than the field takes: as if absent, undoing an earlier repeat of it.
  void not_its_kind(field f) {
    if (f == field::index) {
      fields_.index = 0;
    } else if (f == field::delta) {
      fields_.delta.clear();
    } else if (std::string* text = string_field(as_byte(f))) {
      text->clear();
    }
  }

  event_fields fields_;
};

}  // namespace

const event_fields* read_event_fields(std::string_view text) {
  // One parser per thread, reused (see read_chunk_fields).
  thread_local boost::json::basic_parser<event_handler> parser{boost::json::parse_options{}};
  return read_json_fields(parser, text) ? &parser.handler().fields() : nullptr;
}

}  // namespace parley::llm::anthropic
