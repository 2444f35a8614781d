#include "parley/llm/openai/openai_provider.hpp"

#include "parley/llm/openai/openai_request.hpp"
#include "parley/llm/openai/openai_stream.hpp"
#include "parley/llm/remote_provider.hpp"

namespace parley::llm {
namespace {

struct openai_wire {
  using options_type = openai_options;
  using assembler = openai::stream_assembler;
  static constexpr std::string_view kName = "openai";
  static constexpr std::string_view kDefaultBaseUrl = "https://api.openai.com/v1";
  static constexpr std::string_view kPath = "chat/completions";

  static std::string body_without_tools(const model_request& request, bool streaming) {
    return openai::build_request_body(request, streaming);
  }
  static boost::json::array tools(const std::vector<tool_spec>& specs) { return openai::tools_json(specs); }
  static void add_auth(http::header_list& headers, const options_type& options) {
    if (!options.api_key.empty()) headers.push_back({"Authorization", "Bearer " + options.api_key});
  }
  static result<void> on_whole_answer(assembler& into, std::string_view body) { return into.on_whole_answer(body); }
};

}  // namespace

std::shared_ptr<provider> make_openai_provider(const openai_options& options) {
  return std::make_shared<remote_provider<openai_wire>>(options);
}

}  // namespace parley::llm
