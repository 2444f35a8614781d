#include "parley/server/rest_router.hpp"

#include <array>
#include <string_view>
#include <vector>

#include "parley/server/auth.hpp"
#include "parley/server/media_types.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_replay.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server {

namespace {

using handler = rest::handler_result (*)(server_context&, const rest_request&, std::string);

// What a route takes as its body. JSON routes refuse any other Content-Type (media_types.hpp says
// why); the upload route takes raw bytes of a medium, which check_media() checks.
enum class body_kind { json, media };

struct route {
  std::string_view method;
  // Path segments after "/api/"; "{id}" matches one id (a dialog's, or a record's).
  std::vector<std::string_view> pattern;
  handler handle;
  body_kind body = body_kind::json;
};

const std::vector<route>& routes() {
  static const std::vector<route> table{
      {"GET", {"status"}, &rest::get_status},
      {"POST", {"stop_all"}, &rest::post_stop_all},
      {"POST", {"resume_all"}, &rest::post_resume_all},
      {"GET", {"team"}, &rest::get_team},
      {"GET", {"problems"}, &rest::get_problems},
      {"GET", {"usage"}, &rest::get_usage},
      {"GET", {"questions"}, &rest::list_questions},
      {"GET", {"diff"}, &rest::get_diff},
      {"GET", {"eval", "runs"}, &rest::list_eval_runs},
      {"GET", {"eval", "runs", "{id}"}, &rest::get_eval_run},
      {"GET", {"dialogs"}, &rest::list_dialogs},
      {"POST", {"dialogs"}, &rest::create_dialog},
      {"GET", {"dialogs", "{id}"}, &rest::get_dialog},
      {"GET", {"dialogs", "{id}", "children"}, &rest::get_children},
      {"GET", {"dialogs", "{id}", "hierarchy"}, &rest::get_hierarchy},
      {"GET", {"dialogs", "{id}", "transcript"}, &rest::get_transcript},
      {"GET", {"dialogs", "{id}", "reminders"}, &rest::get_reminders},
      {"GET", {"dialogs", "{id}", "prompts"}, &rest::get_prompts},
      {"GET", {"dialogs", "{id}", "registry"}, &rest::get_registry},
      {"GET", {"dialogs", "{id}", "taskdoc"}, &rest::get_taskdoc},
      {"GET", {"dialogs", "{id}", "thread"}, &rest::get_flow_thread},
      {"POST", {"dialogs", "{id}", "thread", "retry"}, &rest::post_flow_retry},
      {"POST", {"dialogs", "{id}", "thread", "tasks"}, &rest::post_flow_task},
      {"POST", {"dialogs", "{id}", "messages"}, &rest::post_message},
      {"POST", {"dialogs", "{id}", "answer"}, &rest::post_answer},
      {"POST", {"dialogs", "{id}", "interrupt"}, &rest::post_interrupt},
      {"POST", {"dialogs", "{id}", "resume"}, &rest::post_resume},
      {"POST", {"dialogs", "{id}", "dead"}, &rest::post_dead},
      {"POST", {"dialogs", "{id}", "complete"}, &rest::post_complete},
      {"POST", {"dialogs", "{id}", "archive"}, &rest::post_archive},
      {"POST", {"dialogs", "{id}", "reopen"}, &rest::post_reopen},
      {"POST", {"dialogs", "{id}", "fork"}, &rest::post_fork},
      {"POST", {"dialogs", "{id}", "replay"}, &rest::post_replay},
      {"PUT", {"dialogs", "{id}", "title"}, &rest::put_title},
      // Seed 002's records; "search" comes before "{id}", which would match it too.
      {"GET", {"dialogues", "{id}"}, &rest::get_dialogue},
      {"GET", {"dialogues", "{id}", "sessions"}, &rest::list_dialogue_sessions},
      {"GET", {"dialogues", "{id}", "latest_session"}, &rest::get_latest_session},
      {"GET", {"dialogues", "{id}", "unresponded_turns"}, &rest::list_unresponded_turns},
      {"GET", {"dialogues", "{id}", "system_utterances"}, &rest::list_system_utterances},
      {"GET", {"sessions", "{id}"}, &rest::get_session},
      {"GET", {"sessions", "{id}", "turns"}, &rest::list_session_turns},
      {"GET", {"sessions", "{id}", "introspection_turns"}, &rest::list_introspections},
      {"GET", {"ai", "{id}", "sessions"}, &rest::list_ai_sessions},
      {"GET", {"humans", "{id}", "dialogues"}, &rest::list_human_dialogues},
      {"GET", {"memory_entries", "{id}"}, &rest::get_memory_entry},
      {"GET", {"turns", "{id}"}, &rest::get_turn},
      {"GET", {"turns", "{id}", "messages"}, &rest::list_turn_messages},
      {"GET", {"messages", "search"}, &rest::search_messages},
      {"GET", {"messages", "{id}"}, &rest::get_record_message},
      {"POST", {"sessions"}, &rest::post_session},
      {"POST", {"sessions", "{id}", "close"}, &rest::close_session},
      {"POST", {"turns"}, &rest::post_turn},
      {"POST", {"turns", "{id}", "close"}, &rest::close_turn},
      {"POST", {"messages"}, &rest::post_record_message},
      {"POST", {"sessions", "{id}", "introspection_turns"}, &rest::post_introspection},
      {"POST", {"turns", "{id}", "memory_links"}, &rest::post_memory_link},
      {"POST", {"reflections"}, &rest::post_reflection},
      {"POST", {"uploads"}, &rest::post_upload, body_kind::media},
      {"POST", {"tot"}, &rest::post_tot},
      {"GET", {"tot"}, &rest::list_tot},
      {"GET", {"tot", "{id}"}, &rest::get_tot},
      {"GET", {"uploads", "{id}"}, &rest::get_upload},
  };
  return table;
}

// Matches the segments after "api" against a pattern; fills the {id} segment.
bool matches(const route& candidate, const std::vector<std::string>& segments, std::string& id) {
  if (candidate.pattern.size() + 1 != segments.size()) return false;
  for (std::size_t i = 0; i < candidate.pattern.size(); ++i) {
    const auto& part = segments[i + 1];
    if (candidate.pattern[i] == "{id}") {
      id = part;
    } else if (candidate.pattern[i] != part) {
      return false;
    }
  }
  return true;
}

// A request that sends a body (or says what its body is) to a JSON route must say application/json.
// A bodiless POST without a Content-Type (curl -X POST .../interrupt) is fine: there is nothing to
// misread, and a browser's cross-site form always declares one.
bool refuses_content_type(const route& chosen, const rest_request& request) {
  if (chosen.body != body_kind::json || request.method == "GET" || request.method == "HEAD") return false;
  if (request.body.empty() && request.content_type.empty()) return false;
  return !is_json_media_type(request.content_type);
}

}  // namespace

const user* authenticate(const server_context& context, std::string_view authorization) {
  if (context.users.multi_user()) return context.users.authenticate(bearer_token(authorization));
  if (context.options.token.empty() || token_equals(context.options.token, bearer_token(authorization))) {
    return &context.users.only_user();
  }
  return nullptr;
}

rest_response unauthorized_response(const server_context& context) {
  return error_response(401, "unauthorized",
                        context.users.multi_user() ? "Authorization: expected 'Bearer TOKEN' with a user's token"
                                                   : "Authorization: expected 'Bearer TOKEN' with this server's token");
}

boost::asio::awaitable<rest_response> handle_rest_request(server_context& context, rest_request request) {
  request.who = authenticate(context, request.authorization);
  if (request.who == nullptr) co_return unauthorized_response(context);
  const auto& segments = request.segments;
  if (segments.empty() || segments.front() != "api") {
    co_return error_response(404, "not_found", "no API route " + request.path);
  }
  // HEAD is answered like GET; http_server drops the body.
  const std::string method = request.method == "HEAD" ? "GET" : request.method;
  const route* chosen = nullptr;
  std::string dialog_id;
  std::string allowed;
  for (const auto& candidate : routes()) {
    std::string id;
    if (!matches(candidate, segments, id)) continue;
    if (candidate.method == method) {
      chosen = &candidate;
      dialog_id = std::move(id);
      break;
    }
    if (!allowed.empty()) allowed += ", ";
    allowed += candidate.method;
  }
  if (chosen == nullptr) {
    if (allowed.empty()) co_return error_response(404, "not_found", "no API route " + request.path);
    auto refused = error_response(405, "method_not_allowed",
                                  request.method + " " + request.path + ": method not allowed; use " + allowed);
    refused.allow = allowed;
    co_return refused;
  }
  if (refuses_content_type(*chosen, request)) {
    co_return error_response(
        415, "unsupported_media_type",
        "Content-Type: expected application/json, got " +
            (request.content_type.empty() ? std::string("none") : "'" + request.content_type.substr(0, 100) + "'"));
  }
  // A bug in a handler must not take the server down: it becomes a 500 for this request only.
  // (co_await is not allowed inside a catch block, so the message is kept and answered after it.)
  std::string what;
  try {
    co_return co_await chosen->handle(context, request, std::move(dialog_id));
  } catch (const std::exception& e) {
    what = e.what();
  }
  co_return error_response(500, "internal", request.method + " " + request.path + ": " + what);
}

}  // namespace parley::server
