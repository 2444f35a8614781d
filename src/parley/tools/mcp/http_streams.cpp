// The coroutines of the streamable HTTP transport on the wire: a POST per message, the resumption
// of a request's broken event stream, the GET stream. Each holds the shared state and runs on the
// transport's executor; what it reads goes to the inbox, and the first thing that goes wrong fails
// the inbox (after close() nothing is reported: the inbox already says closed).
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

#include "parley/tools/mcp/http_answer.hpp"
#include "parley/tools/mcp/http_transport_state.hpp"

namespace parley::tools::mcp {

namespace asio = boost::asio;

namespace {

using shared_state = std::shared_ptr<http_transport::state>;

// Resumptions in a row that brought nothing new before the request's stream is given up.
constexpr int kMaxFruitlessResumes = 2;
// The longest wait a server's `retry:` may ask for before a stream is opened again.
constexpr std::chrono::milliseconds kMaxRetryDelay{30'000};

std::string describe(const outgoing_message& message) {
  if (message.id) return "request " + to_string(*message.id) + " (" + message.method + ")";
  if (!message.method.empty()) return "notification " + message.method;
  return "a response to the server";
}

// An event id goes back to the server in Last-Event-ID, a session id in Mcp-Session-Id: only
// visible ASCII may (and not too much of it).
bool can_send_back(std::string_view id) {
  return !id.empty() && id.size() <= 1024 &&
         std::all_of(id.begin(), id.end(), [](char c) { return c >= 0x21 && c <= 0x7E; });
}

// Waits before a stream is opened again; false when the transport was closed meanwhile.
asio::awaitable<bool> pause(http_transport::state& shared, const http_answer& answer, asio::cancellation_slot slot) {
  const auto delay = std::min(answer.retry().value_or(shared.options.reconnect_delay), kMaxRetryDelay);
  asio::steady_timer timer(shared.executor, delay);
  co_await timer.async_wait(asio::bind_cancellation_slot(slot, asio::as_tuple(asio::use_awaitable)));
  co_return !shared.closed;
}

// A stream of events, read into `answer`, with `extra` headers: a GET (the server's stream, or a
// request's resumed one).
asio::awaitable<result<http::response>> get_events(http_transport::state& shared, http_answer& answer,
                                                   const http::header_list& extra, asio::cancellation_slot slot) {
  http::request req = shared.request("GET", true);
  req.headers.push_back({"Accept", "text/event-stream"});
  req.headers.insert(req.headers.end(), extra.begin(), extra.end());
  const http::head_callback on_head = [&answer](const http::response& head) { return answer.on_head(head); };
  const http::body_callback on_body = [&answer](std::string_view piece) { return answer.on_body(piece); };
  co_return co_await shared.client.stream(req, on_head, on_body, slot);
}

// A request's stream ended or broke before its response, after events with ids: asks for the rest
// with Last-Event-ID, as often as that brings something. ok() once the response came; an error
// when the stream cannot be had again.
asio::awaitable<result<void>> resume(http_transport::state& shared, http_answer& answer, const std::string& what,
                                     error broke, asio::cancellation_slot slot) {
  int fruitless = 0;
  while (!answer.answered()) {
    if (fruitless >= kMaxFruitlessResumes || !can_send_back(answer.last_event_id())) co_return broke;
    if (!co_await pause(shared, answer, slot)) co_return ok();
    answer.resume();
    const std::size_t before = answer.delivered();
    const http::header_list extra{{"Last-Event-ID", answer.last_event_id()}};
    auto got = co_await get_events(shared, answer, extra, slot);
    if (shared.closed) co_return ok();
    if (!got) {
      if (answer.refused() || answer.delivered() == before) co_return shared.wire_error(got.err());
      broke = shared.wire_error(got.err());
      fruitless = 0;
      continue;
    }
    if (!got->success()) {
      co_return shared.status_error(*got, !shared.session_id.empty(), "resuming the stream of " + what);
    }
    if (auto finished = answer.finish(); !finished) co_return finished;
    fruitless = answer.delivered() == before ? fruitless + 1 : 0;
    broke = make_error(errc::provider_error, server_says(shared.options.server, "the event stream of " + what +
                                                                                    " ended without its response"));
  }
  co_return ok();
}

// After the POST's exchange: what it means for the transport.
asio::awaitable<result<void>> settle(http_transport::state& shared, const outgoing_message& message,
                                     http_answer& answer, result<http::response> got, bool sent_session,
                                     asio::cancellation_slot slot) {
  const std::string what = describe(message);
  if (!got) {
    if (answer.refused()) co_return got.err();
    // A stream that breaks after the response has said all it had to.
    if (answer.answered()) co_return ok();
    if (!answer.is_event_stream()) co_return shared.wire_error(got.err());
    co_return co_await resume(shared, answer, what, shared.wire_error(got.err()), slot);
  }
  if (!got->success()) co_return shared.status_error(*got, sent_session, what);
  if (auto finished = answer.finish(); !finished) co_return finished;
  if (message.id && answer.is_event_stream() && !answer.answered()) {
    const error ended =
        make_error(errc::provider_error,
                   server_says(shared.options.server, "the event stream of " + what + " ended without its response"));
    co_return co_await resume(shared, answer, what, ended, slot);
  }
  co_return ok();
}

// The session id comes with the answer to `initialize`; it goes into a header of every later
// request, so only visible ASCII is taken (as the specification requires of it).
result<void> take_session_id(http_transport::state& shared, const http::response& head) {
  const std::string_view id = head.header("mcp-session-id");
  if (id.empty()) return ok();
  if (!can_send_back(id)) {
    return make_error(errc::provider_error,
                      server_says(shared.options.server,
                                  "sent an Mcp-Session-Id that cannot be sent back (not visible ASCII, or too long): " +
                                      body_excerpt(id)));
  }
  shared.session_id = std::string(id);
  return ok();
}

}  // namespace

asio::awaitable<void> post_message(shared_state shared, outgoing_message message) {
  if (shared->closed) co_return;  // closed before this coroutine got its turn
  in_flight_entry entry(*shared);
  const bool initialize = message.method == "initialize";
  // A new session starts without the old one's id and version.
  const bool sent_session = !initialize && !shared->session_id.empty();
  http::request req = shared->request("POST", !initialize);
  req.headers.push_back({"Content-Type", "application/json"});
  req.headers.push_back({"Accept", "application/json, text/event-stream"});
  req.body = std::move(message.text);
  const answer_kind kind = message.id ? answer_kind::request_answer : answer_kind::accepted_only;
  http_answer answer(shared->options.server, shared->options.max_message_bytes, shared->inbox, kind, message.id);
  const http::head_callback on_head = [&](const http::response& head) -> result<void> {
    if (initialize) PARLEY_TRY(take_session_id(*shared, head));
    return answer.on_head(head);
  };
  const http::body_callback on_body = [&answer](std::string_view piece) { return answer.on_body(piece); };
  auto got = co_await shared->client.stream(req, on_head, on_body, entry.slot());
  if (shared->closed) co_return;
  const bool accepted = got && got->success();
  auto settled = co_await settle(*shared, message, answer, std::move(got), sent_session, entry.slot());
  if (shared->closed) co_return;
  if (!settled) {
    shared->inbox.fail(std::move(settled).err());
    co_return;
  }
  if (accepted && message.method == "notifications/initialized" && shared->options.listen && !shared->listening) {
    shared->listening = true;
    asio::co_spawn(shared->executor, listen_to_server(shared), asio::detached);
  }
}

asio::awaitable<void> listen_to_server(shared_state shared) {
  if (shared->closed) co_return;
  in_flight_entry entry(*shared);
  std::optional<http_answer> answer;
  for (bool first = true;; first = false) {
    if (!first && !co_await pause(*shared, *answer, entry.slot())) co_return;
    // Opened again without Last-Event-ID: a server's event store may replay other streams' events
    // after that id (server-everything's does), and what the server sends unasked is not owed.
    answer.emplace(shared->options.server, shared->options.max_message_bytes, shared->inbox, answer_kind::event_stream,
                   std::nullopt);
    auto got = co_await get_events(*shared, *answer, {}, entry.slot());
    if (shared->closed) co_return;
    if (!got) {
      // Broken or idle after it was open: open it again. Not even opened: the server is unreachable.
      if (answer->refused() || !answer->opened()) {
        shared->inbox.fail(shared->wire_error(got.err()));
        co_return;
      }
      continue;
    }
    if (got->status == 405) co_return;  // the server offers no such stream
    if (!got->success()) {
      shared->inbox.fail(shared->status_error(*got, !shared->session_id.empty(), "the GET stream"));
      co_return;
    }
    if (auto finished = answer->finish(); !finished) {
      shared->inbox.fail(std::move(finished).err());
      co_return;
    }
  }
}

}  // namespace parley::tools::mcp
