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

class writer {
 public:
  void varint(std::uint64_t value) {
    while (value >= 0x80) {
      out_ += static_cast<char>((value & 0x7f) | 0x80);
      value >>= 7;
    }
    out_ += static_cast<char>(value);
  }
  void tag(unsigned number, unsigned wire_type) { varint((std::uint64_t{number} << 3) | wire_type); }
  void bytes(unsigned number, std::string_view data) {
    tag(number, kLengthDelimited);
    varint(data.size());
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
  // A nested message: written into a buffer of its own by `fill`, then length-prefixed here. The
  // buffers are kept per nesting depth and reused, so a batch of spans allocates next to nothing.
  template <class Fill>
  void message(unsigned number, Fill fill) {
    thread_local std::vector<std::string> scratch;
    if (scratch.size() <= depth_) scratch.resize(depth_ + 1);
    writer inner(std::move(scratch[depth_]), depth_ + 1);
    inner.out_.clear();
    fill(inner);
    bytes(number, inner.out_);
    scratch[depth_] = std::move(inner.out_);
  }
  std::string take() { return std::move(out_); }

  writer() = default;

 private:
  writer(std::string buffer, std::size_t depth) : out_(std::move(buffer)), depth_(depth) {}
  std::string out_;
  std::size_t depth_ = 0;
};

void any_value(writer& w, const std::string& text) { w.bytes(field::any_string, text); }

void key_value(writer& w, unsigned number, const span_attribute& attribute) {
  w.message(number, [&](writer& kv) {
    kv.bytes(field::key_value_key, attribute.key);
    kv.message(field::key_value_value, [&](writer& value) {
      if (const auto* text = std::get_if<std::string>(&attribute.value)) {
        any_value(value, *text);
      } else if (const auto* number_value = std::get_if<std::int64_t>(&attribute.value)) {
        value.integer(field::any_int, *number_value);
      } else {
        value.message(field::any_array, [&](writer& array) {
          for (const auto& item : std::get<std::vector<std::string>>(attribute.value)) {
            array.message(field::array_values, [&](writer& element) { any_value(element, item); });
          }
        });
      }
    });
  });
}

void span_message(writer& w, const trace_span& span) {
  w.bytes(field::span_trace_id, span.trace);
  w.bytes(field::span_span_id, span.id);
  if (span.parent) w.bytes(field::span_parent_span_id, *span.parent);
  w.bytes(field::span_name, span.name);
  w.integer(field::span_kind, static_cast<std::int64_t>(span.kind));
  w.fixed64(field::span_start_time, span.start_ns);
  w.fixed64(field::span_end_time, span.end_ns);
  for (const auto& attribute : span.attributes) key_value(w, field::span_attributes, attribute);
  if (span.error) {
    w.message(field::span_status, [&](writer& status) {
      if (!span.status_message.empty()) status.bytes(field::status_message, span.status_message);
      status.integer(field::status_code, kStatusError);
    });
  }
}

}  // namespace

std::string encode_trace_export(const trace_resource& resource, std::span<const trace_span> spans) {
  writer request;
  request.message(field::request_resource_spans, [&](writer& resource_spans) {
    resource_spans.message(field::resource_spans_resource, [&](writer& r) {
      key_value(r, field::resource_attributes, span_attribute{"service.name", resource.service_name});
      if (!resource.service_version.empty()) {
        key_value(r, field::resource_attributes, span_attribute{"service.version", resource.service_version});
      }
    });
    resource_spans.message(field::resource_spans_scope_spans, [&](writer& scope_spans) {
      scope_spans.message(field::scope_spans_scope, [&](writer& scope) {
        scope.bytes(field::scope_name, "parley");
        if (!resource.service_version.empty()) scope.bytes(field::scope_version, resource.service_version);
      });
      for (const auto& span : spans) {
        scope_spans.message(field::scope_spans_spans, [&](writer& w) { span_message(w, span); });
      }
    });
  });
  return request.take();
}

}  // namespace parley::server
