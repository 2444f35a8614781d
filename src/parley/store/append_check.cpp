#include "parley/store/append_check.hpp"

#include "parley/core/json_check.hpp"
#include "parley/core/utf8.hpp"

namespace parley {
namespace {

std::string which_event(const event& ev) {
  return "event " + std::to_string(ev.seq) + " (" + repair_utf8(ev.type).text + ") of dialog " +
         repair_utf8(ev.dialog_id).text;
}

result<void> refuse(const event& ev, const std::string& problem) {
  return make_error(errc::invalid_argument,
                    which_event(ev) + ": " + problem + "; refused, since the log could not read it back");
}

}  // namespace

result<void> check_appendable(const std::vector<event>& batch) {
  for (const event& ev : batch) {
    for (const auto& [name, text] : {std::pair<const char*, const std::string*>{"dialog id", &ev.dialog_id},
                                     {"root id", &ev.root_id},
                                     {"type", &ev.type}}) {
      if (auto bad = first_invalid_utf8(*text))
        return refuse(ev, std::string(name) + ": " + describe_invalid_utf8(*text, *bad));
    }
    if (auto problem = find_unwritable_json(ev.payload, "payload")) return refuse(ev, problem->message());
  }
  return ok();
}

}  // namespace parley
