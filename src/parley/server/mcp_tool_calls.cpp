#include "parley/server/mcp_tool_calls.hpp"

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <string_view>

#include "parley/core/json_fields.hpp"
#include "parley/engine/dialog_title.hpp"
#include "parley/server/dialog_answers.hpp"
#include "parley/server/mcp_tools.hpp"
#include "parley/server/mcp_wait.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

// A tool error, or the dialog a call waits for and the member it talks with.
struct started_call {
  followed_answer answer;
  call_progress progress;
  std::string member_id;
  bool waiting_again = false;
};
using call_start = std::variant<started_call, json::object>;

// Every argument the tool does not take is refused, naming it: a misspelt one is never ignored.
std::optional<json::object> unknown_argument(const json::object& args, std::span<const std::string_view> known) {
  for (const auto& member : args) {
    if (std::find(known.begin(), known.end(), member.key()) != known.end()) continue;
    std::string names;
    for (const auto name : known) names += (names.empty() ? "" : ", ") + std::string(name);
    return tool_error("field 'arguments." + std::string(member.key()).substr(0, 64) +
                      "': unknown argument; this tool takes " + names);
  }
  return std::nullopt;
}

// The root dialog `id` (the argument `field`) as the caller may use it; another user's is as
// unknown as an id nobody made.
asio::awaitable<std::variant<dialog_row, json::object>> visible_root(mcp_call_env& env, std::string_view field,
                                                                     std::string id) {
  auto read = [&context = env.context, who = &env.who, &id]() -> result<dialog_row> {
    auto row = load_dialog(context.log, id);
    if (!row) return row;
    if (!may_see(context, who, *row)) return make_error(errc::not_found, "no dialog");
    return row;
  };
  auto row = co_await read_store(env.context, std::move(read));
  const std::string where = "field 'arguments." + std::string(field) + "': ";
  if (!row) {
    if (row.err().code == errc::not_found) co_return tool_error(where + "no dialog '" + id.substr(0, 64) + "'");
    co_return tool_error(where + row.err().message);
  }
  if (row->kind != events::dialog_kind::root) {
    co_return tool_error(where + "dialog " + id + " is a subdialog; use its root dialog " + row->root_id);
  }
  co_return std::move(*row);
}

asio::awaitable<call_start> ask_member(mcp_call_env& env, const config::member_config& member,
                                       const json::object& args) {
  static constexpr std::array<std::string_view, 2> kKnown{"message", "dialog_id"};
  if (auto refused = unknown_argument(args, kKnown)) co_return std::move(*refused);
  json_fields in(args, "arguments");
  std::string message = in.string("message");
  const auto dialog_id = in.optional_string("dialog_id");
  if (!in.ok()) co_return tool_error(in.message());
  if (auto valid = env.context.engine.inputs().check_user_message(message); !valid) {
    co_return tool_error("field 'arguments.message': " + valid.err().message);
  }
  auto progress = new_call_progress(member.id);
  if (!dialog_id) {
    engine::new_dialog spec{member.id, engine::title_from_message(message), {}};
    spec.humans = {env.who.id};
    spec.first_message = std::move(message);
    spec.first_message_from = env.who.id;
    auto tap = progress.tap();  // named: a temporary in a coroutine's call inside co_await is not safe on g++ 12
    auto started = co_await start_followed_root(env.context, std::move(spec), std::move(tap));
    if (!started) co_return tool_error("@" + member.id + " could not start: " + started.err().message);
    co_return started_call{std::move(*started), std::move(progress), member.id};
  }
  auto root = co_await visible_root(env, "dialog_id", *dialog_id);
  if (auto* refused = std::get_if<json::object>(&root)) co_return std::move(*refused);
  const auto& row = std::get<dialog_row>(root);
  if (row.member_id != member.id) {
    co_return tool_error("field 'arguments.dialog_id': dialog " + row.id + " talks with @" + row.member_id +
                         "; continue it with " + member_tool_name(row.member_id));
  }
  auto tap = progress.tap();
  auto posted = co_await post_followed_message(env.context, row.id, std::move(message), env.who.id, std::move(tap));
  if (!posted) co_return tool_error("dialog " + row.id + " took no message: " + posted.err().message);
  co_return started_call{std::move(*posted), std::move(progress), member.id};
}

asio::awaitable<call_start> answer_question(mcp_call_env& env, const json::object& args) {
  static constexpr std::array<std::string_view, 2> kKnown{"question_id", "answer"};
  if (auto refused = unknown_argument(args, kKnown)) co_return std::move(*refused);
  json_fields in(args, "arguments");
  const std::string question_id = in.string("question_id");
  std::string answer = in.string("answer");
  if (!in.ok()) co_return tool_error(in.message());
  if (auto valid = env.context.engine.inputs().check_user_message(answer); !valid) {
    co_return tool_error("field 'arguments.answer': " + valid.err().message);
  }
  auto open = co_await env.context.engine.questions().open_questions_async();
  if (!open) co_return tool_error("the open questions could not be read: " + open.err().message);
  const engine::open_question* asked = nullptr;
  for (const auto& entry : *open) {
    if (entry.question.id == question_id) asked = &entry;
  }
  const std::string not_open =
      "field 'arguments.question_id': no open question '" + question_id.substr(0, 64) + "' (answered already?)";
  if (asked == nullptr) co_return tool_error(not_open);
  const dialog_row asking = asked->dialog;
  auto root = co_await visible_root(env, "question_id", asking.root_id);
  if (std::holds_alternative<json::object>(root)) co_return tool_error(not_open);
  const std::string root_member = std::get<dialog_row>(root).member_id;
  auto progress = new_call_progress(root_member);
  engine::user_answer reply{asking.id, std::move(answer), {}, question_id, "answer", env.who.id};
  auto tap = progress.tap();
  auto answered = co_await answer_followed(env.context, asking.root_id, std::move(reply), std::move(tap));
  if (!answered) co_return tool_error("question " + question_id + " took no answer: " + answered.err().message);
  co_return started_call{std::move(*answered), std::move(progress), root_member};
}

asio::awaitable<call_start> wait_again(mcp_call_env& env, const json::object& args) {
  static constexpr std::array<std::string_view, 1> kKnown{"dialog_id"};
  if (auto refused = unknown_argument(args, kKnown)) co_return std::move(*refused);
  json_fields in(args, "arguments");
  const std::string dialog_id = in.string("dialog_id");
  if (!in.ok()) co_return tool_error(in.message());
  auto root = co_await visible_root(env, "dialog_id", dialog_id);
  if (auto* refused = std::get_if<json::object>(&root)) co_return std::move(*refused);
  const auto& row = std::get<dialog_row>(root);
  auto progress = new_call_progress(row.member_id);
  auto followed = follow_from_now(env.context, row.id, progress.tap());
  co_return started_call{std::move(followed), std::move(progress), row.member_id, true};
}

mcp::rpc_error invalid_params(std::string message) {
  return mcp::rpc_error{mcp::rpc_code::kInvalidParams, std::move(message), std::nullopt};
}

}  // namespace

asio::awaitable<tool_call_answer> call_tool(mcp_call_env& env, const json::object& params) {
  for (const auto& member : params) {
    const auto key = member.key();
    if (key == "name" || key == "arguments") continue;
    if (key == "task") co_return invalid_params("params.task: this server does not run tools as tasks");
    co_return invalid_params("params." + std::string(key).substr(0, 64) + ": unknown member of tools/call");
  }
  json_fields in(params, "params");
  const std::string name = in.string("name");
  const json::object* given = in.optional_object("arguments");
  if (!in.ok()) co_return invalid_params(in.message());
  const json::object none;
  const json::object& args = given != nullptr ? *given : none;
  const auto& team = env.context.engine.team();
  call_start started = json::object{};
  if (const auto* member = member_of_tool(team, name)) {
    started = co_await ask_member(env, *member, args);
  } else if (name == kAnswerQuestionTool) {
    started = co_await answer_question(env, args);
  } else if (name == kWaitForAnswerTool) {
    started = co_await wait_again(env, args);
  } else {
    co_return invalid_params("params.name: no tool '" + name.substr(0, 64) + "'; tools/list names them");
  }
  if (auto* refused = std::get_if<json::object>(&started)) co_return std::move(*refused);
  auto& call = std::get<started_call>(started);
  auto outcome = co_await wait_for_outcome(env, std::move(call.answer), std::move(call.progress),
                                           std::move(call.member_id), call.waiting_again);
  if (!outcome) co_return std::nullopt;
  co_return tool_result(*outcome, env.version);
}

}  // namespace parley::server
