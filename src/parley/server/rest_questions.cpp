// GET /api/questions: every open question for the human (Q4H), oldest first.
#include <boost/json/array.hpp>

#include <set>
#include <string>
#include <vector>

#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {

handler_result list_questions(server_context& context, const rest_request& request, std::string /*dialog_id*/) {
  auto open = co_await context.engine.questions().open_questions_async();
  if (!open) co_return error_response(open.err());
  std::vector<dialog_row> asking;
  for (const auto& entry : *open) asking.push_back(entry.dialog);
  // Whom a subdialog's question shows to is its root's to say: read off the loop.
  const auto visible_ids = co_await read_visible_ids(context, request, std::move(asking));
  const std::set<std::string, std::less<>> visible(visible_ids.begin(), visible_ids.end());
  boost::json::array questions;
  for (const auto& [dialog, question] : *open) {
    if (!visible.contains(dialog.id)) continue;
    boost::json::object where{{"selfId", dialog.id}, {"rootId", dialog.root_id}};
    questions.push_back(boost::json::object{{"dialog", std::move(where)},
                                            {"memberId", dialog.member_id},
                                            {"course", question.course},
                                            {"id", question.id},
                                            {"mentionList", question.mention_list},
                                            {"tellaskContent", question.tellask_content},
                                            {"askedAt", question.asked_at},
                                            {"callId", question.call_id}});
  }
  co_return json_response(200, boost::json::object{{"questions", std::move(questions)}});
}

}  // namespace parley::server::rest
