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
    {msg::err_invalid_argument, "invalid input", "输入无效"},
    {msg::err_not_found, "not found", "未找到"},
    {msg::err_conflict, "conflict", "状态冲突"},
    {msg::err_limit_exceeded, "over a limit", "超出限制"},
    {msg::err_config_error, "configuration error", "配置有误"},
    {msg::err_io_error, "file or database error", "读写失败"},
    {msg::err_corrupt, "corrupt data", "数据损坏"},
    {msg::err_provider_error, "model provider error", "模型服务出错"},
    {msg::err_cancelled, "cancelled", "已取消"},
    {msg::err_internal, "internal error", "内部错误"},
    {msg::err_storage_full, "storage full", "存储空间已满"},
    {msg::err_unavailable, "unavailable for now", "暂不可用"},
    {msg::error_with_kind, "{kind}: {message}", "{kind}：{message}"},
    {msg::line_problem, "problem: {text}", "问题：{text}"},
    {msg::line_warning, "warning: {text}", "警告：{text}"},
    {msg::line_note, "note: {text}", "注意：{text}"},
    {msg::unknown_verb, "unknown verb '{verb}'", "没有动词 '{verb}'"},
    {msg::did_you_mean_word, " (did you mean '{best}'?)", "（是否是 '{best}'？）"},
    {msg::see_help, "; see parley --help", "；见 parley --help"},
    {msg::try_command, "; try: {command}", "；试试：{command}"},
    {msg::unknown_option_try, "unknown option --{name} (did you mean --{best}?); try: {command}",
     "没有选项 --{name}（是否是 --{best}？）；试试：{command}"},
    {msg::argument_not_utf8, "argument {n} ('{arg}'): {problem}", "第 {n} 个参数（'{arg}'）：{problem}"},
    {msg::usage_head, "usage: ", "用法："},
    {msg::usage_any, "usage: parley <verb> [options]; see parley --help",
     "用法：parley <verb> [options]；见 parley --help"},
    {msg::help_head, "usage: parley <verb> [options]   (parley VERB --help: one verb)",
     "用法：parley <verb> [options]   （parley VERB --help：只看一个动词）"},
    {msg::help_common,
     "common options: --data DIR (default ./.parley); --store postgresql://... (or $PARLEY_STORE): the dialogs in "
     "PostgreSQL instead of DIR's SQLite file, shared by several `parley serve` (docs/scale-out.md); -- ends the "
     "options (what follows is a positional, even --help)\n  run, say, answer, resume, dead, serve and mcp refuse a "
     "data directory inside the team's workspace\n  unless given --allow-data-in-workspace (the file tools refuse it "
     "either way)\n  the text follows the team's language (without a team: PARLEY_LANG or LANG=zh_*); scripts read "
     "--json\n",
     "通用选项：--data DIR（默认 ./.parley）；--store postgresql://...（或 $PARLEY_STORE）：对话存入 PostgreSQL 而不是 "
     "DIR 里的 SQLite 文件，可由多个 `parley serve` 共用（docs/scale-out.md）；-- 结束选项（其后都是位置参数，--help "
     "也是）\n  run、say、answer、resume、dead、serve 和 mcp 拒绝团队工作区里的数据目录，\n  除非给了 "
     "--allow-data-in-workspace（文件工具无论如何都拒绝它）\n  文字跟随团队的 language（没有团队时跟随 PARLEY_LANG 或 "
     "LANG=zh_*）；脚本请读 --json\n"},
    {msg::dialogs_headings, "ID MEMBER STATUS STATE COURSE QUESTIONS PENDING TOKENS COST TITLE",
     "编号 成员 状态 进展 程 问题 待办子对话 令牌 费用 标题"},
    {msg::dialogs_team_usage, "team: {usage}", "团队：{usage}"},
    {msg::offline_scripted, "offline — answers come from the built-in scripted model, not a real LLM",
     "离线——回答来自内置的脚本模型，不是真正的大模型"},
    {msg::flows_resumed_one, "resumed 1 flow from the log", "已从日志恢复 1 个流程"},
    {msg::flows_resumed_many, "resumed {n} flows from the log", "已从日志恢复 {n} 个流程"},
    {msg::not_resumed, "not resumed: {problem}", "未恢复：{problem}"},
    {msg::traces_go_to, "traces go to {endpoint}", "追踪数据发往 {endpoint}"},
    {msg::traces_with_content, " (with message content)", "（含消息内容）"},
    {msg::not_recovered_see, "not recovered: {problem} (see `{command}`)", "未恢复：{problem}（见 `{command}`）"},
    {msg::not_recovered, "not recovered: {problem}", "未恢复：{problem}"},
    {msg::recovered_one, "recovered 1 running dialog from the log", "已从日志恢复 1 个运行中的对话"},
    {msg::recovered_many, "recovered {n} running dialogs from the log", "已从日志恢复 {n} 个运行中的对话"},
    {msg::cli_cannot_use_server, "CLI verbs cannot go through this server: {error}",
     "CLI 动词无法经由此服务器执行：{error}"},
    {msg::no_web_ui, "no web UI found (build web/ or pass --web DIR); the API still runs",
     "没有找到网页界面（构建 web/ 或给出 --web DIR）；API 照常运行"},
    {msg::web_ui_from, "web UI from {dir}", "网页界面来自 {dir}"},
    {msg::mcp_at, "MCP at {url}", "MCP 地址 {url}"},
    {msg::shutting_down, "shutting down", "正在关闭"},
    {msg::store_failed_at_shutdown, "the store could not write at shutdown: {problem}",
     "关闭时存储无法写入：{problem}"},
    {msg::stalled_one, "1 dialog stalled on a write the store refused; it resumes at the next start",
     "1 个对话因存储拒绝写入而停住；下次启动时恢复"},
    {msg::stalled_many, "{n} dialogs stalled on a write the store refused; they resume at the next start",
     "{n} 个对话因存储拒绝写入而停住；下次启动时恢复"},
    {msg::mcp_serving_stdio, "serving MCP on stdin/stdout (data: {dir})",
     "在 stdin/stdout 上提供 MCP 服务（数据：{dir}）"},
    {msg::check_summary, "{dialogs}, {events} checked: {verdict}", "已检查 {dialogs}、{events}：{verdict}"},
    {msg::check_ok, "ok", "正常"},
    {msg::count_dialog_one, "1 dialog", "1 个对话"},
    {msg::count_dialog_many, "{n} dialogs", "{n} 个对话"},
    {msg::count_event_one, "1 event", "1 个事件"},
    {msg::count_event_many, "{n} events", "{n} 个事件"},
    {msg::count_problem_one, "1 problem", "1 个问题"},
    {msg::count_problem_many, "{n} problems", "{n} 个问题"},
    {msg::check_team_summary,
     "{source}: {members} member(s), {runnable} can be driven, {problems} problem(s): the team can run",
     "{source}：{members} 个成员，{runnable} 个可驱动，{problems} 个问题：团队可以运行"},
    {msg::repair_none_postgres, "the PostgreSQL store keeps no unreadable events: nothing to repair",
     "PostgreSQL 存储不保留读不回的事件：无需修复"},
    {msg::repair_event, "dialog {id}: event {seq} ({type}, log id {event_id}): {problem} — {action}",
     "对话 {id}：事件 {seq}（{type}，日志编号 {event_id}）：{problem} —— {action}"},
    {msg::repair_nothing, "every event reads back: nothing to repair", "每个事件都能读回：无需修复"},
    {msg::repair_done, "{events} repaired; the originals are kept in the table quarantined_events of {file}",
     "已修复 {events}；原件保存在 {file} 的 quarantined_events 表中"},
    {msg::vacuum_keeps_all, "the team keeps everything (no retention: in its file): nothing to do",
     "团队保留全部对话（其文件中没有 retention:）：无事可做"},
    {msg::vacuum_would_archive, "would archive {id}", "将归档 {id}"},
    {msg::vacuum_archived, "archived {id}", "已归档 {id}"},
    {msg::vacuum_summary_dry,
     "{n} root(s) to archive (idle over {days} days); {busy} idle as long but still at work, kept",
     "{n} 个根对话待归档（闲置超过 {days} 天）；{busy} 个闲置同样久但仍在工作，保留"},
    {msg::vacuum_summary, "{n} root(s) archived (idle over {days} days); {busy} idle as long but still at work, kept",
     "{n} 个根对话已归档（闲置超过 {days} 天）；{busy} 个闲置同样久但仍在工作，保留"},
    {msg::backup_done, "backed up {pages} pages ({bytes} bytes) to {path}",
     "已备份 {pages} 页（{bytes} 字节）到 {path}"},
    {msg::migrate_postgres_done, "the PostgreSQL store at {url} is at this version's schema",
     "{url} 的 PostgreSQL 存储已是此版本的结构"},
    {msg::migrate_done, "the store in {dir} is at this version's schema", "{dir} 中的存储已是此版本的结构"},
    {msg::fork_done, "forked {root} through event {seq} as {id}", "已将 {root} 分叉至第 {seq} 个事件，新对话 {id}"},
    {msg::fork_either_at, "give either --at or --at-generation, not both", "--at 与 --at-generation 只能给一个"},
    {msg::unknown_shell, "completions: unknown shell '{shell}'; expected bash or zsh",
     "completions：不认识的 shell '{shell}'；应为 bash 或 zsh"},
    {msg::providers_name, " ({name})", "（{name}）"},
    {msg::providers_not_usable, ", not usable: {why}", "，不可用：{why}"},
    {msg::providers_as, " as {kind}", "，按 {kind}"},
    {msg::providers_at, " at {url}", "，地址 {url}"},
    {msg::providers_login, "; login from {file}", "；登录信息来自 {file}"},
    {msg::providers_key_set, "; key {variable} set", "；密钥 {variable} 已设置"},
    {msg::providers_key_unset, "; key {variable} not set", "；密钥 {variable} 未设置"},
    {msg::providers_models, "; {n} models; {origin}", "；{n} 个模型；{origin}"},
    {msg::providers_used_by, "; used by {members}", "；使用者 {members}"},
    {msg::eval_case, "{verdict} {name} ({passed}/{attempts} passed)", "{verdict} {name}（{passed}/{attempts} 通过）"},
    {msg::eval_attempt_error, "      #{n} error{root}: {error}", "      #{n} 出错{root}：{error}"},
    {msg::eval_root, " root {id}", "（根对话 {id}）"},
    {msg::eval_check, "      #{n} {verdict}{root}: {check}: {message}",
     "      #{n} {verdict}{root}：{check}：{message}"},
    {msg::eval_reasons, "         judge's reasons: {reasons}", "         评判理由：{reasons}"},
    {msg::eval_compared, "compared with the earlier run:", "与之前的运行相比："},
    {msg::eval_no_diff, "    no diff: {problem}", "    无差异对比：{problem}"},
    {msg::eval_run_summary, "run {id}: {passed} of {attempts} attempts passed ({percent}%)",
     "运行 {id}：{attempts} 次尝试中 {passed} 次通过（{percent}%）"},
    {msg::model_unknown_member, "unknown member", "未知成员"},
    {msg::model_unknown_provider, "unknown provider", "未知的模型服务"},
    {msg::model_unusable, "no model: provider '{provider}' is not usable by Parley (a problem above says why)",
     "没有模型：Parley 无法使用模型服务 '{provider}'（原因见上面的问题）"},
    {msg::model_scripted, "the built-in scripted model (offline, script {script})",
     "内置的脚本模型（离线，脚本 {script}）"},
    {msg::model_scripted_set_key, "; set {variables} to use a real model", "；设置 {variables} 即可使用真正的模型"},
    {msg::model_or, " or ", " 或 "},
    {msg::model_mock, "Dominds' mock database {file} (scripted)", "Dominds 的模拟数据库 {file}（脚本）"},
    {msg::model_real, "{kind} model {model} at {url}", "{kind} 模型 {model}，地址 {url}"},
    {msg::usage_tokens, "{in} in{cached} / {out} out{reasoning} tokens, {calls}",
     "输入 {in}{cached} / 输出 {out}{reasoning} 个令牌，{calls}"},
    {msg::usage_cached, " ({n} cached)", "（缓存 {n}）"},
    {msg::usage_reasoning, " ({n} reasoning)", "（推理 {n}）"},
    {msg::usage_call_one, "1 call", "调用 1 次"},
    {msg::usage_call_many, "{n} calls", "调用 {n} 次"},
    {msg::usage_cost, ", {cost}", "，{cost}"},
    {msg::usage_unpriced, " (+{n} unpriced)", "（另有 {n} 次未计价）"},
    {msg::registry_none, "root {id} has no Type B subdialogs", "根对话 {id} 没有 B 类支线对话"},
    {msg::registry_entry, "{key} -> {id}  (last used {at}{working})", "{key} -> {id}  （最近使用 {at}{working}）"},
    {msg::registry_working, ", working now", "，正在工作"},
    {msg::show_replay_of, "replay of {id} from event {seq} with {change}",
     "{id} 的重放，自第 {seq} 个事件起，改动：{change}"},
    {msg::team_not_reloaded, "{error}; the team was not reloaded, the last good team runs",
     "{error}；团队未重新加载，仍运行上一个正常的团队"},
    {msg::team_reloaded, "team reloaded from {source}", "已从 {source} 重新加载团队"},
    {msg::imported_dominds,
     "imported {dialogs} dialogs ({roots} roots, {events} events) from Dominds' {dir}: {files} files read",
     "已从 Dominds 的 {dir} 导入 {dialogs} 个对话（{roots} 个根对话，{events} 个事件）：读取了 {files} 个文件"},
    {msg::imported_already, "; {n} roots were already in the store", "；{n} 个根对话已在存储中"},
    {msg::quarantined_dialog, "quarantined dialog {id} ({folder}): {problem}",
     "已隔离对话 {id}（{folder}）：{problem}"},
    {msg::exported, "exported {dialogs} dialogs ({events} events) to {dir}: {files} files",
     "已导出 {dialogs} 个对话（{events} 个事件）到 {dir}：{files} 个文件"},
    {msg::imported, "imported {dialogs} dialogs ({events} events) from {dir}: {files} files read",
     "已从 {dir} 导入 {dialogs} 个对话（{events} 个事件）：读取了 {files} 个文件"},
    {msg::replay_started, "replay of {root} from event {seq} as {id} ({change})",
     "{root} 的重放，自第 {seq} 个事件起，新对话 {id}（{change}）"},
    {msg::replay_in_background,
     "replay of {root} from event {seq} as {id} ({change}), driven in the background {through}",
     "{root} 的重放，自第 {seq} 个事件起，新对话 {id}（{change}），在后台驱动，{through}"},
    {msg::remote_sent, "{verb}: sent {through}", "{verb}：已发送，{through}"},
    {msg::through_server, "through the running server ({holder})", "经由正在运行的服务器（{holder}）"},
    {msg::diff_identical, "the trees made the same steps and gave the same answer", "两棵树的步骤和回答都相同"},
    {msg::diff_first_parting, "first parting: {path}", "最先分开处：{path}"},
    {msg::diff_at_step, ", step {n}", "，第 {n} 步"},
    {msg::diff_one_tree_only, " (in one tree only)", "（只在一棵树中）"},
    {msg::diff_dialogs, "dialogs (A | B):", "对话（A | B）："},
    {msg::diff_none, "(none)", "（无）"},
    {msg::diff_final_answer, "final answer:", "最终回答："},
    {msg::diff_per_member, "per member (A / B):", "每个成员（A / B）："},
    {msg::diff_total, "  total", "  合计"},
    {msg::diff_stats, "{rounds} rounds {in} in {out} out {cost} {ms} ms",
     "{rounds} 轮 输入 {in} 输出 {out} {cost} {ms} 毫秒"},
    {msg::no_team, "no team: pass --team FILE or --workspace DIR (or run where a .minds/ or team.yaml is)",
     "没有团队：给出 --team FILE 或 --workspace DIR（或在有 .minds/ 或 team.yaml 的目录里运行）"},
    {msg::no_data_in, "no Parley data in {dir} (pass --data DIR where `parley run` or `parley serve` kept it)",
     "{dir} 中没有 Parley 数据（用 --data DIR 指向 `parley run` 或 `parley serve` 保存数据的目录）"},
    {msg::no_dialog_in, "no dialog '{id}' in {where}", "{where} 中没有对话 '{id}'"},
    {msg::no_dialog_no_data,
     "no dialog '{id}': there is no Parley data in {dir} (pass --data DIR where the dialog was kept)",
     "没有对话 '{id}'：{dir} 中没有 Parley 数据（用 --data DIR 指向保存该对话的目录）"},
    {msg::postgres_store, "the PostgreSQL store", "PostgreSQL 存储"},
    {msg::data_in_workspace,
     "the data directory {data} is inside the team's workspace {workspace}; pass --data DIR outside it, or --{flag} to "
     "keep it there (file tools still refuse it)",
     "数据目录 {data} 在团队的工作区 {workspace} 里；用 --data DIR 指定工作区外的目录，或用 --{flag} "
     "保留在那里（文件工具仍会拒绝它）"},
    {msg::flow_phase, "phase {phase}", "阶段 {phase}"},
    {msg::flow_next_phase, ", next {phase}", "，下一阶段 {phase}"},
    {msg::flow_virtual, ", virtual", "，虚拟"},
    {msg::flow_messages_one, "1 message", "1 条消息"},
    {msg::flow_messages_many, "{n} messages", "{n} 条消息"},
    {msg::flow_sub_thread, "sub-thread {path} · {phase} · {messages}", "子线程 {path} · {phase} · {messages}"},
    {msg::flow_completed, "the flow is completed", "流程已完成"},
    {msg::flow_waits, "the flow waits for you ({phase})", "流程在等你（{phase}）"},
    {msg::flow_header, "flow dialog {id} · @{member} · {phase}", "流程对话 {id} · @{member} · {phase}"},
    {msg::flow_sub_thread_said, "[sub-thread {id}: {messages}] {text}", "[子线程 {id}：{messages}] {text}"},
    {msg::replay_either_from, "give either --from or --at-generation, not both",
     "--from 与 --at-generation 只能给一个"},
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
