// The field machinery of the typed events: each event struct lists its fields once, in a static
// `fields(self, visitor)` function, and three visitors walk that list — the encoder (struct → wire
// object), the strict decoder (wire object → struct, or an error naming the field path) and the
// schema printer (docs/events.json). One list drives all three, so they cannot disagree.
//
// A field is declared as one of:
//   v.required(name, member)             — always on the wire; absent or mistyped is an error
//   v.optional(name, member)             — `std::optional<T>`: absent means "not given"
//   v.defaulted(name, member, fallback)  — written only when it differs from `fallback`; absent
//                                          reads as `fallback` (fields on the wire only when they
//                                          say something)
//   v.since(name, member, fallback, when) — always written, but added to its type later: absent
//                                          (a log written before `when`) reads as `fallback`.
//                                          This is how an older event version is read.
// Value types: std::string, std::int64_t, bool, enums with an `enum_wire` table, std::vector of
// any of them, nested structs with their own `fields`, and boost::json::object (free-form JSON,
// e.g. a client's metadata).
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <array>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "parley/core/json.hpp"
#include "parley/core/vocabulary.hpp"

namespace parley::events {

// Specialized beside each enum: `static constexpr std::array<std::pair<E, std::string_view>, N>
// values` (every enumerator with its wire string).
template <class E>
struct enum_wire;

template <class E>
concept wire_enum = std::is_enum_v<E> && requires {
  enum_wire<E>::values;
};

template <wire_enum E>
constexpr std::string_view to_wire(E value) noexcept {
  return name_in(enum_wire<E>::values, value);
}

template <wire_enum E>
constexpr std::optional<E> from_wire(std::string_view text) noexcept {
  return lookup_name(enum_wire<E>::values, text);
}

struct field_probe {
  template <class T>
  void required(std::string_view, T&) {}
  template <class T>
  void optional(std::string_view, std::optional<T>&) {}
  template <class T>
  void defaulted(std::string_view, T&, const std::type_identity_t<T>&) {}
  template <class T>
  void since(std::string_view, T&, const std::type_identity_t<T>&, std::string_view) {}
};

// A struct whose fields are listed for the visitors.
template <class T>
concept described = std::is_class_v<T> && requires(T& t, field_probe& v) {
  T::fields(t, v);
};

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

// ---- encoding ------------------------------------------------------------------------------

template <class T>
boost::json::value encode_value(const T& value);

class object_encoder {
 public:
  explicit object_encoder(boost::json::object& out) : out_(out) {}

  template <class T>
  void required(std::string_view name, const T& member) {
    out_[name] = encode_value(member);
  }
  template <class T>
  void optional(std::string_view name, const std::optional<T>& member) {
    if (member) out_[name] = encode_value(*member);
  }
  template <class T>
  void defaulted(std::string_view name, const T& member, const std::type_identity_t<T>& fallback) {
    if (!(member == fallback)) out_[name] = encode_value(member);
  }
  template <class T>
  void since(std::string_view name, const T& member, const std::type_identity_t<T>&, std::string_view) {
    out_[name] = encode_value(member);
  }

 private:
  boost::json::object& out_;
};

template <described T>
boost::json::object encode_object(const T& value) {
  boost::json::object out;
  object_encoder enc(out);
  T::fields(value, enc);
  return out;
}

template <class T>
boost::json::value encode_value(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return boost::json::value(boost::json::string_view(value));
  } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t> ||
                       std::is_same_v<T, boost::json::object>) {
    return boost::json::value(value);
  } else if constexpr (wire_enum<T>) {
    return boost::json::value(boost::json::string_view(to_wire(value)));
  } else if constexpr (is_vector<T>::value) {
    boost::json::array out;
    out.reserve(value.size());
    for (const auto& item : value) out.push_back(encode_value(item));
    return out;
  } else {
    static_assert(described<T>, "a field type the event codec does not know");
    return encode_object(value);
  }
}

// ---- decoding ------------------------------------------------------------------------------

// Why a value does not decode: the path of the field ("usage.inputTokens", "toolCalls[2].name")
// and the problem ("is missing", "is a number, not a string").
struct decode_problem {
  std::string path;
  std::string problem;
};

std::string join_path(std::string_view prefix, std::string_view name);

template <class T>
std::optional<decode_problem> decode_value(const boost::json::value& in, T& out, const std::string& path);

class object_decoder {
 public:
  object_decoder(const boost::json::object& in, std::string prefix) : in_(in), prefix_(std::move(prefix)) {}

  template <class T>
  void required(std::string_view name, T& member) {
    if (problem_) return;
    const auto* value = in_.if_contains(name);
    if (value == nullptr) {
      problem_ = decode_problem{join_path(prefix_, name), "is missing"};
      return;
    }
    problem_ = decode_value(*value, member, join_path(prefix_, name));
  }
  template <class T>
  void optional(std::string_view name, std::optional<T>& member) {
    if (problem_) return;
    const auto* value = in_.if_contains(name);
    if (value == nullptr) {
      member.reset();
      return;
    }
    problem_ = decode_value(*value, member.emplace(), join_path(prefix_, name));
  }
  template <class T>
  void defaulted(std::string_view name, T& member, const std::type_identity_t<T>& fallback) {
    if (problem_) return;
    const auto* value = in_.if_contains(name);
    if (value == nullptr) {
      member = fallback;
      return;
    }
    problem_ = decode_value(*value, member, join_path(prefix_, name));
  }
  template <class T>
  void since(std::string_view name, T& member, const std::type_identity_t<T>& fallback, std::string_view) {
    defaulted(name, member, fallback);
  }

  std::optional<decode_problem> problem() && { return std::move(problem_); }

 private:
  const boost::json::object& in_;
  std::string prefix_;
  std::optional<decode_problem> problem_;
};

template <described T>
std::optional<decode_problem> decode_object(const boost::json::object& in, T& out, const std::string& path) {
  object_decoder dec(in, path);
  T::fields(out, dec);
  return std::move(dec).problem();
}

inline decode_problem wrong_kind(const boost::json::value& in, const std::string& path, std::string_view wanted) {
  return {path, std::string("is ") + json_kind_with_article(in) + ", not " + std::string(wanted)};
}

std::optional<decode_problem> decode_int(const boost::json::value& in, std::int64_t& out, const std::string& path);

template <wire_enum E>
std::optional<decode_problem> decode_enum(const boost::json::value& in, E& out, const std::string& path) {
  if (!in.is_string()) return wrong_kind(in, path, "a string");
  const std::string_view text = in.get_string();
  if (auto value = from_wire<E>(text)) {
    out = *value;
    return std::nullopt;
  }
  std::string known;
  for (const auto& [e, name] : enum_wire<E>::values) {
    known += known.empty() ? "" : "|";
    known += name;
  }
  return decode_problem{path, "is '" + std::string(text.substr(0, 64)) + "', not one of " + known};
}

template <class T>
std::optional<decode_problem> decode_value(const boost::json::value& in, T& out, const std::string& path) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!in.is_string()) return wrong_kind(in, path, "a string");
    out.assign(in.get_string().data(), in.get_string().size());
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!in.is_bool()) return wrong_kind(in, path, "a boolean");
    out = in.get_bool();
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return decode_int(in, out, path);
  } else if constexpr (wire_enum<T>) {
    return decode_enum(in, out, path);
  } else if constexpr (std::is_same_v<T, boost::json::object>) {
    if (!in.is_object()) return wrong_kind(in, path, "an object");
    out = in.get_object();
  } else if constexpr (is_vector<T>::value) {
    if (!in.is_array()) return wrong_kind(in, path, "an array");
    const auto& items = in.get_array();
    out.clear();
    out.resize(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (auto problem = decode_value(items[i], out[i], path + "[" + std::to_string(i) + "]")) return problem;
    }
  } else {
    static_assert(described<T>, "a field type the event codec does not know");
    if (!in.is_object()) return wrong_kind(in, path, "an object");
    return decode_object(in.get_object(), out, path);
  }
  return std::nullopt;
}

// ---- schema --------------------------------------------------------------------------------

template <class T>
boost::json::object schema_of();

class schema_printer {
 public:
  explicit schema_printer(boost::json::object& fields) : fields_(fields) {}

  template <class T>
  void required(std::string_view name, const T&) {
    add(name, schema_of<T>(), true);
  }
  template <class T>
  void optional(std::string_view name, const std::optional<T>&) {
    add(name, schema_of<T>(), false);
  }
  template <class T>
  void defaulted(std::string_view name, const T&, const std::type_identity_t<T>& fallback) {
    auto entry = schema_of<T>();
    entry["default"] = encode_value(fallback);
    add(name, std::move(entry), false);
  }
  template <class T>
  void since(std::string_view name, const T&, const std::type_identity_t<T>& fallback, std::string_view when) {
    auto entry = schema_of<T>();
    entry["default"] = encode_value(fallback);
    entry["since"] = when;
    add(name, std::move(entry), false);
  }

 private:
  void add(std::string_view name, boost::json::object entry, bool required) {
    entry["required"] = required;
    fields_[name] = std::move(entry);
  }
  boost::json::object& fields_;
};

template <described T>
boost::json::object fields_schema() {
  boost::json::object fields;
  schema_printer printer(fields);
  const T sample{};
  T::fields(sample, printer);
  return fields;
}

template <class T>
boost::json::object schema_of() {
  if constexpr (std::is_same_v<T, std::string>) {
    return {{"type", "string"}};
  } else if constexpr (std::is_same_v<T, bool>) {
    return {{"type", "boolean"}};
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return {{"type", "integer"}};
  } else if constexpr (wire_enum<T>) {
    boost::json::array names;
    for (const auto& [e, name] : enum_wire<T>::values) names.emplace_back(boost::json::string_view(name));
    return {{"type", "string"}, {"enum", std::move(names)}};
  } else if constexpr (std::is_same_v<T, boost::json::object>) {
    return {{"type", "object"}, {"note", "free-form"}};
  } else if constexpr (is_vector<T>::value) {
    return {{"type", "array"}, {"items", schema_of<typename T::value_type>()}};
  } else {
    static_assert(described<T>, "a field type the event codec does not know");
    return {{"type", "object"}, {"fields", fields_schema<T>()}};
  }
}

}  // namespace parley::events
