#include "parley/engine/prompts.hpp"

namespace parley::engine {
namespace {

bool chinese(std::string_view language) { return language == "zh"; }

}  // namespace

std::string course_header(std::string_view language, std::string_view tellasker_member, bool fbr) {
  const std::string who = "@" + std::string(tellasker_member);
  if (fbr) {
    return chinese(language)
               ? "这是一次 FBR 支线对话；诉请者对话为 " + who + "（可能与当前对话同一 agent）。"
               : "This is an FBR sideline dialog; the tellasker dialog is " + who + " (may be the same agent).";
  }
  return chinese(language) ? "你是当前被诉请者对话（tellaskee dialog）的主理人；诉请者对话（tellasker dialog）为 " +
                                 who + "（当前发起本次诉请）。"
                           : "You are the responder (tellaskee dialog) for this dialog; the tellasker dialog is " +
                                 who + " (the current caller).";
}

std::string reflection_prompt(std::string_view language, std::string_view goal, std::string_view mood) {
  std::string out =
      chinese(language)
          ? "这是一次自省（self-reflection）对话，对象是你自己的工作。目标：" + std::string(goal) +
                "\n用你的工具回顾、整理；把值得记住的写成记忆文件（.minds/memory/individual/<你的 id>/ 下的 .md）。"
                "每次工具使用都会记为一个自省轮次。最终回复即本次自省的总结。"
          : "This is a self-reflection dialog about your own work. Goal: " + std::string(goal) +
                "\nUse your tools to review and sort things out; write what is worth keeping as memory files "
                "(.md files under .minds/memory/individual/<your id>/). Each tool use is recorded as an "
                "introspection turn. Your final reply is the reflection's summary.";
  if (!mood.empty())
    out += (chinese(language) ? "\n开始时的状态：" : "\nYour state as you begin: ") + std::string(mood);
  return out;
}

std::string media_description_prompt(std::string_view language, bool image) {
  if (image) {
    return chinese(language) ? "用一两句话描述这张图片，让看不到它的人也能明白。只回答描述本身。"
                             : "Describe this image in one or two sentences for someone who cannot see it. "
                               "Answer with the description only.";
  }
  return chinese(language) ? "逐字转写这段录音。只回答转写文本。"
                           : "Transcribe this recording word for word. Answer with the transcription only.";
}

std::string group_rules(std::string_view language, const std::vector<std::string>& humans,
                        const std::vector<std::string>& members) {
  auto names = [](const std::vector<std::string>& ids) {
    std::string out;
    for (const auto& id : ids) out += (out.empty() ? "@" : ", @") + id;
    return out.empty() ? std::string("-") : out;
  };
  return chinese(language)
             ? "这是一个群组对话。人类：" + names(humans) + "；AI 成员：" + names(members) +
                   "。其他参与者的话以 [@名字] 开头；你只回答点名你的消息（或在无人点名时作为默认回答者）。"
             : "This is a group dialog. Humans: " + names(humans) + "; AI members: " + names(members) +
                   ". Words of other participants start with [@name]; you answer the message that mentions you "
                   "(or, when nobody is mentioned, as the default responder).";
}

std::string sideline_rules(std::string_view language, bool fbr) {
  if (fbr) {
    return chinese(language)
               ? "这是 FBR 支线对话：没有工具，也不能发起诉请。只就给定的子问题推理并作答；缺少的上下文请列出后返回。"
                 "回复的第一行必须是 【FBR-直接回复】 或 【FBR-仅推理】。"
               : "This is a Fresh Boots Reasoning sideline dialog: you have no tools and cannot Tellask. Reason "
                 "about the given sub-problem only and answer; list any missing context and return. The first line "
                 "of your reply must be 【FBR-直接回复】 (a direct answer) or 【FBR-仅推理】 (reasoning only).";
  }
  return chinese(language)
             ? "你在一个支线对话中工作。只有当所有被分配的目标都完成时，才能直接回复诉请者，且回复第一行必须是 "
               "【最终完成】。若有目标未完成或缺少关键上下文，先调用 tellaskBack 向诉请者确认，内容第一行为 "
               "【tellaskBack】。你的最终回复会送达当前诉请者。"
             : "You work in a sideline dialog. Reply directly to your tellasker only when every assigned goal is "
               "complete, and start that final reply with the line 【最终完成】. If a goal is incomplete or critical "
               "context is missing, call tellaskBack first (its content starts with 【tellaskBack】). Your final "
               "reply is delivered to the current tellasker.";
}

std::string new_course_prompt(std::string_view language, std::int64_t course) {
  const std::string n = std::to_string(course);
  return chinese(language)
             ? "这是本对话的第 " + n +
                   " 程。之前的消息已清空（clear_mind）；提醒事项和任务文档（Taskdoc）保留了要点。继续任务。"
             : "This is course " + n +
                   " of this dialog. The earlier messages were cleared (clear_mind); your reminders and "
                   "the Taskdoc keep what matters. Continue the task.";
}

std::string context_full_course_prompt(std::string_view language, std::int64_t course) {
  const std::string n = std::to_string(course);
  return chinese(language)
             ? "这是本对话的第 " + n +
                   " 程。上下文窗口将满，运行时已自动开启新一程（clear_mind）；提醒事项和任务文档（Taskdoc）"
                   "保留了要点。继续任务。"
             : "This is course " + n +
                   " of this dialog. The context window was nearly full, so the runtime started a new "
                   "course (clear_mind); your reminders and the Taskdoc keep what matters. Continue the task.";
}

std::string context_health_warning(std::string_view language, std::string_view level, std::int64_t prompt_tokens,
                                   std::int64_t context_window, std::int64_t rounds_left) {
  const std::string used = std::to_string(prompt_tokens) + " / " + std::to_string(context_window);
  if (chinese(language)) {
    if (level != "critical")
      return "## 上下文健康：注意\n上下文已用 " + used +
             " 个 token。把要点记入提醒事项，准备好时用 clear_mind 开启新一程。\n";
    return "## 上下文健康：危急\n上下文已用 " + used + " 个 token。立即把要点写入提醒事项并调用 clear_mind；再过 " +
           std::to_string(rounds_left) + " 轮，运行时将自动开启新一程。\n";
  }
  if (level != "critical") {
    return "## Context health: caution\nThe context holds " + used +
           " tokens. Keep what matters in reminders and call clear_mind when you reach a good point.\n";
  }
  return "## Context health: critical\nThe context holds " + used +
         " tokens. Put what matters into reminders and call clear_mind now; after " + std::to_string(rounds_left) +
         " more round(s) the runtime starts a new course for you.\n";
}

std::string tool_rounds_warning(std::string_view language, std::int64_t rounds_left, std::int64_t max_rounds) {
  const std::string limit = std::to_string(max_rounds);
  if (chinese(language)) {
    if (rounds_left == 0) {
      return "## 轮次将尽\n这是本次驱动的最后一轮（max_tool_rounds = " + limit +
             "）：不要再调用工具，现在给出回复——已完成的内容，以及还剩下什么。\n";
    }
    return "## 轮次将尽\n本轮之后只剩 " + std::to_string(rounds_left) + " 轮（max_tool_rounds = " + limit +
           "）。请收尾：尽快给出回复，说明已完成的内容和还剩下什么。\n";
  }
  if (rounds_left == 0) {
    return "## Last round\nThis is the last model round of this drive (max_tool_rounds = " + limit +
           "): call no more tools; reply now with what is done and what is left.\n";
  }
  return "## Rounds running out\n" + std::to_string(rounds_left) +
         " more round(s) after this one (max_tool_rounds = " + limit +
         "). Wrap up: reply soon with what is done and what is left.\n";
}

std::string with_marker(std::string_view marker, std::string_view content) {
  if (content.substr(0, marker.size()) == marker) return std::string(content);
  return std::string(marker) + "\n" + std::string(content);
}

std::string with_delivery_marker(std::string_view saying, bool fbr) {
  if (!fbr) return with_marker(kFinalMarker, saying);
  if (saying.starts_with(kFbrDirectMarker)) return std::string(saying);
  return with_marker(kFbrReasoningMarker, saying);
}

}  // namespace parley::engine
