// Seed 002's ActivePromptLog for one dialog: each version of the prompt its model was given (the
// system prompt and the tools offered, as prompt_logged recorded them) and the generations that
// used it.
#include <boost/json/array.hpp>

#include "parley/core/time.hpp"
#include "parley/server/prompt_log.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server::rest {

handler_result get_prompts(server_context& context, const rest_request& request, std::string dialog_id) {
  auto read = [&context, &request, &dialog_id]() -> result<std::vector<logged_prompt>> {
    if (auto row = find_dialog(context, request, dialog_id); !row) return std::move(row).err();
    return read_logged_prompts(context.log, dialog_id);
  };
  auto logged = co_await read_store(context, std::move(read));
  if (!logged) co_return error_response(logged.err());
  boost::json::array prompts;
  for (const auto& entry : *logged) {
    boost::json::array tools;
    for (const auto& name : entry.prompt.tools) tools.emplace_back(name);
    boost::json::array genseqs;
    for (const auto genseq : entry.genseqs) genseqs.emplace_back(genseq);
    prompts.push_back(boost::json::object{{"version", entry.prompt.version},
                                          {"course", entry.prompt.course},
                                          {"model", entry.prompt.model},
                                          {"systemPrompt", entry.prompt.system_prompt},
                                          {"tools", std::move(tools)},
                                          {"loggedAt", format_iso8601_ms(entry.logged_at_ms)},
                                          {"seq", entry.seq},
                                          {"genseqs", std::move(genseqs)}});
  }
  co_return json_response(200, boost::json::object{{"prompts", std::move(prompts)}});
}

}  // namespace parley::server::rest
