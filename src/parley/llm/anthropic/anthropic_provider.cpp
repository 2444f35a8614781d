#include "parley/llm/anthropic/anthropic_provider.hpp"

#include "parley/llm/anthropic/anthropic_request.hpp"
#include "parley/llm/anthropic/anthropic_stream.hpp"
#include "parley/llm/remote_provider.hpp"

namespace parley::llm {
namespace {

struct anthropic_wire {
  using options_type = anthropic_options;
  using assembler = anthropic::stream_assembler;
  static constexpr std::string_view kName = "anthropic";
  static constexpr std::string_view kDefaultBaseUrl = "https://api.anthropic.com/v1";
  static constexpr std::string_view kPath = "messages";

  static std::string body_without_tools(const model_request& request, bool streaming) {
    return anthropic::build_request_body(request, streaming);
  }
  static boost::json::array tools(const std::vector<tool_spec>& specs) { return anthropic::tools_json(specs); }
  static void add_auth(http::header_list& headers, const options_type& options) {
    headers.push_back({"anthropic-version", options.version});
    if (!options.api_key.empty()) headers.push_back({"x-api-key", options.api_key});
  }
  static result<void> on_whole_answer(assembler& into, std::string_view body) {
    auto answer = answer_object(body);
    if (!answer) return std::move(answer).err();
    return into.on_message(*answer);
  }
};

}  // namespace

std::shared_ptr<provider> make_anthropic_provider(const anthropic_options& options) {
  return std::make_shared<remote_provider<anthropic_wire>>(options);
}

}  // namespace parley::llm
