#include "parley/model/flow_records.hpp"

#include <boost/json/array.hpp>

namespace parley {
namespace {

std::string text_at(const boost::json::object& object, std::string_view key) {
  const auto* found = object.if_contains(key);
  return found != nullptr && found->is_string() ? std::string(found->get_string()) : std::string();
}

// A message that goes to the records; nullopt for a virtual one or one without a known sender.
std::optional<flow_main_message> record_of(const boost::json::object& message) {
  if (const auto* is_virtual = message.if_contains("isVirtual");
      is_virtual != nullptr && is_virtual->is_bool() && is_virtual->get_bool()) {
    return std::nullopt;
  }
  flow_main_message out{text_at(message, "id"), text_at(message, "sender"), text_at(message, "text")};
  if (out.sender != "user" && out.sender != "bot") return std::nullopt;
  if (const auto* meta = message.if_contains("meta"); meta != nullptr && meta->is_object()) {
    out.placeholder = text_at(meta->get_object(), "_step") == "placeholder";
  }
  return out;
}

std::optional<flow_main_message> last_recorded(const std::vector<const boost::json::object*>& messages) {
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (auto found = record_of(**it)) return found;
  }
  return std::nullopt;
}

}  // namespace

std::optional<flow_main_message> main_message_added(const events::flow_thread_appended& appended) {
  std::vector<const boost::json::object*> added;
  for (const auto& append : appended.appends) {
    if (!append.path.empty()) continue;  // a sub-thread's
    for (const auto& message : append.messages) added.push_back(&message);
  }
  return last_recorded(added);
}

std::optional<flow_main_message> last_main_message(const events::flow_thread_saved& saved) {
  std::vector<const boost::json::object*> messages;
  if (const auto* list = saved.thread.if_contains("messages"); list != nullptr && list->is_array()) {
    for (const auto& message : list->get_array()) {
      if (message.is_object()) messages.push_back(&message.get_object());
    }
  }
  return last_recorded(messages);
}

}  // namespace parley
