#include "parley/tot/logged_channel.hpp"

#include "parley/core/json_fields.hpp"
#include "parley/tot/log_text.hpp"
#include "parley/tot/protocol_json.hpp"
#include "parley/tot/protocol_names.hpp"

namespace parley::tot {
namespace {

std::string title_of(agent_role role) {
  std::string name(name_of(role));
  name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name;
}

}  // namespace

std::string replay_key(std::string_view role, std::string_view request) {
  return std::string(role) + "\n" + std::string(request);
}

result<recorded_replies> read_recorded_replies(const run_folder& folder) {
  auto calls = folder.read_calls();
  if (!calls) return std::move(calls).err();
  recorded_replies out;
  for (const auto& [name, entries] : *calls) {
    for (const auto& entry : entries) {
      // ask() below writes {role, request, reply, replayed?} for a reply and {role, request, error}
      // for a failed call; other entries of a call file have none of them.
      json_fields in(entry.data, "data");
      const auto role = in.optional_string("role");
      const auto request = in.optional_string("request").value_or("");
      const auto reply = in.optional_string("reply");
      const bool replayed = in.optional_boolean("replayed").value_or(false);  // absent: a reply the model gave
      if (!in.ok()) return make_error(errc::corrupt, name + ": " + in.message());
      if (!role || role->empty() || !reply || replayed) continue;
      out[replay_key(*role, request)].emplace_back(*reply);
    }
  }
  return out;
}

logged_channel::logged_channel(model_channel& inner, run_folder& folder, std::string language)
    : inner_(inner), folder_(folder), language_(std::move(language)) {}

result<void> logged_channel::load_replays() {
  auto replies = read_recorded_replies(folder_);
  if (!replies) return std::move(replies).err();
  replays_ = std::move(*replies);
  return ok();
}

void logged_channel::start_round() {
  open_.erase(agent_role::generator);
  open_.erase(agent_role::evaluator);
}

boost::asio::awaitable<result<std::string>> logged_channel::ask(agent_call& call) {
  const std::string role(name_of(call.role));
  const std::string request = call.messages.empty() ? std::string() : call.messages.back().content;
  auto& slot = open_[call.role];
  if (!slot) slot = std::make_shared<open_file>(open_file{folder_.reserve(call.role), {}});
  // Held by the call: its entries go to the file it opened even if the round has moved on.
  const std::shared_ptr<open_file> opened = slot;
  opened->buffer.add("info", "📤 [" + title_of(call.role) + "] " + text_for(language_, "收到请求", "request received"),
                     {{"request_bytes", request.size()}});
  result<std::string> reply = make_error(errc::internal, "not asked");
  bool replayed = false;
  if (auto found = replays_.find(replay_key(role, request)); found != replays_.end() && !found->second.empty()) {
    reply = found->second.front();
    found->second.erase(found->second.begin());
    ++replayed_;
    replayed = true;
    opened->buffer.add("info", "♻️ [" + title_of(call.role) + "] " +
                                   text_for(language_, "从日志恢复回复", "reply taken from the log"));
  } else {
    reply = co_await inner_.ask(call);
  }
  log_buffer& buffer = opened->buffer;
  if (reply) {
    json::object data{{"role", role}, {"request", request}, {"reply", *reply}, {"dialog", call.conversation}};
    if (replayed) data["replayed"] = true;
    buffer.add("progress", "✓ [" + title_of(call.role) + "] " + text_for(language_, "已回复", "replied"),
               std::move(data));
    if (auto said = reply_error(*reply)) {
      buffer.add("error", "❌ [" + title_of(call.role) + "] " + std::string(name_of(said->code)) + ": " + said->message,
                 {{"error", to_json(*said)}});
    }
  } else {
    buffer.add("error", "❌ [" + title_of(call.role) + "] " + reply.err().message,
               {{"role", role}, {"request", request}, {"error", reply.err().message}});
  }
  // A failed write of the log must not end the search; the run reports it at the end.
  (void)folder_.write(opened->name, buffer);
  co_return reply;
}

}  // namespace parley::tot
