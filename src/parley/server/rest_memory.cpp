// A dialog's working memory: its reminders, its root's Type B registry, and its Taskdoc.
#include <boost/json/array.hpp>

#include "parley/core/time.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {

handler_result get_reminders(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  // Reminders live in the dialog's state, derived from its log; the engine loads it once, off the
  // loop.
  auto loaded = co_await context.engine.dialogs().load_async(dialog_id);
  if (!loaded) co_return error_response(loaded.err());
  boost::json::array reminders;
  std::int64_t index = 1;  // numbered from 1, as the reminder tools number them
  for (const auto& content : (*loaded)->state().reminders) {
    reminders.push_back(boost::json::object{{"index", index++}, {"content", content}});
  }
  co_return json_response(200, boost::json::object{{"reminders", std::move(reminders)}});
}

handler_result get_registry(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  // The registry belongs to the root; asking through any dialog of the tree shows the same one.
  auto entries = co_await context.engine.registry_async(row->root_id);
  if (!entries) co_return error_response(entries.err());
  boost::json::array out;
  for (const auto& entry : *entries) {
    out.push_back(boost::json::object{{"key", entry.key},
                                      {"subdialogId", entry.subdialog_id},
                                      {"agentId", entry.agent_id},
                                      {"sessionSlug", entry.session_slug},
                                      {"createdAt", format_iso8601_ms(entry.created_at_ms)},
                                      {"lastAccessed", format_iso8601_ms(entry.last_accessed_ms)},
                                      {"locked", entry.locked}});
  }
  co_return json_response(200, boost::json::object{{"entries", std::move(out)}});
}

handler_result get_taskdoc(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  std::string path = row->task_doc_path;
  if (path.empty() && row->kind == events::dialog_kind::sub) {
    // Subdialogs work on their root's task.
    if (auto root = co_await read_dialog(context, request, row->root_id)) path = root->task_doc_path;
  }
  if (path.empty()) co_return error_response(404, "not_found", "dialog " + dialog_id + " has no Taskdoc");
  const auto sections = engine::read_taskdoc(context.engine.team().workspace, path);
  boost::json::object by_name;
  for (const auto& section : sections) by_name[section.selector] = section.content;
  co_return json_response(200, boost::json::object{{"path", path}, {"sections", std::move(by_name)}});
}

}  // namespace parley::server::rest
