// One function per REST endpoint (docs/server.md), grouped in rest_*.cpp by what they touch.
// `dialog_id` is the {id} segment of the path, empty for routes without one. Internal to the module.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <string_view>

#include "parley/server/rest_router.hpp"

namespace parley::server::rest {

using handler_result = boost::asio::awaitable<rest_response>;

// rest_overview.cpp: the server, the team, token usage.
handler_result get_status(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_team(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_usage(server_context& context, const rest_request& request, std::string dialog_id);
// rest_problems.cpp: what the team asks for that Parley cannot honour.
handler_result get_problems(server_context& context, const rest_request& request, std::string dialog_id);

// rest_dialogs.cpp: reading and creating dialogs.
handler_result list_dialogs(server_context& context, const rest_request& request, std::string dialog_id);
handler_result create_dialog(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_dialog(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_children(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_hierarchy(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_transcript(server_context& context, const rest_request& request, std::string dialog_id);

// rest_fork.cpp: a new root tree sharing a root's history up to a point (docs/fork.md).
handler_result post_fork(server_context& context, const rest_request& request, std::string dialog_id);
// Adds `forkedFrom: {dialog, at}` to a forked dialog's summary; nothing for another dialog.
result<void> add_fork_origin(store& log, boost::json::object& summary, std::string_view dialog_id);

// rest_dialog_input.cpp: input that drives a dialog, and stopping it.
handler_result post_message(server_context& context, const rest_request& request, std::string dialog_id);
handler_result post_answer(server_context& context, const rest_request& request, std::string dialog_id);
handler_result post_interrupt(server_context& context, const rest_request& request, std::string dialog_id);
handler_result post_resume(server_context& context, const rest_request& request, std::string dialog_id);
handler_result post_dead(server_context& context, const rest_request& request, std::string dialog_id);
// Run control: stop every running dialog ({reason?}), resume every resumable one; each only among
// the dialogs the asker may see.
handler_result post_stop_all(server_context& context, const rest_request& request, std::string dialog_id);
handler_result post_resume_all(server_context& context, const rest_request& request, std::string dialog_id);
// Seed 001's root lifecycle: complete, archive, reopen; each answers with the root's summary.
handler_result post_complete(server_context& context, const rest_request& request, std::string dialog_id);
handler_result post_archive(server_context& context, const rest_request& request, std::string dialog_id);
handler_result post_reopen(server_context& context, const rest_request& request, std::string dialog_id);

// rest_dialog_title.cpp: a human's title for a dialog ({title} → {title}).
handler_result put_title(server_context& context, const rest_request& request, std::string dialog_id);

// rest_flow.cpp: a flow's dialog read as seed 004's thread, or the sub-thread at `?path=`.
handler_result get_flow_thread(server_context& context, const rest_request& request, std::string dialog_id);
// POST /api/dialogs/{id}/thread/retry {content}: the user's message as a retry (seed 004
// `_ui_action: "retry"`); 200 with {flow}.
handler_result post_flow_retry(server_context& context, const rest_request& request, std::string dialog_id);
// POST /api/dialogs/{id}/thread/tasks {name, message?, meta?}: one of the main agent's
// loadOperations (e.g. chatPair); 200 with {flow}, 400 for a name the agent does not list.
handler_result post_flow_task(server_context& context, const rest_request& request, std::string dialog_id);

// rest_questions.cpp: open questions for the human across every dialog.
handler_result list_questions(server_context& context, const rest_request& request, std::string dialog_id);

// rest_memory.cpp: a dialog's working memory: reminders, Type B registry, Taskdoc.
handler_result get_reminders(server_context& context, const rest_request& request, std::string dialog_id);
// Seed 002's ActivePromptLog of one dialog (rest_prompts.cpp).
handler_result get_prompts(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_registry(server_context& context, const rest_request& request, std::string dialog_id);
handler_result get_taskdoc(server_context& context, const rest_request& request, std::string dialog_id);

// rest_records.cpp: seed 002's conversation records (docs/records.md), read-only.
handler_result get_dialogue(server_context& context, const rest_request& request, std::string id);
handler_result list_dialogue_sessions(server_context& context, const rest_request& request, std::string id);
handler_result get_latest_session(server_context& context, const rest_request& request, std::string id);
handler_result list_unresponded_turns(server_context& context, const rest_request& request, std::string id);
handler_result get_session(server_context& context, const rest_request& request, std::string id);
handler_result list_session_turns(server_context& context, const rest_request& request, std::string id);
handler_result get_turn(server_context& context, const rest_request& request, std::string id);
handler_result list_turn_messages(server_context& context, const rest_request& request, std::string id);
handler_result get_record_message(server_context& context, const rest_request& request, std::string id);
handler_result search_messages(server_context& context, const rest_request& request, std::string id);
handler_result list_human_dialogues(server_context& context, const rest_request& request, std::string id);
handler_result list_ai_sessions(server_context& context, const rest_request& request, std::string id);
handler_result list_introspections(server_context& context, const rest_request& request, std::string id);
handler_result list_system_utterances(server_context& context, const rest_request& request, std::string id);
handler_result get_memory_entry(server_context& context, const rest_request& request, std::string id);

// rest_records_write.cpp: seed 002's record writes (docs/records.md "Writing records").
handler_result post_session(server_context& context, const rest_request& request, std::string id);
handler_result close_session(server_context& context, const rest_request& request, std::string id);
handler_result post_turn(server_context& context, const rest_request& request, std::string id);
handler_result close_turn(server_context& context, const rest_request& request, std::string id);
handler_result post_record_message(server_context& context, const rest_request& request, std::string id);
handler_result post_introspection(server_context& context, const rest_request& request, std::string id);
handler_result post_memory_link(server_context& context, const rest_request& request, std::string id);
// rest_reflections.cpp
handler_result post_reflection(server_context& context, const rest_request& request, std::string id);

// rest_uploads.cpp: media for image and audio messages.
handler_result post_upload(server_context& context, const rest_request& request, std::string id);
handler_result get_upload(server_context& context, const rest_request& request, std::string id);

// rest_tot.cpp: Tree of Thoughts runs (docs/tot.md).
handler_result post_tot(server_context& context, const rest_request& request, std::string id);
handler_result list_tot(server_context& context, const rest_request& request, std::string id);
handler_result get_tot(server_context& context, const rest_request& request, std::string id);

// rest_eval.cpp: two root trees aligned (GET /api/diff?a=&b=), the eval runs of the data directory.
handler_result get_diff(server_context& context, const rest_request& request, std::string id);
handler_result list_eval_runs(server_context& context, const rest_request& request, std::string id);
handler_result get_eval_run(server_context& context, const rest_request& request, std::string id);

}  // namespace parley::server::rest
