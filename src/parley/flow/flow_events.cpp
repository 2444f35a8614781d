#include "parley/flow/flow_events.hpp"

#include "parley/flow/strict_json.hpp"
#include "parley/flow/sub_thread_path.hpp"
#include "parley/model/events/wire.hpp"

namespace parley::flow {

boost::json::object to_payload(const flow_thread_saved& ev) { return {{"thread", to_json(ev.thread)}}; }

boost::json::object to_payload(const flow_thread_appended& ev) {
  boost::json::array appends;
  for (const auto& append : ev.appends) {
    boost::json::array messages;
    for (const auto& message : append.messages) messages.emplace_back(to_json(message));
    appends.emplace_back(boost::json::object{{"path", append.path}, {"messages", std::move(messages)}});
  }
  boost::json::object out{{"appends", std::move(appends)}};
  if (ev.settings) out["settings"] = to_json(*ev.settings);
  return out;
}

boost::json::object to_payload(const flow_message_updated& ev) {
  boost::json::object out{{"messageId", ev.message_id}};
  if (ev.text) out["text"] = *ev.text;
  if (ev.meta) out["meta"] = *ev.meta;
  return out;
}

boost::json::object to_payload(const flow_settings_updated& ev) {
  return {{"path", ev.path}, {"settings", to_json(ev.settings)}};
}

std::string_view type_of(const flow_event& ev) {
  return std::visit([](const auto& typed) { return std::decay_t<decltype(typed)>::kType; }, ev);
}

boost::json::object to_payload(const flow_event& ev) {
  return std::visit([](const auto& typed) { return to_payload(typed); }, ev);
}

result<flow_thread_saved> flow_thread_saved_from_payload(const boost::json::object& payload) {
  const auto* thread = payload.if_contains("thread");
  if (thread == nullptr) return make_error(errc::invalid_argument, "flow_thread_saved.thread: missing");
  auto parsed = thread_from_json(*thread, "flow_thread_saved.thread");
  if (!parsed) return std::move(parsed).err();
  return flow_thread_saved{std::move(*parsed)};
}

result<flow_thread_appended> flow_thread_appended_from_payload(const boost::json::object& payload) {
  auto fields = strict_object::of(payload, "flow_thread_appended");
  flow_thread_appended out;
  auto appends = fields.array_at("appends");
  if (!appends) return std::move(appends).err();
  for (std::size_t i = 0; i < (*appends)->size(); ++i) {
    const std::string where = fields.path_of("appends." + std::to_string(i));
    auto append = strict_object::of((**appends)[i], where);
    if (!append) return std::move(append).err();
    flow_thread_appended::thread_append read;
    auto path = append->string_at("path");
    if (!path) return std::move(path).err();
    if (auto parsed = parse_sub_thread_path(*path); !parsed) {
      return make_error(errc::invalid_argument, append->path_of("path") + ": " + parsed.err().message);
    }
    read.path = std::move(*path);
    auto messages = append->array_at("messages");
    if (!messages) return std::move(messages).err();
    for (std::size_t j = 0; j < (*messages)->size(); ++j) {
      auto message = message_from_json((**messages)[j], append->path_of("messages." + std::to_string(j)));
      if (!message) return std::move(message).err();
      read.messages.push_back(std::move(*message));
    }
    out.appends.push_back(std::move(read));
  }
  if (const auto* settings = fields.find("settings")) {
    auto parsed = settings_from_json(*settings, fields.path_of("settings"));
    if (!parsed) return std::move(parsed).err();
    out.settings = std::move(*parsed);
  }
  return out;
}

result<flow_message_updated> flow_message_updated_from_payload(const boost::json::object& payload) {
  auto fields = strict_object::of(payload, "flow_message_updated");
  flow_message_updated out;
  auto id = fields.string_at("messageId");
  if (!id) return std::move(id).err();
  out.message_id = std::move(*id);
  auto text = fields.optional_string_at("text");
  if (!text) return std::move(text).err();
  out.text = std::move(*text);
  auto meta = fields.optional_object_at("meta");
  if (!meta) return std::move(meta).err();
  if (*meta != nullptr) {
    if (const auto* sub = (*meta)->if_contains("_thread")) {
      auto checked = thread_from_json(*sub, "flow_message_updated.meta._thread");
      if (!checked) return std::move(checked).err();
    }
    out.meta = **meta;
  }
  if (!out.text && !out.meta) {
    return make_error(errc::invalid_argument, "flow_message_updated: neither text nor meta is given");
  }
  return out;
}

result<flow_settings_updated> flow_settings_updated_from_payload(const boost::json::object& payload) {
  auto fields = strict_object::of(payload, "flow_settings_updated");
  flow_settings_updated out;
  auto path = fields.string_at("path");
  if (!path) return std::move(path).err();
  auto parsed_path = parse_sub_thread_path(*path);
  if (!parsed_path) {
    return make_error(errc::invalid_argument, "flow_settings_updated.path: " + parsed_path.err().message);
  }
  out.path = std::move(*path);
  const auto* settings = fields.find("settings");
  if (settings == nullptr) return make_error(errc::invalid_argument, "flow_settings_updated.settings: missing");
  auto parsed = settings_from_json(*settings, "flow_settings_updated.settings");
  if (!parsed) return std::move(parsed).err();
  out.settings = std::move(*parsed);
  return out;
}

result<flow_event> flow_event_from(std::string_view type, const boost::json::object& payload) {
  if (type == flow_thread_saved::kType) {
    auto ev = flow_thread_saved_from_payload(payload);
    if (!ev) return std::move(ev).err();
    return flow_event(std::move(*ev));
  }
  if (type == flow_thread_appended::kType) {
    auto ev = flow_thread_appended_from_payload(payload);
    if (!ev) return std::move(ev).err();
    return flow_event(std::move(*ev));
  }
  if (type == flow_message_updated::kType) {
    auto ev = flow_message_updated_from_payload(payload);
    if (!ev) return std::move(ev).err();
    return flow_event(std::move(*ev));
  }
  if (type == flow_settings_updated::kType) {
    auto ev = flow_settings_updated_from_payload(payload);
    if (!ev) return std::move(ev).err();
    return flow_event(std::move(*ev));
  }
  return make_error(errc::not_found, "not a flow event: " + std::string(type));
}

events::event_payload to_log_payload(const flow_event& ev) {
  return std::visit(
      [](const auto& typed) -> events::event_payload {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (std::is_same_v<T, flow_thread_saved>) {
          return events::flow_thread_saved{to_json(typed.thread)};
        } else if constexpr (std::is_same_v<T, flow_thread_appended>) {
          events::flow_thread_appended out;
          for (const auto& append : typed.appends) {
            events::flow_thread_append wire{append.path, {}};
            wire.messages.reserve(append.messages.size());
            for (const auto& message : append.messages) wire.messages.push_back(to_json(message));
            out.appends.push_back(std::move(wire));
          }
          if (typed.settings) out.settings = to_json(*typed.settings);
          return out;
        } else if constexpr (std::is_same_v<T, flow_message_updated>) {
          return events::flow_message_updated{typed.message_id, typed.text, typed.meta};
        } else {
          return events::flow_settings_updated{typed.path, to_json(typed.settings)};
        }
      },
      ev);
}

result<flow_event> flow_event_from(const events::event_payload& payload) {
  return std::visit(
      [](const auto& wire) -> result<flow_event> {
        using T = std::decay_t<decltype(wire)>;
        if constexpr (std::is_same_v<T, events::flow_thread_saved> || std::is_same_v<T, events::flow_thread_appended> ||
                      std::is_same_v<T, events::flow_message_updated> ||
                      std::is_same_v<T, events::flow_settings_updated>) {
          return flow_event_from(T::kType, events::encode_object(wire));
        } else {
          return make_error(errc::not_found, "not a flow event");
        }
      },
      payload);
}

namespace {

result<void> apply_one(const flow_thread_saved& ev, flow_thread& main) {
  if (!main.id.empty() && ev.thread.id != main.id) {
    return make_error(errc::invalid_argument,
                      "flow_thread_saved: thread " + ev.thread.id + " is not the main thread " + main.id);
  }
  main = ev.thread;
  return ok();
}

result<void> apply_one(const flow_thread_appended& ev, flow_thread& main) {
  // In order, so that an append may reach into a message an earlier one of the same event added
  // (merge_flow_events); whole or not at all: a path that does not resolve takes back what the
  // appends before it added (last first; a sub-thread lives on the heap, so its address holds).
  std::vector<std::pair<flow_thread*, std::size_t>> added;
  for (const auto& append : ev.appends) {
    auto target = get_sub_thread_by_path(main, std::string_view(append.path));
    if (!target) {
      for (auto undo = added.rbegin(); undo != added.rend(); ++undo) {
        undo->first->messages.resize(undo->first->messages.size() - undo->second);
      }
      return make_error(target.err().code, "flow_thread_appended: " + target.err().message);
    }
    for (const auto& message : append.messages) (*target)->messages.push_back(message);
    added.emplace_back(*target, append.messages.size());
  }
  if (ev.settings) main.settings = *ev.settings;
  return ok();
}

result<void> apply_one(const flow_message_updated& ev, flow_thread& main) {
  auto* message = find_message(main, ev.message_id);
  if (message == nullptr) {
    return make_error(errc::not_found, "flow_message_updated: no message " + ev.message_id + " in thread " + main.id);
  }
  std::unique_ptr<flow_thread> sub_thread;
  boost::json::object meta;
  if (ev.meta) {
    for (const auto& [key, field] : *ev.meta) {
      if (key != "_thread") meta[key] = field;
    }
    if (const auto* sub = ev.meta->if_contains("_thread")) {
      auto parsed = thread_from_json(*sub, "flow_message_updated.meta._thread");
      if (!parsed) return std::move(parsed).err();
      sub_thread = std::make_unique<flow_thread>(std::move(*parsed));
    }
  }
  if (ev.text) message->text = *ev.text;
  if (ev.meta) {
    message->meta = std::move(meta);
    message->sub_thread = std::move(sub_thread);
  }
  return ok();
}

result<void> apply_one(const flow_settings_updated& ev, flow_thread& main) {
  auto target = get_sub_thread_by_path(main, std::string_view(ev.path));
  if (!target) return std::move(target).err();
  (*target)->settings = ev.settings;
  return ok();
}

}  // namespace

result<void> apply_flow_event(const flow_event& ev, flow_thread& main) {
  return std::visit([&main](const auto& typed) { return apply_one(typed, main); }, ev);
}

namespace {

std::size_t main_thread_messages_of(const flow_thread_appended& ev) {
  std::size_t count = 0;
  for (const auto& append : ev.appends) {
    if (append.path.empty()) count += append.messages.size();
  }
  return count;
}

bool merge_into_settings(flow_settings_updated& held, flow_event& next) {
  auto* settings = std::get_if<flow_settings_updated>(&next);
  if (settings == nullptr || settings->path != held.path) return false;
  held.settings = std::move(settings->settings);  // replaced whole
  return true;
}

// An update of a message the held appends add: laid over that message. Not when it changes the
// text of a main-thread message, which the records took as it was added.
bool merge_update_into_appended(flow_thread_appended& held, const flow_message_updated& update) {
  for (auto& append : held.appends) {
    for (auto& message : append.messages) {
      if (message.id != update.message_id) continue;
      if (update.text && append.path.empty()) return false;
      flow_thread holder;
      holder.messages.push_back(message);
      if (!apply_one(update, holder)) return false;
      message = std::move(holder.messages.front());
      return true;
    }
  }
  return false;
}

bool merge_into_appended(flow_thread_appended& held, flow_event& next) {
  if (const auto* update = std::get_if<flow_message_updated>(&next)) return merge_update_into_appended(held, *update);
  if (auto* settings = std::get_if<flow_settings_updated>(&next); settings != nullptr && settings->path.empty()) {
    held.settings = std::move(settings->settings);
    return true;
  }
  auto* appended = std::get_if<flow_thread_appended>(&next);
  if (appended == nullptr || main_thread_messages_of(held) + main_thread_messages_of(*appended) > 1) return false;
  for (auto& append : appended->appends) {
    if (!held.appends.empty() && held.appends.back().path == append.path) {
      auto& into = held.appends.back().messages;
      into.insert(into.end(), std::make_move_iterator(append.messages.begin()),
                  std::make_move_iterator(append.messages.end()));
    } else {
      held.appends.push_back(std::move(append));
    }
  }
  if (appended->settings) held.settings = std::move(appended->settings);
  return true;
}

}  // namespace

bool merge_flow_events(flow_event& held, flow_event& next) {
  if (auto* settings = std::get_if<flow_settings_updated>(&held)) {
    if (auto* appended = std::get_if<flow_thread_appended>(&next); appended != nullptr && settings->path.empty()) {
      // The appends do not depend on the main thread's settings, nor these on them.
      if (!appended->settings) appended->settings = std::move(settings->settings);
      held = std::move(*appended);
      return true;
    }
    return merge_into_settings(*settings, next);
  }
  if (auto* appended = std::get_if<flow_thread_appended>(&held)) return merge_into_appended(*appended, next);
  return false;
}

}  // namespace parley::flow
