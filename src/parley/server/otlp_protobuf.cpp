#include "parley/server/otlp_protobuf.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

namespace parley::server {
namespace {

// Protobuf's wire types.
constexpr unsigned kVarint = 0;
constexpr unsigned kFixed64 = 1;
constexpr unsigned kLengthDelimited = 2;

// Field numbers of opentelemetry-proto's messages, as the .proto files give them.
namespace field {
constexpr unsigned request_resource_spans = 1;
constexpr unsigned resource_spans_resource = 1;
constexpr unsigned resource_spans_scope_spans = 2;
constexpr unsigned resource_attributes = 1;
constexpr unsigned scope_spans_scope = 1;
constexpr unsigned scope_spans_spans = 2;
constexpr unsigned scope_name = 1;
constexpr unsigned scope_version = 2;
constexpr unsigned span_trace_id = 1;
constexpr unsigned span_span_id = 2;
constexpr unsigned span_parent_span_id = 4;
constexpr unsigned span_name = 5;
constexpr unsigned span_kind = 6;
constexpr unsigned span_start_time = 7;
constexpr unsigned span_end_time = 8;
constexpr unsigned span_attributes = 9;
constexpr unsigned span_status = 15;
constexpr unsigned status_message = 2;
constexpr unsigned status_code = 3;
constexpr unsigned key_value_key = 1;
constexpr unsigned key_value_value = 2;
constexpr unsigned any_string = 1;
constexpr unsigned any_int = 3;
constexpr unsigned any_array = 5;
constexpr unsigned array_values = 1;
}  // namespace field

constexpr std::int64_t kStatusError = 2;

// Protobuf needs each nested message's length before its bytes. Sizes are computed first (plain
// arithmetic), so the whole request is written once into one buffer reserved to its size: no
// nested buffers, no copies.
std::size_t varint_size(std::uint64_t value) {
  std::size_t n = 1;
  for (; value >= 0x80; value >>= 7) ++n;
  return n;
}
std::size_t tag_size(unsigned number) { return varint_size(std::uint64_t{number} << 3); }
// A length-delimited field of `payload` bytes, tag and length included.
std::size_t field_size(unsigned number, std::size_t payload) {
  return tag_size(number) + varint_size(payload) + payload;
}
std::size_t integer_size(unsigned number, std::int64_t value) {
  return tag_size(number) + varint_size(static_cast<std::uint64_t>(value));
}

std::size_t value_payload(const span_attribute& attribute) {
  if (const auto* text = std::get_if<std::string>(&attribute.value)) return field_size(field::any_string, text->size());
  if (const auto* number = std::get_if<std::int64_t>(&attribute.value)) return integer_size(field::any_int, *number);
  std::size_t array = 0;
  for (const auto& item : std::get<std::vector<std::string>>(attribute.value)) {
    array += field_size(field::array_values, field_size(field::any_string, item.size()));
  }
  return field_size(field::any_array, array);
}
std::size_t key_value_payload(const span_attribute& attribute) {
  return field_size(field::key_value_key, attribute.key.size()) +
         field_size(field::key_value_value, value_payload(attribute));
}
std::size_t status_payload(const trace_span& span) {
  return (span.status_message.empty() ? 0 : field_size(field::status_message, span.status_message.size())) +
         integer_size(field::status_code, kStatusError);
}
std::size_t span_payload(const trace_span& span) {
  std::size_t n = field_size(field::span_trace_id, span.trace.size()) + field_size(field::span_span_id, span.id.size());
  if (span.parent) n += field_size(field::span_parent_span_id, span.parent->size());
  n += field_size(field::span_name, span.name.size()) + integer_size(field::span_kind, static_cast<int>(span.kind));
  n += 2 * (tag_size(field::span_start_time) + 8);
  for (const auto& attribute : span.attributes) n += field_size(field::span_attributes, key_value_payload(attribute));
  if (span.error) n += field_size(field::span_status, status_payload(span));
  return n;
}

class writer {
 public:
  explicit writer(std::size_t size) { out_.reserve(size); }
  void varint(std::uint64_t value) {
    while (value >= 0x80) {
      out_ += static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    out_ += static_cast<char>(value);
  }
  void tag(unsigned number, unsigned wire_type) { varint((std::uint64_t{number} << 3) | wire_type); }
  // The head of a nested message whose payload follows.
  void open(unsigned number, std::size_t payload) {
    tag(number, kLengthDelimited);
    varint(payload);
  }
  void bytes(unsigned number, std::string_view data) {
    open(number, data.size());
    out_ += data;
  }
  template <std::size_t N>
  void bytes(unsigned number, const std::array<std::uint8_t, N>& data) {
    bytes(number, std::string_view(reinterpret_cast<const char*>(data.data()), N));
  }
  void integer(unsigned number, std::int64_t value) {
    tag(number, kVarint);
    varint(static_cast<std::uint64_t>(value));  // int64: two's complement, as protobuf encodes it
  }
  void fixed64(unsigned number, std::uint64_t value) {
    tag(number, kFixed64);
    for (int i = 0; i < 8; ++i) out_ += static_cast<char>((value >> (8 * i)) & 0xff);  // little-endian
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

void key_value(writer& w, unsigned number, const span_attribute& attribute) {
  w.open(number, key_value_payload(attribute));
  w.bytes(field::key_value_key, attribute.key);
  w.open(field::key_value_value, value_payload(attribute));
  if (const auto* text = std::get_if<std::string>(&attribute.value)) {
    w.bytes(field::any_string, *text);
  } else if (const auto* number_value = std::get_if<std::int64_t>(&attribute.value)) {
    w.integer(field::any_int, *number_value);
  } else {
    const auto& items = std::get<std::vector<std::string>>(attribute.value);
    std::size_t array = 0;
    for (const auto& item : items) array += field_size(field::array_values, field_size(field::any_string, item.size()));
    w.open(field::any_array, array);
    for (const auto& item : items) {
      w.open(field::array_values, field_size(field::any_string, item.size()));
      w.bytes(field::any_string, item);
    }
  }
}

void span_message(writer& w, const trace_span& span, std::size_t payload) {
  w.open(field::scope_spans_spans, payload);
  w.bytes(field::span_trace_id, span.trace);
  w.bytes(field::span_span_id, span.id);
  if (span.parent) w.bytes(field::span_parent_span_id, *span.parent);
  w.bytes(field::span_name, span.name);
  w.integer(field::span_kind, static_cast<std::int64_t>(span.kind));
  w.fixed64(field::span_start_time, span.start_ns);
  w.fixed64(field::span_end_time, span.end_ns);
  for (const auto& attribute : span.attributes) key_value(w, field::span_attributes, attribute);
  if (span.error) {
    w.open(field::span_status, status_payload(span));
    if (!span.status_message.empty()) w.bytes(field::status_message, span.status_message);
    w.integer(field::status_code, kStatusError);
  }
}

}  // namespace

std::string encode_trace_export(const trace_resource& resource, std::span<const trace_span> spans) {
  std::vector<span_attribute> resource_attributes{{"service.name", resource.service_name}};
  if (!resource.service_version.empty()) resource_attributes.push_back({"service.version", resource.service_version});
  std::size_t resource_size = 0;
  for (const auto& attribute : resource_attributes) {
    resource_size += field_size(field::resource_attributes, key_value_payload(attribute));
  }
  std::size_t scope_size = field_size(field::scope_name, std::string_view("parley").size());
  if (!resource.service_version.empty())
    scope_size += field_size(field::scope_version, resource.service_version.size());
  std::vector<std::size_t> span_sizes;
  span_sizes.reserve(spans.size());
  std::size_t scope_spans_size = field_size(field::scope_spans_scope, scope_size);
  for (const auto& span : spans) {
    span_sizes.push_back(span_payload(span));
    scope_spans_size += field_size(field::scope_spans_spans, span_sizes.back());
  }
  const std::size_t resource_spans_size = field_size(field::resource_spans_resource, resource_size) +
                                          field_size(field::resource_spans_scope_spans, scope_spans_size);
  writer w(field_size(field::request_resource_spans, resource_spans_size));
  w.open(field::request_resource_spans, resource_spans_size);
  w.open(field::resource_spans_resource, resource_size);
  for (const auto& attribute : resource_attributes) key_value(w, field::resource_attributes, attribute);
  w.open(field::resource_spans_scope_spans, scope_spans_size);
  w.open(field::scope_spans_scope, scope_size);
  w.bytes(field::scope_name, "parley");
  if (!resource.service_version.empty()) w.bytes(field::scope_version, resource.service_version);
  for (std::size_t i = 0; i < spans.size(); ++i) span_message(w, spans[i], span_sizes[i]);
  return w.take();
}

}  // namespace parley::server
