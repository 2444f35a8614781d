#include "parley/server/openai_router.hpp"

#include <exception>
#include <string_view>
#include <vector>

#include "parley/server/answer_relay.hpp"
#include "parley/server/media_types.hpp"
#include "parley/server/openai_chat_handler.hpp"
#include "parley/server/openai_wire.hpp"
#include "parley/server/rest_router.hpp"

namespace parley::server {

namespace asio = boost::asio;

namespace {

// Every value handed to a coroutine here is named first: GCC 12 destroys a temporary built in the
// call of a coroutine inside a co_await expression twice.
asio::awaitable<void> send_openai_error(response_sink& sink, openai_error error) {
  std::string body = error_json(error);
  header_list none;
  co_await sink.send_json(error.status, std::move(none), std::move(body));
}

asio::awaitable<void> send_ok(response_sink& sink, std::string body) {
  header_list none;
  co_await sink.send_json(200, std::move(none), std::move(body));
}

// The members a model name can pick: those the engine drives (a flow member's dialogs are the flow
// layer's), in the team's order.
std::vector<std::string> offered_members(const server_context& context) {
  std::vector<std::string> ids;
  for (const auto& member : context.engine.team().members) {
    if (member.kind == config::member_kind::llm) ids.push_back(member.id);
  }
  return ids;
}

std::int64_t models_created(const server_context& context) {
  return context.answers != nullptr ? context.answers->started_at() : 0;
}

asio::awaitable<void> list_models(server_context& context, response_sink& sink) {
  const auto ids = offered_members(context);
  std::string body = models_json(ids, models_created(context));
  co_await send_ok(sink, std::move(body));
}

// `GET /v1/models/parley/lead`: the model's name spans the segments after "models".
asio::awaitable<void> get_model(server_context& context, const openai_request& request, response_sink& sink) {
  std::string name;
  for (std::size_t i = 2; i < request.segments.size(); ++i) name += (i > 2 ? "/" : "") + request.segments[i];
  const auto ids = offered_members(context);
  for (const auto& id : ids) {
    if (name == "parley/" + id) {
      std::string body = model_json(id, models_created(context));
      co_await send_ok(sink, std::move(body));
      co_return;
    }
  }
  openai_error refused{404, "model: no model '" + name.substr(0, 100) + "'", "model", "model_not_found"};
  co_await send_openai_error(sink, std::move(refused));
}

// A request that sends a body (or says what it is) must say application/json; a page of another
// site can send text/plain without a CORS preflight (media_types.hpp), never JSON.
bool refuses_non_json(const openai_request& request) {
  if (request.body.empty() && request.content_type.empty()) return false;
  return !is_json_media_type(request.content_type);
}

enum class openai_route { models, model, chat_completions, none };

openai_route openai_route_of(const std::vector<std::string>& segments) {
  if (segments.size() == 2 && segments[1] == "models") return openai_route::models;
  if (segments.size() >= 3 && segments[1] == "models") return openai_route::model;
  if (segments.size() == 3 && segments[1] == "chat" && segments[2] == "completions")
    return openai_route::chat_completions;
  return openai_route::none;
}

asio::awaitable<void> dispatch(server_context& context, const openai_request& request, response_sink& sink) {
  const openai_route chosen = openai_route_of(request.segments);
  const bool post = chosen == openai_route::chat_completions;
  if (chosen == openai_route::none) {
    openai_error refused{404, "no route " + request.path, {}, "not_found"};
    co_await send_openai_error(sink, std::move(refused));
    co_return;
  }
  if (request.method != (post ? "POST" : "GET")) {
    openai_error refused{405,
                         request.method + " " + request.path + ": method not allowed; use " + (post ? "POST" : "GET"),
                         {},
                         "method_not_allowed"};
    co_await send_openai_error(sink, std::move(refused));
    co_return;
  }
  if (post && refuses_non_json(request)) {
    openai_error refused{415,
                         "Content-Type: expected application/json, got '" + request.content_type.substr(0, 100) + "'",
                         {},
                         "unsupported_media_type"};
    co_await send_openai_error(sink, std::move(refused));
    co_return;
  }
  if (chosen == openai_route::models) {
    co_await list_models(context, sink);
  } else if (chosen == openai_route::model) {
    co_await get_model(context, request, sink);
  } else {
    co_await answer_chat_completion(context, request, sink);
  }
}

}  // namespace

asio::awaitable<void> handle_openai_request(server_context& context, openai_request request, response_sink& sink) {
  // http_server checked the token before reading the body; this tells who the user is.
  request.who = authenticate(context, request.authorization);
  if (request.who == nullptr) {
    const auto unauthorized = unauthorized_response(context);
    const auto& message = unauthorized.body.at("error").at("message").as_string();
    openai_error refused{401, std::string(message), {}, "invalid_api_key"};
    co_await send_openai_error(sink, std::move(refused));
    co_return;
  }
  // A bug in a handler must not take the server down: it becomes a 500 for this request only
  // (co_await is not allowed inside a catch block, so the message is kept and answered after it).
  std::string what;
  try {
    co_await dispatch(context, request, sink);
    co_return;
  } catch (const std::exception& e) {
    what = e.what();
  }
  openai_error refused{500, request.method + " " + request.path + ": " + what, {}, "internal", "server_error"};
  co_await send_openai_error(sink, std::move(refused));
}

}  // namespace parley::server
