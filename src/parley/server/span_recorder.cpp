#include "parley/server/span_recorder.hpp"

#include "parley/engine/engine.hpp"

namespace parley::server {
namespace {

// gen_ai.provider.name: the semantic conventions' names for the providers they list; the scripted
// model is Parley's own.
std::string provider_name(std::string_view kind) {
  if (kind == "openai" || kind == "anthropic") return std::string(kind);
  // The Responses API, with an API key or Codex CLI's login, is OpenAI's too.
  if (kind == "openai-responses" || kind == "codex") return "openai";
  return "parley." + std::string(kind);
}

constexpr std::size_t kMaxCreatedMembers = 4096;

// How many attributes the spans get at most, reserved at once.
constexpr std::size_t kChatAttributes = 10;
constexpr std::size_t kToolAttributes = 8;

// The events that begin a drive of a dialog that is at rest: input of any kind, or a resumed call.
bool starts_drive(const event& ev) {
  return ev.is<events::user_message>() || ev.is<events::generation_started>() || ev.is<events::tool_result>() ||
         ev.is<events::question_answered>() || ev.is<events::reply_received>() || ev.is<events::drive_resumed>();
}

}  // namespace

std::string span_recorder::member_of(std::string_view dialog_id) const {
  if (const auto* dialog = engine_.find(dialog_id)) return dialog->speaking_member();
  return {};
}

std::string span_recorder::provider_of(const std::string& member_id) const {
  return provider_name(engine_.members().provider_kind_of(member_id));
}

span_recorder::open_dialog& span_recorder::drive_of(const event& ev) {
  if (const auto found = open_.find(ev.dialog_id); found != open_.end()) return found->second;
  open_dialog& dialog = open_[ev.dialog_id];
  trace_span& agent = dialog.agent;
  std::string member = member_of(ev.dialog_id);
  if (const auto created = created_members_.find(ev.dialog_id); created != created_members_.end()) {
    if (member.empty()) member = created->second;
    created_members_.erase(created);
  }
  agent.trace = trace_id_of(ev.root_id);
  agent.id = span_id_of("invoke_agent", ev.dialog_id, std::to_string(ev.seq));
  // A subdialog's drive belongs to the Tellask that assigned it its task: the assignment comes
  // with its first input, and stays in the dialog's state, so a drive resumed by a restarted
  // process finds the same parent.
  const auto* input = ev.as<events::user_message>();
  if (input != nullptr && input->assigned) {
    agent.parent = span_id_of("execute_tool", input->assigned->caller_id, input->assigned->call_id);
  } else if (const auto* runtime = engine_.find(ev.dialog_id); runtime != nullptr && runtime->state().assigned) {
    const auto& assigned = *runtime->state().assigned;
    agent.parent = span_id_of("execute_tool", assigned.caller_id, assigned.call_id);
  }
  agent.start_ns = unix_nanos_now();
  agent.set("gen_ai.operation.name", std::string("invoke_agent"));
  agent.set("gen_ai.agent.id", ev.dialog_id);
  agent.set("gen_ai.conversation.id", ev.root_id);
  dialog.member = std::move(member);  // named when the drive ends (a new root is listed only then)
  return dialog;
}

void span_recorder::start_chat(open_dialog& dialog, const event& ev) {
  trace_span chat;
  chat.attributes.reserve(kChatAttributes);
  chat.trace = dialog.agent.trace;
  chat.id = span_id_of("chat", ev.dialog_id, std::to_string(ev.seq));
  chat.parent = dialog.agent.id;
  chat.kind = span_kind::client;
  chat.start_ns = unix_nanos_now();
  dialog.chat = std::move(chat);
}

void span_recorder::finish_chat(open_dialog& dialog, const event& ev, const events::generation_finished& finished) {
  if (!dialog.chat) start_chat(dialog, ev);  // begun before a restart: its start is not known here
  trace_span& chat = *dialog.chat;
  const std::string member = finished.member_id.value_or(member_of(ev.dialog_id));
  std::string requested;
  if (const auto* config = engine_.team().find_member(member)) requested = config->model;
  const std::string model = finished.model.value_or(requested);
  chat.name = "chat " + model;
  chat.set("gen_ai.operation.name", std::string("chat"));
  chat.set("gen_ai.provider.name", provider_of(member));
  chat.set("gen_ai.request.model", requested);
  chat.set("gen_ai.response.model", model);
  chat.set("gen_ai.conversation.id", ev.root_id);
  chat.set("gen_ai.agent.name", member);
  chat.set("gen_ai.usage.input_tokens", finished.usage.input_tokens);
  chat.set("gen_ai.usage.output_tokens", finished.usage.output_tokens);
  chat.set("gen_ai.response.finish_reasons", std::vector<std::string>{finished.finish_reason});
  if (options_.capture_content && !finished.saying.empty()) {
    chat.set("gen_ai.output.messages", finished.saying);
  }
  if (finished.interrupted) {
    chat.error = true;
    chat.status_message = finished.stop_reason.value_or("interrupted");
  }
  end(chat);
  dialog.chat.reset();
  for (const auto& call : finished.tool_calls) {
    trace_span tool;
    tool.attributes.reserve(kToolAttributes);
    tool.trace = dialog.agent.trace;
    tool.id = span_id_of("execute_tool", ev.dialog_id, call.id);
    tool.parent = dialog.agent.id;
    tool.name = "execute_tool " + call.name;
    tool.start_ns = unix_nanos_now();
    tool.set("gen_ai.operation.name", std::string("execute_tool"));
    tool.set("gen_ai.tool.name", call.name);
    tool.set("gen_ai.tool.call.id", call.id);
    tool.set("gen_ai.tool.type", std::string("function"));
    tool.set("gen_ai.conversation.id", ev.root_id);
    if (options_.capture_content) tool.set("gen_ai.tool.call.arguments", call.arguments);
    dialog.tools.insert_or_assign(call.id, std::move(tool));
  }
}

void span_recorder::finish_tool(open_dialog& dialog, std::string_view call_id, bool ok, const std::string& content) {
  const auto found = dialog.tools.find(call_id);
  if (found == dialog.tools.end()) return;  // called before a restart, or already answered
  trace_span& tool = found->second;
  if (!ok) {
    tool.error = true;
    tool.status_message = "the tool failed";
    tool.set("error.type", std::string("tool_error"));
  }
  if (options_.capture_content) tool.set("gen_ai.tool.call.result", content);
  end(tool);
  dialog.tools.erase(found);
}

void span_recorder::end(trace_span& span) {
  span.end_ns = std::max(unix_nanos_now(), span.start_ns);
  sink_(std::move(span));
}

void span_recorder::on_event(const event& ev) {
  if (const auto* created = ev.as<events::dialog_created>()) {
    // Only a fallback for the first drive's name: bounded, in case dialogs are made that are never
    // driven here (a flow member's run by the flow layer).
    if (created_members_.size() >= kMaxCreatedMembers) created_members_.clear();
    created_members_.insert_or_assign(ev.dialog_id, created->member_id);
    return;
  }
  if (!open_.contains(ev.dialog_id) && !starts_drive(ev)) return;
  open_dialog& dialog = drive_of(ev);
  if (ev.is<events::generation_started>()) {
    start_chat(dialog, ev);
  } else if (const auto* finished = ev.as<events::generation_finished>()) {
    finish_chat(dialog, ev, *finished);
  } else if (const auto* result = ev.as<events::tool_result>()) {
    finish_tool(dialog, result->call_id, result->ok, result->content);
  } else if (const auto* reply = ev.as<events::reply_received>(); reply != nullptr && !reply->call_id.empty()) {
    finish_tool(dialog, reply->call_id, true, reply->content);  // a Tellask's answer is its result
  } else if (const auto* failed = ev.as<events::drive_failed>()) {
    dialog.agent.error = true;
    dialog.agent.status_message = failed->message;
    if (dialog.chat) {
      dialog.chat->error = true;
      dialog.chat->status_message = failed->message;
      dialog.chat->name = "chat";
      end(*dialog.chat);
      dialog.chat.reset();
    }
  }
}

void span_recorder::on_drive_finished(std::string_view dialog_id) {
  const auto found = open_.find(dialog_id);
  if (found == open_.end()) return;
  // Tool calls still open (a Tellask whose subdialog works on, a question for the human) end
  // with the drive that made them: a span cannot wait days for an answer.
  open_dialog& dialog = found->second;
  for (auto& [call_id, tool] : dialog.tools) end(tool);
  if (dialog.member.empty()) dialog.member = member_of(dialog_id);
  dialog.agent.name = "invoke_agent " + dialog.member;
  dialog.agent.set("gen_ai.agent.name", dialog.member);
  dialog.agent.set("gen_ai.provider.name", provider_of(dialog.member));
  end(dialog.agent);
  open_.erase(found);
}

}  // namespace parley::server
