#include "parley/flow/flow_thread.hpp"

#include "parley/flow/strict_json.hpp"

namespace parley::flow {

thread_message::thread_message(const thread_message& other)
    : id(other.id),
      sender(other.sender),
      text(other.text),
      timestamp(other.timestamp),
      is_virtual(other.is_virtual),
      meta(other.meta),
      sub_thread(other.sub_thread ? std::make_unique<flow_thread>(*other.sub_thread) : nullptr) {}

thread_message& thread_message::operator=(const thread_message& other) {
  if (this != &other) *this = thread_message(other);
  return *this;
}

thread_message::~thread_message() = default;

// The objects below are sized before they are filled: one allocation each instead of a rehash
// per growth (a flow step builds a few dozen of them for its events).
boost::json::object to_json(const thread_settings& settings) {
  boost::json::object out(settings.extra.begin(), settings.extra.end(), settings.extra.size() + 4);
  out["briefStatus"] = boost::json::object{{"phase", settings.phase}};
  if (settings.phase_update_suggestion) {
    out["_phaseUpdateSuggestion"] = boost::json::object{{"phase", settings.phase_update_suggestion->phase},
                                                        {"taskId", settings.phase_update_suggestion->task_id}};
  }
  if (settings.phase_start_index != 0) out["_phaseStartIndex"] = settings.phase_start_index;
  if (!settings.pending_tasks.empty()) {
    boost::json::array tasks;
    tasks.reserve(settings.pending_tasks.size());
    for (const auto& t : settings.pending_tasks) tasks.emplace_back(to_json(t));
    out["_pendingTasks"] = std::move(tasks);
  }
  return out;
}

boost::json::object to_json(const thread_message& message) {
  boost::json::object out(6);
  out["id"] = message.id;
  out["sender"] = message.sender;
  out["text"] = message.text;
  out["timestamp"] = message.timestamp;
  if (message.is_virtual) out["isVirtual"] = true;
  boost::json::object meta(message.meta.begin(), message.meta.end(), message.meta.size() + 1);
  if (message.sub_thread) meta["_thread"] = to_json(*message.sub_thread);
  out["meta"] = std::move(meta);
  return out;
}

boost::json::object to_json(const flow_thread& thread) {
  boost::json::object out(3);
  out["id"] = thread.id;
  boost::json::array messages;
  messages.reserve(thread.messages.size());
  for (const auto& message : thread.messages) messages.emplace_back(to_json(message));
  out["messages"] = std::move(messages);
  out["settings"] = to_json(thread.settings);
  return out;
}

result<thread_settings> settings_from_json(const boost::json::value& value, std::string_view where) {
  auto fields = strict_object::of(value, where);
  if (!fields) return std::move(fields).err();
  thread_settings out;
  auto brief = fields->object_at("briefStatus");
  if (!brief) return std::move(brief).err();
  auto brief_fields = strict_object::of(**brief, fields->path_of("briefStatus"));
  auto phase = brief_fields.string_at("phase");
  if (!phase) return std::move(phase).err();
  out.phase = std::move(*phase);
  auto suggestion = fields->optional_object_at("_phaseUpdateSuggestion");
  if (!suggestion) return std::move(suggestion).err();
  if (*suggestion != nullptr) {
    auto suggestion_fields = strict_object::of(**suggestion, fields->path_of("_phaseUpdateSuggestion"));
    auto next = suggestion_fields.string_at("phase");
    if (!next) return std::move(next).err();
    auto task_id = suggestion_fields.optional_string_at("taskId");
    if (!task_id) return std::move(task_id).err();
    out.phase_update_suggestion = phase_suggestion{std::move(*next), task_id->value_or("")};
  }
  auto start = fields->optional_int_at("_phaseStartIndex");
  if (!start) return std::move(start).err();
  out.phase_start_index = start->value_or(0);
  auto pending = fields->optional_array_at("_pendingTasks");
  if (!pending) return std::move(pending).err();
  if (*pending != nullptr) {
    for (std::size_t i = 0; i < (*pending)->size(); ++i) {
      auto t = task_from_json((**pending)[i], fields->path_of("_pendingTasks." + std::to_string(i)));
      if (!t) return std::move(t).err();
      out.pending_tasks.push_back(std::move(*t));
    }
  }
  for (const auto& [key, field] : fields->object()) {
    if (key != "briefStatus" && key != "_phaseUpdateSuggestion" && key != "_phaseStartIndex" &&
        key != "_pendingTasks") {
      out.extra[key] = field;
    }
  }
  return out;
}

result<thread_message> message_from_json(const boost::json::value& value, std::string_view where) {
  auto fields = strict_object::of(value, where);
  if (!fields) return std::move(fields).err();
  thread_message out;
  auto id = fields->string_at("id");
  if (!id) return std::move(id).err();
  out.id = std::move(*id);
  auto sender = fields->string_at("sender");
  if (!sender) return std::move(sender).err();
  if (*sender != "user" && *sender != "bot") {
    return make_error(errc::invalid_argument,
                      fields->path_of("sender") + ": expected \"user\" or \"bot\", got \"" + *sender + "\"");
  }
  out.sender = std::move(*sender);
  auto text = fields->string_at("text");
  if (!text) return std::move(text).err();
  out.text = std::move(*text);
  auto timestamp = fields->optional_int_at("timestamp");
  if (!timestamp) return std::move(timestamp).err();
  out.timestamp = timestamp->value_or(0);
  auto is_virtual = fields->optional_bool_at("isVirtual");
  if (!is_virtual) return std::move(is_virtual).err();
  out.is_virtual = is_virtual->value_or(false);
  auto meta = fields->optional_object_at("meta");
  if (!meta) return std::move(meta).err();
  if (*meta != nullptr) {
    for (const auto& [key, field] : **meta) {
      if (key != "_thread") out.meta[key] = field;
    }
    if (const auto* sub = (*meta)->if_contains("_thread")) {
      auto sub_thread = thread_from_json(*sub, fields->path_of("meta._thread"));
      if (!sub_thread) return std::move(sub_thread).err();
      out.sub_thread = std::make_unique<flow_thread>(std::move(*sub_thread));
    }
  }
  return out;
}

result<flow_thread> thread_from_json(const boost::json::value& value, std::string_view where) {
  auto fields = strict_object::of(value, where);
  if (!fields) return std::move(fields).err();
  flow_thread out;
  auto id = fields->string_at("id");
  if (!id) return std::move(id).err();
  out.id = std::move(*id);
  auto messages = fields->array_at("messages");
  if (!messages) return std::move(messages).err();
  out.messages.reserve((*messages)->size());
  for (std::size_t i = 0; i < (*messages)->size(); ++i) {
    auto message = message_from_json((**messages)[i], fields->path_of("messages." + std::to_string(i)));
    if (!message) return std::move(message).err();
    out.messages.push_back(std::move(*message));
  }
  const auto* settings = fields->find("settings");
  if (settings == nullptr) return make_error(errc::invalid_argument, fields->path_of("settings") + ": missing");
  auto parsed = settings_from_json(*settings, fields->path_of("settings"));
  if (!parsed) return std::move(parsed).err();
  out.settings = std::move(*parsed);
  return out;
}

thread_message* find_message(flow_thread& thread, std::string_view message_id) {
  for (auto& message : thread.messages) {
    if (message.id == message_id) return &message;
    if (message.sub_thread) {
      if (auto* found = find_message(*message.sub_thread, message_id)) return found;
    }
  }
  return nullptr;
}

}  // namespace parley::flow
