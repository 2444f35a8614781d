#include "parley/llm/responses/responses_provider.hpp"

#include "parley/llm/remote_provider.hpp"
#include "parley/llm/responses/codex_auth.hpp"
#include "parley/llm/responses/responses_request.hpp"
#include "parley/llm/responses/responses_stream.hpp"

namespace parley::llm {
namespace {

struct responses_wire {
  using options_type = responses_options;
  using assembler = responses::stream_assembler;
  static constexpr std::string_view kName = "openai-responses";
  static constexpr std::string_view kDefaultBaseUrl = "https://api.openai.com/v1";
  static constexpr std::string_view kPath = "responses";

  static result<std::string> body_without_tools(const model_request& request, bool streaming) {
    return responses::build_request_body(request, streaming);
  }
  static boost::json::array tools(const std::vector<tool_spec>& specs) { return responses::tools_json(specs); }
  static result<void> add_auth(http::header_list& headers, const options_type& options) {
    if (options.auth == responses_auth::api_key) {
      if (!options.api_key.empty()) headers.push_back({"Authorization", "Bearer " + options.api_key});
      return ok();
    }
    auto credentials = responses::read_codex_credentials(options.codex_home);
    if (!credentials) return std::move(credentials).err();
    headers.push_back({"Authorization", "Bearer " + credentials->access_token});
    if (!credentials->account_id.empty()) headers.push_back({"ChatGPT-Account-Id", credentials->account_id});
    // What the ChatGPT backend's Responses endpoint expects of its clients, as Codex CLI sends it.
    headers.push_back({"OpenAI-Beta", "responses=experimental"});
    return ok();
  }
  static result<void> on_whole_answer(assembler& into, std::string_view body) {
    auto answer = answer_object(body);
    if (!answer) return std::move(answer).err();
    return into.on_response(*answer);
  }
};

// The same wire, named "codex" in errors and in kind(), for the ChatGPT login.
struct codex_wire : responses_wire {
  static constexpr std::string_view kName = "codex";
  static constexpr std::string_view kDefaultBaseUrl = "https://chatgpt.com/backend-api/codex";
};

}  // namespace

std::shared_ptr<provider> make_responses_provider(const responses_options& options) {
  if (options.auth == responses_auth::codex_login) return std::make_shared<remote_provider<codex_wire>>(options);
  return std::make_shared<remote_provider<responses_wire>>(options);
}

}  // namespace parley::llm
