#include "parley/flow/task.hpp"

#include "parley/flow/strict_json.hpp"

namespace parley::flow {

std::string task::sub_thread_path() const {
  const auto* path = meta.if_contains("subThreadPath");
  return path != nullptr && path->is_string() ? std::string(path->get_string()) : std::string();
}

bool task::is_retry() const {
  const auto* action = meta.if_contains("_ui_action");
  return action != nullptr && action->is_string() && action->get_string() == "retry";
}

boost::json::object to_json(const task& t) {
  boost::json::object out(6);  // sized once (flow_thread.cpp's to_json says why)
  out["id"] = t.id;
  out["name"] = t.name;
  out["type"] = t.type;
  out["message"] = t.message;
  if (t.skip_user_message) out["skipUserMessage"] = true;
  out["meta"] = t.meta;
  return out;
}

result<task> task_from_json(const boost::json::value& value, std::string_view where) {
  auto fields = strict_object::of(value, where);
  if (!fields) return std::move(fields).err();
  task out;
  auto id = fields->string_at("id");
  if (!id) return std::move(id).err();
  out.id = std::move(*id);
  auto name = fields->string_at("name");
  if (!name) return std::move(name).err();
  out.name = std::move(*name);
  auto type = fields->string_at("type");
  if (!type) return std::move(type).err();
  if (*type != task::kTypeMessage && *type != task::kTypeAction) {
    return make_error(errc::invalid_argument,
                      fields->path_of("type") + ": expected \"message\" or \"action\", got \"" + *type + "\"");
  }
  out.type = std::move(*type);
  auto message = fields->string_at("message");
  if (!message) return std::move(message).err();
  out.message = std::move(*message);
  auto skip = fields->optional_bool_at("skipUserMessage");
  if (!skip) return std::move(skip).err();
  out.skip_user_message = skip->value_or(false);
  auto meta = fields->optional_object_at("meta");
  if (!meta) return std::move(meta).err();
  if (*meta != nullptr) out.meta = **meta;
  if (const auto* path = out.meta.if_contains("subThreadPath"); path != nullptr && !path->is_string()) {
    return make_error(errc::invalid_argument, fields->path_of("meta.subThreadPath") + ": expected a string");
  }
  return out;
}

}  // namespace parley::flow
