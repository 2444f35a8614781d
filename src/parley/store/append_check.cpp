#include "parley/store/append_check.hpp"

#include <optional>
#include <string>

#include "parley/core/json_check.hpp"
#include "parley/core/utf8.hpp"
#include "parley/model/event_codec.hpp"

namespace parley {
namespace {

std::string which_event(const event& ev) {
  return "event " + std::to_string(ev.seq) + " (" + repair_utf8(ev.type()).text + ") of dialog " +
         repair_utf8(ev.dialog_id).text;
}

result<void> refuse(const event& ev, const std::string& problem) {
  return make_error(errc::invalid_argument,
                    which_event(ev) + ": " + problem + "; refused, since the log could not read it back");
}

// Walks a typed payload's fields (model/events/wire.hpp) for what JSON text cannot carry: strings
// that are not UTF-8, and non-finite numbers or bad strings inside free-form objects. Integers,
// booleans and enums always write. Cheaper than encoding the payload to check the tree.
class writable_check {
 public:
  explicit writable_check(std::string path) : path_(std::move(path)) {}

  template <class T>
  void required(std::string_view name, const T& member) {
    check(events::join_path(path_, name), member);
  }
  template <class T>
  void optional(std::string_view name, const std::optional<T>& member) {
    if (member) check(events::join_path(path_, name), *member);
  }
  template <class T>
  void defaulted(std::string_view name, const T& member, const std::type_identity_t<T>&) {
    check(events::join_path(path_, name), member);
  }
  template <class T>
  void since(std::string_view name, const T& member, const std::type_identity_t<T>&, std::string_view) {
    check(events::join_path(path_, name), member);
  }

  std::optional<json_problem> problem;

 private:
  template <class T>
  void check(const std::string& path, const T& value) {
    if (problem) return;
    if constexpr (std::is_same_v<T, std::string>) {
      if (auto bad = first_invalid_utf8(value)) problem = json_problem{path, describe_invalid_utf8(value, *bad)};
    } else if constexpr (std::is_same_v<T, boost::json::object>) {
      problem = find_unwritable_json(value, path);
    } else if constexpr (events::is_vector<T>::value) {
      for (std::size_t i = 0; i < value.size() && !problem; ++i) check(path + "[" + std::to_string(i) + "]", value[i]);
    } else if constexpr (events::described<T>) {
      writable_check nested(path);
      T::fields(value, nested);
      problem = std::move(nested.problem);
    }
  }

  std::string path_;
};

std::optional<json_problem> find_unwritable_payload(const events::event_payload& payload) {
  return std::visit(
      [](const auto& p) -> std::optional<json_problem> {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, events::unknown_event>) {
          return find_unwritable_json(p.raw, "payload");
        } else {
          writable_check check("payload");
          T::fields(p, check);
          return std::move(check.problem);
        }
      },
      payload);
}

}  // namespace

result<void> check_appendable(const std::vector<event>& batch) {
  for (const event& ev : batch) {
    const std::string_view type = ev.type();
    for (const auto& [name, text] : {std::pair<const char*, std::string_view>{"dialog id", ev.dialog_id},
                                     {"root id", ev.root_id},
                                     {"type", type}}) {
      if (auto bad = first_invalid_utf8(text))
        return refuse(ev, std::string(name) + ": " + describe_invalid_utf8(text, *bad));
    }
    if (auto problem = find_unwritable_payload(ev.payload)) return refuse(ev, problem->message());
  }
  return ok();
}

}  // namespace parley
