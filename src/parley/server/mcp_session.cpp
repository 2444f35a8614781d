#include "parley/server/mcp_session.hpp"

#include <algorithm>
#include <exception>
#include <initializer_list>
#include <vector>

#include "parley/core/json_fields.hpp"
#include "parley/server/mcp_resources.hpp"
#include "parley/server/mcp_tool_calls.hpp"
#include "parley/server/mcp_tools.hpp"

namespace parley::server {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

constexpr const char* kInstructions =
    "This server is a Parley team of AI agents. Each ask_<member> tool hands a task to one member, who may "
    "delegate to teammates; the call returns the team's final answer with a dialog_id (pass it back to "
    "continue that conversation). A result with status \"waiting_for_human\" carries the team's questions: "
    "answer them with answer_question. A result with status \"working\" means the team is still busy: call "
    "wait_for_answer with its dialog_id. Dialogs and open questions are also resources (parley://dialogs/<id>, "
    "parley://questions/<id>).";

mcp::rpc_error rpc_failure(int code, std::string message) { return mcp::rpc_error{code, std::move(message), {}}; }

// The members of `params` other than `allowed`, refused with the first one named.
std::optional<mcp::rpc_error> unknown_param(const json::object& params, std::string_view method,
                                            std::initializer_list<std::string_view> allowed) {
  for (const auto& member : params) {
    if (std::find(allowed.begin(), allowed.end(), member.key()) != allowed.end()) continue;
    return rpc_failure(mcp::rpc_code::kInvalidParams, "params." + std::string(member.key()).substr(0, 64) +
                                                          ": unknown member of " + std::string(method));
  }
  return std::nullopt;
}

// params._meta: an object, whose progressToken (if any) is a string or an integer.
result<std::optional<json::value>> read_meta(const json::object& params) {
  const auto* meta = params.if_contains("_meta");
  if (meta == nullptr) return std::optional<json::value>{};
  if (!meta->is_object()) return make_error(errc::invalid_argument, "params._meta: expected an object");
  const auto* token = meta->as_object().if_contains("progressToken");
  if (token == nullptr) return std::optional<json::value>{};
  if (!token->is_string() && !token->is_int64() && !token->is_uint64()) {
    return make_error(errc::invalid_argument, "params._meta.progressToken: expected a string or an integer");
  }
  return std::optional<json::value>{*token};
}

// Takes the request's in-flight entry out when the request ends, however it ends.
class in_flight_entry {
 public:
  in_flight_entry(std::map<std::string, std::shared_ptr<request_cancel>>& map, std::string key)
      : map_(map), key_(std::move(key)), cancel_(std::make_shared<request_cancel>()) {
    map_.emplace(key_, cancel_);
  }
  ~in_flight_entry() {
    const auto found = map_.find(key_);
    if (found != map_.end() && found->second == cancel_) map_.erase(found);
  }
  in_flight_entry(const in_flight_entry&) = delete;
  in_flight_entry& operator=(const in_flight_entry&) = delete;
  request_cancel& cancel() { return *cancel_; }

 private:
  std::map<std::string, std::shared_ptr<request_cancel>>& map_;
  std::string key_;
  std::shared_ptr<request_cancel> cancel_;
};

json::object server_capabilities() {
  return json::object{{"tools", json::object{{"listChanged", false}}},
                      {"resources", json::object{{"subscribe", false}, {"listChanged", false}}}};
}

// tools/list has one page: every member and the two tools of questions and waiting.
std::optional<mcp::rpc_error> refuse_cursor(const json::object& params, std::string_view method) {
  if (auto refused = unknown_param(params, method, {"cursor"})) return refused;
  if (params.contains("cursor")) {
    return rpc_failure(mcp::rpc_code::kInvalidParams,
                       "params.cursor: " + std::string(method) + " has one page; there is no cursor to follow");
  }
  return std::nullopt;
}

}  // namespace

mcp_session::mcp_session(server_context& context, const user& who, mcp_settings settings)
    : context_(context), who_(who), settings_(std::move(settings)) {}

mcp_session::answer mcp_session::initialize(const json::object& params) {
  if (initialized()) {
    return rpc_failure(mcp::rpc_code::kInvalidRequest, "initialize: this session is initialized already");
  }
  if (auto refused = unknown_param(params, "initialize", {"protocolVersion", "capabilities", "clientInfo"})) {
    return *refused;
  }
  json_fields in(params, "params");
  const std::string requested = in.string("protocolVersion");
  (void)in.object("capabilities");
  if (const auto* client = in.object("clientInfo")) {
    json_fields info = in.nested(*client, "clientInfo");
    (void)info.string("name");
    (void)info.string("version");
    in.adopt(info);
  }
  if (!in.ok()) return rpc_failure(mcp::rpc_code::kInvalidParams, in.message());
  version_ = negotiate_mcp_version(requested);
  json::object server_info{{"name", "parley"}, {"version", settings_.server_version}};
  if (mcp_version_has_structured_output(version_)) server_info["title"] = "Parley";
  return json::object{{"protocolVersion", version_},
                      {"capabilities", server_capabilities()},
                      {"serverInfo", std::move(server_info)},
                      {"instructions", kInstructions}};
}

asio::awaitable<std::optional<mcp_session::answer>> mcp_session::dispatch(const mcp::rpc_request& request,
                                                                          mcp_call_env& env) {
  const auto& method = request.method;
  const auto& params = request.params;
  if (method == "initialize") co_return initialize(params);
  if (method == "ping") {
    if (auto refused = unknown_param(params, method, {})) co_return *refused;
    co_return json::value(json::object{});
  }
  if (!initialized()) {
    co_return rpc_failure(mcp::rpc_code::kInvalidRequest,
                          method.substr(0, 64) + ": the session is not initialized; send initialize first");
  }
  if (method == "tools/list") {
    if (auto refused = refuse_cursor(params, method)) co_return *refused;
    co_return json::value(json::object{{"tools", tool_list(context_.engine.team(), version_)}});
  }
  if (method == "tools/call") {
    auto called = co_await call_tool(env, params);
    if (!called) co_return std::nullopt;
    if (auto* failed = std::get_if<mcp::rpc_error>(&*called)) co_return std::move(*failed);
    co_return json::value(std::move(std::get<json::object>(*called)));
  }
  if (method == "resources/templates/list") {
    if (auto refused = refuse_cursor(params, method)) co_return *refused;
    co_return json::value(resource_templates(version_));
  }
  if (method == "resources/list" || method == "resources/read") {
    resource_answer served = mcp::rpc_error{};
    if (method == "resources/list") {
      served = co_await list_resources(context_, who_, params, version_);
    } else {
      served = co_await read_resource(context_, who_, params, version_);
    }
    if (auto* failed = std::get_if<mcp::rpc_error>(&served)) co_return std::move(*failed);
    co_return json::value(std::move(std::get<json::object>(served)));
  }
  co_return rpc_failure(mcp::rpc_code::kMethodNotFound, "method not found: " + method.substr(0, 64));
}

asio::awaitable<void> mcp_session::handle_request(mcp::rpc_request request, mcp_reply& reply) {
  if (closed_) co_return;
  const std::string key = mcp::to_string(request.id);
  if (in_flight_.contains(key)) {
    std::string refused =
        mcp::serialize(mcp::error_response(request.id, mcp::rpc_code::kInvalidRequest,
                                           "id " + key.substr(0, 64) + ": a request with this id is in flight"));
    co_await reply.respond(std::move(refused));
    co_return;
  }
  in_flight_entry entry(in_flight_, key);
  auto meta = read_meta(request.params);
  if (!meta) {
    std::string refused =
        mcp::serialize(mcp::error_response(request.id, mcp::rpc_code::kInvalidParams, meta.err().message));
    co_await reply.respond(std::move(refused));
    co_return;
  }
  request.params.erase("_meta");
  mcp_call_env env{context_, who_, settings_, version_, entry.cancel(), reply, std::move(*meta)};
  std::optional<answer> answered;
  try {
    answered = co_await dispatch(request, env);
  } catch (const std::exception& e) {
    // co_await is not allowed in a catch block: the failure is answered below.
    answered = rpc_failure(mcp::rpc_code::kInternalError, request.method.substr(0, 64) + ": " + e.what());
  }
  if (!answered || entry.cancel().cancelled()) co_return;
  mcp::rpc_response response{request.id, std::move(*answered)};
  std::string text = mcp::serialize(response);
  co_await reply.respond(std::move(text));
}

void mcp_session::handle_notification(const mcp::rpc_notification& notification) {
  if (notification.method != "notifications/cancelled") return;
  // Its requestId is read as strictly as a request's id; a notification that names nothing we
  // run is ignored, as the protocol says (the request may have just ended).
  const auto* id = notification.params.if_contains("requestId");
  if (id == nullptr || !(id->is_string() || id->is_int64())) return;
  const std::string key = id->is_string() ? mcp::to_string(mcp::request_id{std::string(id->as_string())})
                                          : mcp::to_string(mcp::request_id{id->as_int64()});
  const auto found = in_flight_.find(key);
  if (found == in_flight_.end()) return;
  auto cancel = found->second;  // held: cancelling may end the request and erase its entry
  cancel->cancel();
}

void mcp_session::close() {
  closed_ = true;
  std::vector<std::shared_ptr<request_cancel>> running;
  for (const auto& [key, cancel] : in_flight_) running.push_back(cancel);
  for (const auto& cancel : running) cancel->cancel();
}

}  // namespace parley::server
