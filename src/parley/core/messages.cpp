#include "parley/core/messages.hpp"

#include <array>

namespace parley {

namespace {

// Chinese wording follows Dominds' (dominds@1.29.0) where it has the term: 对话 dialog, 支线对话
// subdialog, 诉请 Tellask, 问题 a question for a human.
constexpr std::array<message_text, static_cast<std::size_t>(msg::count_)> kMessageCatalog{{
    {msg::questions_wait_one, "1 question waits for you: see `{command}`", "有 1 个问题等你回答：见 `{command}`"},
    {msg::questions_wait_many, "{n} questions wait for you: see `{command}`", "有 {n} 个问题等你回答：见 `{command}`"},
    {msg::dialog_named, "dialog {id}", "对话 {id}"},
    {msg::dialog_stopped_try_again, "dialog {id} stopped: {error}; to try again: {command}",
     "对话 {id} 已停止：{error}；重试：{command}"},
    {msg::member_talks_to, "@{member} talks to {model}", "@{member} 使用 {model}"},
    {msg::unknown_member, "unknown member '{member}'", "团队里没有成员 '{member}'"},
    {msg::did_you_mean_member, " (did you mean '{best}'?); try: {command}", "（是否是 '{best}'？）；试试：{command}"},
    {msg::resumed_none, "0 dialog(s) resumed", "没有需要恢复的对话"},
    {msg::resumed_some, "{n} dialog(s) resumed: {ids}", "已恢复 {n} 个对话：{ids}"},
    {msg::status_now, "{id} is {status}", "{id} 的状态现为 {status}"},
    {msg::titled, "{id} is titled: {title}", "{id} 的标题：{title}"},
    {msg::next_page, "next page: {command}", "下一页：{command}"},
    {msg::overview_questions_one, "1 question waits for you:", "有 1 个问题等你回答："},
    {msg::overview_questions_many, "{n} questions wait for you:", "有 {n} 个问题等你回答："},
    {msg::overview_answer_hint, "  read and answer them: {command}", "  阅读并回答：{command}"},
    {msg::overview_owed_one, "1 dialog at work or owed a drive:", "1 个对话正在工作或待驱动："},
    {msg::overview_owed_many, "{n} dialogs at work or owed a drive:", "{n} 个对话正在工作或待驱动："},
    {msg::overview_drive_again, "  drive them again if no server does: {command}",
     "  若没有服务器在驱动它们，重新驱动：{command}"},
    {msg::overview_failed, "dialog {id} stopped: {error}\n  try again: {command}",
     "对话 {id} 已停止：{error}\n  重试：{command}"},
    {msg::overview_open_one, "1 dialog open: {command}", "1 个对话进行中：{command}"},
    {msg::overview_open_many, "{n} dialogs open: {command}", "{n} 个对话进行中：{command}"},
    {msg::overview_nothing_waits, "nothing waits for you; start a dialog: {command}",
     "没有等你处理的事；开始一个对话：{command}"},
    {msg::stream_connection_lost,
     "[connection lost: {reason}; what was shown above is discarded and the model is asked again]",
     "[连接中断：{reason}；以上输出作废，重新询问模型]"},
    {msg::stream_interrupted, "[generation interrupted]", "[生成已中断]"},
    {msg::stream_drive_failed, "[drive failed: {error}]", "[驱动失败：{error}]"},
    {msg::stream_thinking, "(thinking) ", "（思考）"},
    {msg::stream_tool_error, "← error: ", "← 出错："},
    {msg::show_last_drive_failed, "[last drive failed: {error}]", "[上次驱动失败：{error}]"},
    {msg::show_forked_from, "forked from {id} at event {seq}", "分叉自 {id}（第 {seq} 个事件）"},
    {msg::tot_run_started, "ToT run {task} (root dialog {root})", "ToT 运行 {task}（根对话 {root}）"},
    {msg::tot_run_stats, "llm calls {calls}, nodes {nodes}", "模型调用 {calls} 次，节点 {nodes} 个"},
    {msg::overview_in_dialog, "  @{member} in dialog {id}", "  @{member} 在对话 {id}"},
    {msg::overview_in_subdialog, "  @{member} in subdialog {id}", "  @{member} 在支线对话 {id}"},
    {msg::questions_none, "no open questions", "没有待回答的问题"},
    {msg::question_asked, "{at}  @{member} in dialog {id} (root {root}, course {course}, event {seq})",
     "{at}  @{member} 在对话 {id}（根对话 {root}，第 {course} 程，事件 {seq}）"},
    {msg::question_answer_hint, "  answer: {command}", "  回答：{command}"},
    {msg::show_header, "dialog {id} · @{member} · {state} · course {course} · {usage}",
     "对话 {id} · @{member} · {state} · 第 {course} 程 · {usage}"},
    {msg::show_course, "— course {n} —", "— 第 {n} 程 —"},
    {msg::transcript_thinking, "  (thinking)", "  （思考）"},
    {msg::transcript_interrupted, "  [interrupted]", "  [已中断]"},
    {msg::transcript_tool_result, "  ← {tool}:", "  ← {tool}："},
    {msg::transcript_tool_error, "  ← error from {tool}:", "  ← {tool} 出错："},
}};

// The catalog is indexed by id: an entry out of place would say another message.
constexpr bool catalog_in_id_order() {
  for (std::size_t i = 0; i < kMessageCatalog.size(); ++i) {
    if (static_cast<std::size_t>(kMessageCatalog[i].id) != i) return false;
  }
  return true;
}
static_assert(catalog_in_id_order(), "kMessageCatalog must list the messages in the order of enum msg");

}  // namespace

std::span<const message_text> message_catalog() { return kMessageCatalog; }

std::string say(msg id, std::string_view language, std::initializer_list<msg_arg> args) {
  const auto& entry = kMessageCatalog.at(static_cast<std::size_t>(id));
  const std::string_view text = language == "zh" ? entry.zh : entry.en;
  std::string out;
  out.reserve(text.size() + 32);
  std::size_t at = 0;
  while (at < text.size()) {
    const auto open = text.find('{', at);
    const auto close = open == std::string_view::npos ? open : text.find('}', open);
    if (close == std::string_view::npos) break;
    out += text.substr(at, open - at);
    const std::string_view name = text.substr(open + 1, close - open - 1);
    const msg_arg* given = nullptr;
    for (const auto& arg : args) {
      if (arg.first == name) given = &arg;
    }
    out += given != nullptr ? given->second : text.substr(open, close - open + 1);
    at = close + 1;
  }
  if (at < text.size()) out += text.substr(at);
  return out;
}

std::string placeholders_of(std::string_view text) {
  std::string names;
  for (std::size_t at = text.find('{'); at != std::string_view::npos; at = text.find('{', at + 1)) {
    const auto close = text.find('}', at);
    if (close == std::string_view::npos) break;
    if (!names.empty()) names += ',';
    names += text.substr(at + 1, close - at - 1);
  }
  return names;
}

}  // namespace parley
