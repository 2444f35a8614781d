// Internal to the HTTP providers: one model call over HTTP with retries. A streamed call whose
// connection breaks after part of its body reached the caller is retried only through `on_restart`,
// which tells the caller to discard what it got, so a retry never repeats streamed output.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <boost/json/object.hpp>

#include <functional>
#include <string_view>

#include "parley/http/client.hpp"
#include "parley/llm/provider.hpp"
#include "parley/llm/remote_options.hpp"

namespace parley::llm {

// "<provider>: HTTP 429 Too Many Requests from HOST: <the server's message>" (errc::provider_error).
error http_status_error(std::string_view provider, const http::response& response, std::string_view url);

// How long the server asked us to wait (retry-after-ms, or Retry-After in seconds), if it did.
std::optional<std::chrono::milliseconds> retry_after(const http::response& response);

// Sends `req`; with `on_body` a 2xx body is streamed to it, without it read whole into the
// returned response. A non-2xx answer becomes http_status_error. Cancellation through `control`
// gives errc::cancelled, also while waiting to retry. When the connection fails after `on_body`
// took part of the body (not when `on_body` itself refused it), the call is retried only if
// `on_restart` is given; it runs first, with the failure's message.
using restart_callback = std::function<void(const std::string& reason)>;
boost::asio::awaitable<result<http::response>> call_with_retries(http::client& client, const http::request& req,
                                                                 const http::body_callback* on_body,
                                                                 generation_control& control,
                                                                 const retry_policy& policy, std::string_view provider,
                                                                 const restart_callback* on_restart = nullptr);

// Streams `req`'s SSE body event by event into `on_event`, with retries as above; a connection that
// breaks mid-stream is retried from the start after `on_restart` discarded what was delivered. An
// event handled after `control` was stopped is not delivered: the call ends with errc::cancelled.
using sse_event_handler = std::function<result<void>(const http::sse_event&)>;
boost::asio::awaitable<result<void>> stream_sse(http::client& client, const http::request& req,
                                                const sse_event_handler& on_event, generation_control& control,
                                                const remote_options& options, std::string_view provider,
                                                const restart_callback& on_restart);

// A whole (non-streamed) answer's body as a JSON object, or an error that quotes it.
result<boost::json::object> answer_object(std::string_view body);

// Prefixes "<provider>: " unless the message has it already.
error named_error(std::string_view provider, error err);

// Joins a base URL and a path without doubling or dropping the slash.
std::string join_url(std::string_view base, std::string_view path);

// A client configured from the provider options.
http::client_options client_options_for(const remote_options& options);

}  // namespace parley::llm
