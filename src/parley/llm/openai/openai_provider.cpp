#include "parley/llm/openai/openai_provider.hpp"

#include "parley/core/json.hpp"
#include "parley/llm/openai/openai_request.hpp"
#include "parley/llm/openai/openai_stream.hpp"
#include "parley/llm/remote_call.hpp"

namespace parley::llm {

namespace asio = boost::asio;

namespace {

constexpr std::string_view kName = "openai";
constexpr std::string_view kDefaultBaseUrl = "https://api.openai.com/v1";

class openai_provider final : public provider {
 public:
  explicit openai_provider(const openai_options& options)
      : options_(options),
        client_(client_options_for(options)),
        url_(join_url(options.base_url.empty() ? kDefaultBaseUrl : options.base_url, "chat/completions")) {}

  asio::awaitable<result<model_response>> stream(const model_request& request, stream_sink& sink,
                                                 generation_control& control) override {
    openai::stream_assembler assembler(sink);
    if (control.stopped()) co_return assembler.interrupt();
    const http::request req = make_request(request);
    result<void> outcome = ok();
    if (options_.streaming) {
      const sse_event_handler on_event = [&](const sse_event& event) { return assembler.on_event(event); };
      outcome = co_await stream_sse(client_, req, on_event, control, options_, kName);
    } else {
      auto answer = co_await fetch_json(client_, req, control, options_, kName);
      outcome = answer ? assembler.on_chunk(*answer) : result<void>(std::move(answer).err());
    }
    if (!outcome) {
      if (outcome.err().code == errc::cancelled || control.stopped()) co_return assembler.interrupt();
      co_return named_error(kName, std::move(outcome).err());
    }
    auto response = assembler.finish();
    if (!response) co_return named_error(kName, std::move(response).err());
    co_return response;
  }

  std::string_view kind() const override { return kName; }

 private:
  http::request make_request(const model_request& request) const {
    http::request req;
    req.url = url_;
    req.body = to_json_text(openai::build_request_body(request, options_.streaming));
    req.headers = {{"Content-Type", "application/json"},
                   {"Accept", options_.streaming ? "text/event-stream" : "application/json"}};
    if (!options_.api_key.empty()) req.headers.push_back({"Authorization", "Bearer " + options_.api_key});
    req.headers.insert(req.headers.end(), options_.extra_headers.begin(), options_.extra_headers.end());
    return req;
  }

  openai_options options_;
  http::client client_;
  std::string url_;
};

}  // namespace

std::shared_ptr<provider> make_openai_provider(const openai_options& options) {
  return std::make_shared<openai_provider>(options);
}

}  // namespace parley::llm
