#include "parley/model/event_codec.hpp"

#include <array>
#include <limits>
#include <utility>

namespace parley {
namespace events {

std::string join_path(std::string_view prefix, std::string_view name) {
  std::string out(prefix);
  if (!out.empty()) out += '.';
  out += name;
  return out;
}

std::optional<decode_problem> decode_int(const boost::json::value& in, std::int64_t& out, const std::string& path) {
  if (in.is_int64()) {
    out = in.get_int64();
    return std::nullopt;
  }
  if (in.is_uint64()) {
    if (in.get_uint64() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      return decode_problem{path, "is an integer past the range of int64"};
    }
    out = static_cast<std::int64_t>(in.get_uint64());
    return std::nullopt;
  }
  return wrong_kind(in, path, "an integer");
}

}  // namespace events

namespace {

using events::event_payload;

template <class T>
constexpr bool is_typed = !std::is_same_v<T, events::unknown_event>;

using decode_fn = result<event_payload> (*)(const boost::json::object&);

template <class T>
result<event_payload> decode_as(const boost::json::object& wire) {
  T out{};
  if (auto problem = events::decode_object(wire, out, "")) {
    return make_error(errc::corrupt, problem->path + ": " + problem->problem);
  }
  return event_payload(std::move(out));
}

struct decoder_entry {
  std::string_view type;
  decode_fn decode;
};

template <std::size_t... I>
constexpr auto make_decoders(std::index_sequence<I...>) {
  // The last alternative is unknown_event, which has no wire name of its own.
  return std::array<decoder_entry, sizeof...(I)>{
      decoder_entry{std::variant_alternative_t<I, event_payload>::kType,
                    &decode_as<std::variant_alternative_t<I, event_payload>>}...};
}

constexpr auto kDecoders = make_decoders(std::make_index_sequence<std::variant_size_v<event_payload> - 1>{});
static_assert(std::is_same_v<std::variant_alternative_t<std::variant_size_v<event_payload> - 1, event_payload>,
                             events::unknown_event>,
              "unknown_event is the variant's last alternative");

const decoder_entry* find_decoder(std::string_view type) noexcept {
  for (const auto& entry : kDecoders) {
    if (entry.type == type) return &entry;
  }
  return nullptr;
}

std::string_view family_of(std::string_view type) {
  if (type.starts_with("record_") || type == events::turn_window_expired::kType) return "records";
  if (type.starts_with("flow_")) return "flow";
  return "dialog";
}

template <std::size_t... I>
void add_schemas(boost::json::object& out, std::index_sequence<I...>) {
  (
      [&] {
        using T = std::variant_alternative_t<I, event_payload>;
        out[T::kType] = boost::json::object{{"family", family_of(T::kType)}, {"fields", events::fields_schema<T>()}};
      }(),
      ...);
}

}  // namespace

boost::json::object encode_payload(const event_payload& payload) {
  return std::visit(
      [](const auto& p) -> boost::json::object {
        using T = std::decay_t<decltype(p)>;
        if constexpr (is_typed<T>) {
          return events::encode_object(p);
        } else {
          return p.raw;
        }
      },
      payload);
}

result<event_payload> decode_payload(std::string_view type, const boost::json::object& wire) {
  if (const auto* entry = find_decoder(type)) return entry->decode(wire);
  return event_payload(events::unknown_event{std::string(type), wire});
}

bool is_known_event_type(std::string_view type) noexcept { return find_decoder(type) != nullptr; }

boost::json::object event_schema() {
  boost::json::object types;
  add_schemas(types, std::make_index_sequence<std::variant_size_v<event_payload> - 1>{});
  return types;
}

}  // namespace parley
