// Seed 002's ActivePromptLog for one dialog: each version of the prompt its model was given (the
// system prompt and the tools offered, as prompt_logged recorded them) and the generations that
// used it.
#include <boost/json/array.hpp>

#include <map>

#include "parley/core/time.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"

namespace parley::server::rest {

handler_result get_prompts(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = find_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  auto events = context.log.read_events(dialog_id);
  if (!events) co_return error_response(events.err());
  boost::json::array prompts;
  std::map<std::string, std::size_t, std::less<>> index_of_version;  // its latest entry in `prompts`
  for (const auto& ev : *events) {
    if (const auto* logged = ev.as<events::prompt_logged>()) {
      boost::json::array tools;
      for (const auto& name : logged->tools) tools.emplace_back(name);
      index_of_version[logged->version] = prompts.size();
      prompts.push_back(boost::json::object{{"version", logged->version},
                                            {"course", logged->course},
                                            {"model", logged->model},
                                            {"systemPrompt", logged->system_prompt},
                                            {"tools", std::move(tools)},
                                            {"loggedAt", format_iso8601_ms(ev.ts_ms)},
                                            {"seq", ev.seq},
                                            {"genseqs", boost::json::array{}}});
    } else if (const auto* finished = ev.as<events::generation_finished>()) {
      if (!finished->prompt_version) continue;
      const auto found = index_of_version.find(*finished->prompt_version);
      if (found == index_of_version.end()) continue;
      prompts[found->second].as_object()["genseqs"].as_array().emplace_back(finished->genseq);
    }
  }
  co_return json_response(200, boost::json::object{{"prompts", std::move(prompts)}});
}

}  // namespace parley::server::rest
