#include "parley/engine/context_builder.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>

#include "parley/core/base64.hpp"
#include "parley/core/json.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/prompts.hpp"
#include "parley/engine/skills.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/engine/team_roster_prompt.hpp"
#include "parley/model/multimodal.hpp"

namespace parley::engine {
namespace {

constexpr std::size_t kMaxMemoryBytes = 32 * 1024;

void append_taskdoc(const prompt_setting& setting, std::string& prompt) {
  if (setting.task_doc_path.empty() || setting.workspace == nullptr) return;
  prompt += "\n\n## Taskdoc ";
  prompt += setting.task_doc_path;
  prompt += " (change it with change_mind)\n";
  for (const auto& section : read_taskdoc(*setting.workspace, setting.task_doc_path)) {
    prompt += "### " + section.selector + " (hash " + section.hash + ")\n";
    prompt += section.content.empty() ? std::string("(empty)\n") : section.content;
    if (prompt.back() != '\n') prompt += '\n';
  }
}

// Text as written, without the blank lines and spaces a file ends with.
std::string_view trimmed_end(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  return text;
}

// One section of Dominds' minds (Know-How, Pitfalls, Runtime Environment), in its order and with
// its headings; an empty file adds nothing (Dominds writes "None.", which only costs tokens).
void append_minds_section(std::string& prompt, std::string_view heading, std::string_view text) {
  text = trimmed_end(text);
  if (text.empty()) return;
  prompt += "\n\n## ";
  prompt += heading;
  prompt += "\n\n";
  prompt += text;
}

void append_minds(std::string& prompt, const config::member_config& member, const prompt_setting& setting) {
  const bool zh = setting.language == "zh";
  append_minds_section(prompt, zh ? "经验知识" : "Know-How", member.knowhow);
  append_minds_section(prompt, zh ? "避坑指南" : "Pitfalls", member.pitfalls);
  if (setting.team != nullptr) {
    // Dominds puts the skills index between the Pitfalls and the Runtime Environment.
    if (const auto index = skills_index(setting.language, skills_visible_to(setting.team->skills, member.id));
        !index.empty()) {
      prompt += "\n\n";
      prompt += index;
    }
    append_minds_section(prompt, zh ? "运行环境" : "Runtime Environment", setting.team->environment);
  }
}

dialog_position position_of(const dialog_runtime& dialog) {
  using kind = dialog_position::kind;
  dialog_position position;
  if (!dialog.is_sub()) {
    position.where = dialog.is_group() ? kind::group : kind::root;
    return position;
  }
  const auto& call = dialog.row().call_kind;
  position.where = call == events::call_kind::fresh_boots_reasoning ? kind::fbr
                   : call == events::call_kind::self_reflect        ? kind::reflection
                   : call == events::call_kind::tellask             ? kind::session
                                                                    : kind::sessionless;
  position.session_slug = dialog.row().session_slug;
  if (const auto& assigned = dialog.state().assigned) position.tellasker = assigned->caller_member_id;
  return position;
}

// The Tellask-family tools the member may call in this dialog: those of its place (the function
// set, which a text-syntax member reaches through its text), less what team.yaml dialog_tools omits.
std::vector<std::string_view> tellask_tools_of(const dialog_runtime& dialog, const config::member_config& member) {
  const dialog_place place = dialog.is_fbr()   ? dialog_place::fbr
                             : dialog.is_sub() ? dialog_place::sub
                                               : dialog_place::root;
  std::vector<std::string_view> tools;
  for (const auto& spec : dialog_tool_specs(place, false, member.self_reflection)) {
    if (!is_tellask_call(spec.name) || spec.name == dialog_tool::self_reflect) continue;
    const auto& listed = member.dialog_tools;
    if (listed && std::find(listed->begin(), listed->end(), spec.name) == listed->end()) continue;
    tools.emplace_back(spec.name);
  }
  return tools;
}

std::string system_prompt_for(const dialog_runtime& dialog, const config::member_config& member,
                              const prompt_setting& setting) {
  std::string prompt = identity_line(setting.language, member);
  // A persona read from a block scalar or a file ends with a newline; the sections after it are
  // separated by one blank line all the same.
  const std::string_view persona = trimmed_end(member.persona);
  if (!persona.empty()) {
    prompt += "\n\n";
    prompt += persona;
  }
  // Dominds' order: persona, know-how, pitfalls, skills, runtime environment, then the team directory.
  append_minds(prompt, member, setting);
  if (setting.team != nullptr) {
    roster_input roster{setting.language,
                        setting.team,
                        &member,
                        position_of(dialog),
                        tellask_tools_of(dialog, member),
                        member.tellask_syntax == config::tellask_syntax::text};
    prompt += "\n\n";
    prompt += team_roster_section(roster);
  }
  if (dialog.is_sub()) {
    prompt += "\n\n";
    prompt += sideline_rules(setting.language, dialog.is_fbr());
  }
  if (dialog.is_group()) {
    prompt += "\n\n";
    prompt += group_rules(setting.language, dialog.row().humans, dialog.row().members);
  }
  append_taskdoc(setting, prompt);
  if (setting.memories != nullptr) {
    if (const auto memories = read_memories(*setting.memories, kMaxMemoryBytes); !memories.empty()) {
      prompt += "\n\n## Memories\n" + memories;
    }
  }
  const auto& reminders = dialog.state().reminders;
  if (!reminders.empty()) {
    prompt += "\n\n## Reminders (update_reminder / delete_reminder by number)\n";
    for (std::size_t i = 0; i < reminders.size(); ++i) {
      prompt += std::to_string(i + 1) + ". " + reminders[i] + "\n";
    }
  }
  if (const auto& health = dialog.state().health;
      health.is(events::health_level::caution) || health.is(events::health_level::critical)) {
    const std::int64_t rounds_left =
        std::max<std::int64_t>(setting.critical_context_rounds - health.critical_rounds + 1, 0);
    prompt += "\n\n";
    prompt += context_health_warning(setting.language, events::to_wire(*health.level), health.prompt_tokens,
                                     health.context_window, rounds_left);
  }
  return prompt;
}

// A member without function calling sees calls and results as text (seed 000's syntax is in its
// own sayings already).
llm::chat_message as_text(llm::chat_message msg) {
  if (msg.role == llm::role::tool) {
    msg.role = llm::role::user;
    msg.content = "[" + msg.name + " result]\n" + msg.content;
    msg.tool_call_id.clear();
    msg.name.clear();
  }
  msg.tool_calls.clear();
  return msg;
}

// A human's image or recording: sent as media to a member that takes it, else as the words that
// stand for it (seed 002: caption for images, transcription for audio).
void add_attachment(const events::attachment& attachment, const config::member_config& member,
                    const prompt_setting& setting, llm::chat_message& msg) {
  const bool takes_it = attachment.kind == media_kind::image ? member.vision : member.audio;
  const std::string kind(to_name(attachment.kind));
  if (takes_it && setting.read_attachment != nullptr && *setting.read_attachment) {
    if (auto bytes = (*setting.read_attachment)(attachment.upload_id)) {
      msg.media.push_back(llm::media_part{attachment.kind, attachment.mime, attachment.format, base64_encode(*bytes)});
      return;
    }
  }
  boost::json::object meta{{"format", attachment.format},
                           {"size_kb", attachment.size_kb},
                           {"caption", attachment.caption.value_or("")},
                           {"transcription", attachment.transcription.value_or("")}};
  const std::string words = media_words(kind, meta);
  msg.content = msg.content.empty() ? words : words + "\n" + msg.content;
}

// An image a tool read goes with its result to a member whose model sees (the adapters put it
// where their API takes it); a member whose model no longer does is told it was there.
void add_tool_image(const events::tool_image& image, const config::member_config& member, llm::chat_message& msg) {
  if (!member.vision) {
    msg.content += "\n[the image is not shown: your model does not take images]";
    return;
  }
  msg.media.push_back(llm::media_part{media_kind::image, image.mime, image.format, image.data});
}

}  // namespace

llm::chat_message to_chat_message(const message_row& row, const std::vector<llm::tool_call>& calls) {
  llm::chat_message msg;
  switch (row.role) {
    case events::message_role::assistant:
      msg.role = llm::role::assistant;
      msg.thinking = row.thinking;
      msg.thinking_signature = row.thinking_signature;
      msg.tool_calls = calls;
      break;
    case events::message_role::tool:
      msg.role = llm::role::tool;
      msg.tool_call_id = row.tool_call_id;
      msg.name = row.tool_name;
      break;
    case events::message_role::user:
      msg.role = llm::role::user;
      break;
  }
  msg.content = row.content;
  return msg;
}

namespace {

// Everything of the request but its messages.
llm::model_request request_without_messages(const dialog_runtime& dialog, const config::member_config& member,
                                            llm::tool_list tools, std::int64_t round, const prompt_setting& setting) {
  llm::model_request request;
  request.member_id = member.id;
  request.model = member.model;
  request.system_prompt = system_prompt_for(dialog, member, setting);
  // Told before the limit, not only failed after it: the last rounds of a drive say so, so that a
  // model can wrap up (or say what is left) instead of being cut off mid-task.
  if (const std::int64_t rounds_left = member.max_tool_rounds - round;
      round > 1 && rounds_left >= 0 && rounds_left < kToolRoundsWarned) {
    request.system_prompt += "\n\n";
    request.system_prompt += tool_rounds_warning(setting.language, rounds_left, member.max_tool_rounds);
  }
  request.params = member.model_params;
  request.tools = std::move(tools);
  request.round = round;
  request.dialog_id = dialog.id();
  request.stream = member.streaming;
  return request;
}

}  // namespace

llm::model_request build_model_request(const dialog_runtime& dialog, const config::member_config& member,
                                       llm::tool_list tools, std::int64_t round, const prompt_setting& setting) {
  llm::model_request request = request_without_messages(dialog, member, std::move(tools), round, setting);
  request.messages.reserve(dialog.messages().size());
  const bool text_syntax = member.tellask_syntax == config::tellask_syntax::text;
  const auto& rows = dialog.messages();
  // A call's result can arrive after later messages (a subdialog replies while the human talks);
  // providers want each result right after the message that made the call, so it moves there.
  std::vector<bool> placed(rows.size(), false);
  // In a group the model sees who said what; another member's work (its calls and their results)
  // is not its own, so only that member's sayings reach it, as words of a participant.
  const bool group = dialog.is_group();
  auto from_another_member = [&](const message_row& row) {
    return group && row.role == events::message_role::assistant && !row.speaker.empty() && row.speaker != member.id;
  };
  auto add = [&](std::size_t i) {
    placed[i] = true;
    const auto& row = rows[i];
    if (from_another_member(row)) {
      if (row.content.empty()) return;
      llm::chat_message said;
      said.role = llm::role::user;
      said.content = "[@" + row.speaker + "] " + row.content;
      request.messages.push_back(std::move(said));
      return;
    }
    if (row.role == events::message_role::user && (row.attachment || (group && !row.speaker.empty()))) {
      auto msg = to_chat_message(row, dialog.tool_calls_of(i));
      if (row.attachment) add_attachment(*row.attachment, member, setting, msg);
      if (group && !row.speaker.empty() && dialog.row().humans.size() > 1)
        msg.content = "[@" + row.speaker + "] " + msg.content;
      request.messages.push_back(std::move(msg));
      return;
    }
    if (row.role == events::message_role::tool && row.tool_image) {
      auto msg = to_chat_message(row, dialog.tool_calls_of(i));
      add_tool_image(*row.tool_image, member, msg);
      request.messages.push_back(text_syntax ? as_text(std::move(msg)) : std::move(msg));
      return;
    }
    // A generation cut off before it said anything leaves nothing for the model to read.
    if (row.role == events::message_role::assistant && row.interrupted && row.content.empty() &&
        row.tool_calls.empty()) {
      return;
    }
    auto msg = to_chat_message(row, dialog.tool_calls_of(i));
    request.messages.push_back(text_syntax ? as_text(std::move(msg)) : std::move(msg));
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (placed[i]) continue;
    add(i);
    if (rows[i].role != events::message_role::assistant || rows[i].tool_calls.empty()) continue;
    const bool others_work = from_another_member(rows[i]);
    for (const auto& call : dialog.tool_calls_of(i)) {
      for (std::size_t j = i + 1; j < rows.size(); ++j) {
        if (placed[j]) continue;
        if (rows[j].role == events::message_role::tool && rows[j].tool_call_id == call.id) {
          if (others_work) {
            placed[j] = true;
          } else {
            add(j);
          }
          break;
        }
      }
    }
  }
  return request;
}

}  // namespace parley::engine
