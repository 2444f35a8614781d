// GET /api/problems: what the team asks for that Parley cannot honour (config::problem), as the
// team was last loaded (at start or by a reload), and a failed reload's error; the web UI's
// Problems panel shows them.
#include <boost/json/array.hpp>

#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {

handler_result get_problems(server_context& context, const rest_request& /*request*/, std::string /*dialog_id*/) {
  boost::json::array problems;
  for (const auto& problem : context.engine.problems()) {
    boost::json::object item{{"file", problem.file},  {"line", problem.line}, {"column", problem.column},
                             {"what", problem.what},  {"why", problem.why},   {"blocksMember", problem.blocks_member},
                             {"text", problem.text()}};
    item["member"] = problem.member.empty() ? boost::json::value(nullptr) : boost::json::value(problem.member);
    problems.push_back(std::move(item));
  }
  co_return json_response(200, boost::json::object{{"problems", std::move(problems)}});
}

}  // namespace parley::server::rest
