// GET /api/status, /api/team and /api/usage: what the server runs and what it has spent.
#include <boost/json/array.hpp>

#include <map>
#include <set>

#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server::rest {

handler_result get_status(server_context& context, const rest_request& request, std::string /*dialog_id*/) {
  boost::json::object providers;
  for (const auto& member : context.engine.team().members) {
    providers[member.id] = std::string(context.engine.members().provider_kind_of(member.id));
  }
  // A store that can no longer write (its file replaced under it) says so here, not only in
  // the failures of every later input.
  // Stalled dialogs wait for the log to take writes again (drive_loop::set_store_retry).
  boost::json::object store{{"ok", true}, {"stalledDialogs", context.engine.drives().stalled_dialogs()}};
  if (auto problem = context.log.health_problem(); !problem.empty()) {
    store["ok"] = false;
    store["problem"] = std::move(problem);
  }
  // Run control's counts, among the dialogs the asker may see.
  const auto rows_of = [&context](const std::vector<std::string>& ids) {
    std::vector<dialog_row> rows;
    for (const auto& id : ids) {
      if (const auto* dialog = context.engine.find(id)) rows.push_back(dialog->row());
    }
    return rows;
  };
  auto running_rows = rows_of(context.engine.runs().running_dialogs());
  auto resumable_rows = rows_of(context.engine.runs().resumable_dialogs(false));
  const auto running =
      static_cast<std::int64_t>((co_await read_visible_ids(context, request, std::move(running_rows))).size());
  const auto resumable =
      static_cast<std::int64_t>((co_await read_visible_ids(context, request, std::move(resumable_rows))).size());
  co_return json_response(
      200, boost::json::object{{"version", context.version},
                               {"dialogs", boost::json::object{{"running", running}, {"resumable", resumable}}},
                               {"store", std::move(store)},
                               {"protocol", 1},
                               {"scriptedOffline", context.scripted_offline},
                               {"providers", std::move(providers)},
                               {"authRequired", !context.options.token.empty() || context.users.multi_user()},
                               {"dialogsInMemory", boost::json::object{{"loaded", context.engine.dialogs().size()},
                                                                       {"limit", context.engine.dialogs().limit()}}},
                               {"user", boost::json::object{{"id", request.who->id}, {"name", request.who->name}}}});
}

handler_result get_team(server_context& context, const rest_request& /*request*/, std::string /*dialog_id*/) {
  const auto& team = context.engine.team();
  boost::json::array members;
  for (const auto& member : team.members) {
    boost::json::array tools;
    for (const auto& tool : member.tools) tools.emplace_back(tool);
    boost::json::array toolsets;
    for (const auto& toolset : member.toolsets) toolsets.emplace_back(toolset);
    members.push_back(
        boost::json::object{{"id", member.id},
                            {"name", member.name.empty() ? member.id : member.name},
                            {"provider", member.provider},
                            {"providerKind", std::string(context.engine.members().provider_kind_of(member.id))},
                            {"model", member.model},
                            {"kind", to_name(member.kind)},  // "llm" | "flow" (seed 004)
                            {"tools", std::move(tools)},
                            {"toolsets", std::move(toolsets)},
                            {"hidden", member.hidden}});
  }
  co_return json_response(
      200, boost::json::object{
               {"defaultMember", team.default_member}, {"language", team.language}, {"members", std::move(members)}});
}

handler_result get_usage(server_context& context, const rest_request& request, std::string /*dialog_id*/) {
  auto list = [&log = context.log] { return log.list_dialogs(dialog_filter{}); };
  auto rows = co_await read_store(context, std::move(list));
  if (!rows) co_return error_response(rows.err());
  // A user counts the tokens of the dialogs they may see, no one else's.
  if (context.users.multi_user()) {
    std::set<std::string, std::less<>> visible_roots;
    for (const auto& row : *rows) {
      if (row.parent_id.empty() && context.users.may_see(*request.who, row)) visible_roots.insert(row.id);
    }
    std::erase_if(*rows, [&](const dialog_row& row) { return visible_roots.count(row.root_id) == 0; });
  }
  std::int64_t total_input = 0;
  std::int64_t total_output = 0;
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> by_member;
  boost::json::array by_dialog;
  for (const auto& row : *rows) {
    total_input += row.input_tokens;
    total_output += row.output_tokens;
    auto& member = by_member[row.member_id];
    member.first += row.input_tokens;
    member.second += row.output_tokens;
    by_dialog.push_back(
        boost::json::object{{"id", row.id}, {"inputTokens", row.input_tokens}, {"outputTokens", row.output_tokens}});
  }
  boost::json::object members;
  for (const auto& [id, tokens] : by_member) {
    members[id] = boost::json::object{{"inputTokens", tokens.first}, {"outputTokens", tokens.second}};
  }
  boost::json::object total{{"inputTokens", total_input}, {"outputTokens", total_output}};
  co_return json_response(
      200, boost::json::object{
               {"total", std::move(total)}, {"byMember", std::move(members)}, {"byDialog", std::move(by_dialog)}});
}

}  // namespace parley::server::rest
