// Internal to the HTTP providers: the one call flow they share (stream or fetch, assemble,
// interrupt on stop, name the provider in errors). A wire format plugs in as `Wire`:
//   options_type, assembler, kName, kDefaultBaseUrl, kPath,
//   body_without_tools(request, streaming) -> JSON text of an object (or result of it),
//   tools(specs) -> json array,
//   add_auth(headers, options) -> void or result<void> (a credential read from a file may be missing),
//   on_whole_answer(assembler, body text) -> result<void>.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "parley/core/guarded.hpp"
#include "parley/core/json.hpp"
#include "parley/llm/remote_call.hpp"

namespace parley::llm {

template <class Wire>
class remote_provider final : public provider {
 public:
  explicit remote_provider(const typename Wire::options_type& options)
      : options_(options),
        client_(client_options_for(options)),
        url_(join_url(options.base_url.empty() ? Wire::kDefaultBaseUrl : options.base_url, Wire::kPath)) {}

  boost::asio::awaitable<result<model_response>> stream(const model_request& request, stream_sink& sink,
                                                        generation_control& control) override {
    // Optional so a restarted stream assembles from scratch.
    std::optional<typename Wire::assembler> assembling;
    assembling.emplace(sink);
    auto& assembler = *assembling;
    if (control.stopped()) co_return assembler.interrupt();
    const bool streaming = options_.streaming && request.stream;
    auto made = make_request(request, streaming);
    if (!made) co_return named_error(Wire::kName, std::move(made).err());
    const http::request req = std::move(*made);
    result<void> outcome = ok();
    if (streaming) {
      const sse_event_handler on_event = [&](const http::sse_event& event) { return assembling->on_event(event); };
      const restart_callback on_restart = [&](const std::string& reason) {
        sink.on_discard(reason);
        assembling.emplace(sink);
      };
      outcome = co_await stream_sse(client_, req, on_event, control, options_, Wire::kName, on_restart);
    } else {
      auto answer = co_await call_with_retries(client_, req, nullptr, control, options_.retry, Wire::kName);
      outcome = answer ? Wire::on_whole_answer(assembler, answer->body) : result<void>(std::move(answer).err());
    }
    if (!outcome) {
      if (outcome.err().code == errc::cancelled || control.stopped()) co_return assembling->interrupt();
      co_return named_error(Wire::kName, std::move(outcome).err());
    }
    auto response = assembling->finish();
    if (!response) co_return named_error(Wire::kName, std::move(response).err());
    co_return response;
  }

  std::string_view kind() const override { return Wire::kName; }

 private:
  result<http::request> make_request(const model_request& request, bool streaming) const {
    http::request req;
    req.url = url_;
    // A wire whose body can be refused (a model parameter of the wrong type) returns a result.
    result<std::string> body = Wire::body_without_tools(request, streaming);
    if (!body) return std::move(body).err();
    req.body = std::move(*body);
    if (request.tools && !request.tools->empty()) {
      // A member's tool list is the same for every call it makes and, with the dialog tools, the
      // larger part of the body: its text is made once and spliced into the body's object.
      req.body.pop_back();  // the closing brace
      req.body += ",\"tools\":";
      append_tools_text(request.tools, req.body);
      req.body += '}';
    }
    req.headers = {{"Content-Type", "application/json"},
                   {"Accept", streaming ? "text/event-stream" : "application/json"}};
    using auth_outcome = decltype(Wire::add_auth(req.headers, options_));
    if constexpr (std::is_void_v<auth_outcome>) {
      Wire::add_auth(req.headers, options_);
    } else {
      PARLEY_TRY(Wire::add_auth(req.headers, options_));
    }
    req.headers.insert(req.headers.end(), options_.extra_headers.begin(), options_.extra_headers.end());
    return req;
  }

  void append_tools_text(const tool_list& tools, std::string& out) const {
    parley::lock_guard lock(tools_mutex_);
    for (const auto& [list, text] : tools_texts_) {
      if (!list.owner_before(tools) && !tools.owner_before(list) && !list.expired()) {
        out += text;
        return;
      }
    }
    // A team has a few lists per member; many more means lists made per call: start over.
    constexpr std::size_t kMaxCachedLists = 256;
    if (tools_texts_.size() >= kMaxCachedLists) tools_texts_.clear();
    std::erase_if(tools_texts_, [](const auto& entry) { return entry.first.expired(); });
    out += tools_texts_.emplace_back(tools, to_json_text(Wire::tools(*tools))).second;
  }

  typename Wire::options_type options_;
  http::client client_;
  std::string url_;
  mutable parley::mutex tools_mutex_;
  mutable std::vector<std::pair<std::weak_ptr<const std::vector<tool_spec>>, std::string>> tools_texts_
      PARLEY_GUARDED_BY(tools_mutex_);
};

}  // namespace parley::llm
