// One fixture for the tests of a remote model adapter (OpenAI's Chat Completions, the Responses
// API): a fake HTTP server, options that point at it with one attempt and short timeouts, and a
// call that streams one request into a sink that checks the segment contract.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <memory>
#include <string>

#include "parley/llm/provider.hpp"
#include "recording_sink.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_awaitable.hpp"

namespace parley::testing {

// `Make` builds the adapter from its options (make_openai_provider, make_responses_provider).
template <class Options, std::shared_ptr<llm::provider> (*Make)(const Options&)>
class provider_fixture : public ::testing::Test {
 protected:
  Options options() {
    using namespace std::chrono_literals;
    Options opts;
    opts.base_url = server_.base_url() + "/v1";
    opts.api_key = "sk-test";
    opts.proxy = http::proxy_settings{};
    opts.retry.max_attempts = 1;
    opts.timeouts = {2'000ms, 5'000ms, 5'000ms};
    return opts;
  }

  static llm::model_request request_to(std::string model) {
    llm::model_request request;
    request.model = std::move(model);
    request.messages.push_back({llm::role::user, "Hi"});
    return request;
  }

  result<llm::model_response> call(const Options& opts, const llm::model_request& request) {
    auto provider = Make(opts);
    auto answer = run_awaitable(io_, provider->stream(request, sink_, control_));
    EXPECT_TRUE(sink_.violations.empty()) << sink_.violations.front();
    return answer;
  }

  boost::asio::io_context io_;
  fake_http_server server_;
  recording_sink sink_;
  llm::generation_control control_;
};

}  // namespace parley::testing
