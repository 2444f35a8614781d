#include "parley/tools/mcp/session.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <cctype>
#include <cstdio>

#include "parley/core/json_read.hpp"
#include "parley/core/terminal_text.hpp"
#include "parley/tools/mcp/result_reader.hpp"

#ifndef PARLEY_VERSION
#define PARLEY_VERSION "0"
#endif

namespace parley::tools::mcp {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

constexpr std::size_t kMaxQueuedReplies = 256;  // answers to the server's requests waiting to be sent
constexpr std::size_t kMessageLinesPerSecond = 10;
constexpr std::size_t kMaxLoggedChars = 400;
constexpr auto kFloodLogEvery = std::chrono::seconds(60);

std::string describe(std::chrono::milliseconds duration) {
  if (duration.count() % 1000 == 0) return std::to_string(duration.count() / 1000) + " s";
  return std::to_string(duration.count()) + " ms";
}

// A file:// URI for an absolute path: unreserved characters and '/' as they are, the rest
// percent-encoded (RFC 8089, RFC 3986).
std::string file_uri(const std::filesystem::path& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = "file://";
  for (const unsigned char c : path.generic_string()) {
    const bool plain = std::isalnum(c) != 0 || c == '/' || c == '-' || c == '.' || c == '_' || c == '~';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

std::string clipped(std::string text) {
  if (text.size() <= kMaxLoggedChars) return text;
  std::size_t cut = kMaxLoggedChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text + "…";
}

struct open_state {
  explicit open_state(const asio::any_io_executor& executor) : wake(executor) {}
  asio::steady_timer wake;
  std::optional<result<void>> outcome;
};

// Opens the transport and wakes whoever waits; `keep` holds the session (which owns the
// transport) until open has returned, even when nobody waits any more.
asio::awaitable<void> run_open(std::shared_ptr<void> keep, transport* channel, std::shared_ptr<open_state> state) {
  auto opened = co_await channel->open();
  state->outcome = std::move(opened);
  state->wake.cancel();
  (void)keep;
}

std::optional<double> optional_number(const json::object& params, std::string_view key) {
  const auto* value = params.if_contains(key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->to_number<double>();
}

}  // namespace

void log_to_stderr(const std::string& line) { std::fprintf(stderr, "parley: mcp: %s\n", terminal_safe(line).c_str()); }

std::shared_ptr<session> session::create(asio::any_io_executor executor, std::unique_ptr<transport> channel,
                                         session_settings settings) {
  return std::shared_ptr<session>(new session(std::move(executor), std::move(channel), std::move(settings)));
}

session::session(asio::any_io_executor executor, std::unique_ptr<transport> channel, session_settings settings)
    : executor_(std::move(executor)), transport_(std::move(channel)), settings_(std::move(settings)) {}

session::~session() {
  if (transport_ && !failure_) transport_->close();
}

std::string session::named(const std::string& text) const { return "MCP server '" + settings_.server_id + "' " + text; }

void session::log(const std::string& line) const {
  const std::string full = "server '" + settings_.server_id + "': " + line;
  if (settings_.log) {
    settings_.log(full);
  } else {
    log_to_stderr(full);
  }
}

asio::awaitable<result<void>> session::open_within(std::chrono::milliseconds timeout) {
  auto state = std::make_shared<open_state>(executor_);
  state->wake.expires_after(timeout);
  asio::co_spawn(executor_, run_open(shared_from_this(), transport_.get(), state), asio::detached);
  if (!state->outcome) {
    boost::system::error_code ec;
    co_await state->wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  if (state->outcome) co_return std::move(*state->outcome);
  co_return make_error(errc::unavailable, named("did not start within " + describe(timeout) + " (start_timeout)"));
}

asio::awaitable<result<server_identity>> session::start() {
  const auto began = std::chrono::steady_clock::now();
  if (auto opened = co_await open_within(settings_.start_timeout); !opened) {
    fail(opened.err().message);
    co_return std::move(opened).err();
  }
  asio::co_spawn(executor_, read_loop(shared_from_this()), asio::detached);

  json::object params{{"protocolVersion", kLatestProtocolVersion},
                      {"capabilities", json::object{{"roots", json::object{{"listChanged", false}}}}},
                      {"clientInfo", json::object{{"name", "parley"}, {"version", PARLEY_VERSION}}}};
  const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began);
  const auto left = std::max(std::chrono::milliseconds(1), settings_.start_timeout - spent);
  const limits bounds{left, kMaxMessageBytes};
  auto answered = co_await request("initialize", std::move(params), bounds);
  if (!answered) {
    const std::string why =
        answered.err().code == errc::limit_exceeded
            ? named("did not answer initialize within " + describe(settings_.start_timeout) + " (start_timeout)")
            : answered.err().message;
    close(why);
    co_return make_error(errc::unavailable, why);
  }
  auto identity = read_initialize_result(*answered);
  if (!identity) {
    const std::string why = named("answered initialize with an invalid result: " + identity.err().message);
    close(why);
    co_return make_error(errc::invalid_argument, why);
  }
  if (!is_supported_protocol_version(identity->protocol_version)) {
    std::string accepted;
    for (const char* version : kSupportedProtocolVersions)
      accepted += std::string(accepted.empty() ? "" : ", ") + version;
    const std::string why = named("speaks MCP revision '" + clipped(identity->protocol_version) +
                                  "', and Parley offers " + kLatestProtocolVersion + " and accepts " + accepted);
    close(why);
    co_return make_error(errc::invalid_argument, why);
  }
  identity_ = std::move(*identity);
  transport_->set_protocol_version(identity_.protocol_version);
  send(serialize(rpc_notification{"notifications/initialized", {}}));
  co_return identity_;
}

asio::awaitable<result<json::value>> session::request(std::string method, json::object params, limits bounds,
                                                      call_options* options) {
  if (failure_) co_return make_error(errc::unavailable, *failure_);
  const std::int64_t id = next_id_++;
  asio::steady_timer wake(executor_, bounds.timeout);
  pending_request entry;
  entry.wake = &wake;
  entry.max_bytes = bounds.max_bytes;
  if (options != nullptr && options->on_progress) {
    entry.on_progress = options->on_progress;
    params["_meta"] = json::object{{"progressToken", id}};
  }
  pending_[id] = &entry;
  bool cancelled = false;
  struct cleanup {
    session& self;
    std::int64_t id;
    asio::cancellation_slot slot;
    ~cleanup() {
      self.pending_.erase(id);
      if (slot.is_connected()) slot.clear();
    }
  } done{*this, id, options != nullptr ? options->cancel : asio::cancellation_slot{}};
  if (done.slot.is_connected()) {
    done.slot.assign([&cancelled, &wake](asio::cancellation_type) {
      cancelled = true;
      wake.cancel();
    });
  }
  send(serialize(rpc_request{id, method, std::move(params)}));
  if (!entry.outcome && !cancelled) {
    boost::system::error_code ec;
    co_await wake.async_wait(asio::redirect_error(asio::use_awaitable, ec));
  }
  if (entry.outcome) co_return std::move(*entry.outcome);
  // Timed out, or the caller gave up: the server may stop working on it.
  const std::string reason =
      cancelled ? "cancelled by Parley (the dialog was stopped)" : "timed out after " + describe(bounds.timeout);
  if (method != "initialize") {
    send(serialize(rpc_notification{"notifications/cancelled", json::object{{"requestId", id}, {"reason", reason}}}));
  }
  if (cancelled) co_return make_error(errc::cancelled, named(method + " was cancelled: the dialog was stopped"));
  co_return make_error(errc::limit_exceeded, named("did not answer " + method + " within " + describe(bounds.timeout) +
                                                   " (call_timeout); the request was cancelled"));
}

template <class T>
asio::awaitable<result<std::vector<T>>> session::list_all(std::string method,
                                                          result<listed_page<T>> (*read)(const json::value&)) {
  std::vector<T> all;
  std::optional<std::string> cursor;
  for (std::size_t page = 0;; ++page) {
    if (page == settings_.max_pages) {
      log(method + ": stopped after " + std::to_string(page) + " pages; the rest of the list is left out");
      break;
    }
    json::object params;
    if (cursor) params["cursor"] = *cursor;
    const limits bounds{settings_.call_timeout, kMaxMessageBytes};
    auto answered = co_await request(method, std::move(params), bounds);
    if (!answered) co_return std::move(answered).err();
    auto listed = read(*answered);
    if (!listed) {
      co_return make_error(errc::invalid_argument,
                           named("answered " + method + " with an invalid result: " + listed.err().message));
    }
    for (const auto& problem : listed->skipped) log(method + ": an entry was left out: " + clipped(problem));
    for (auto& item : listed->items) all.push_back(std::move(item));
    if (!listed->next_cursor) break;
    cursor = std::move(listed->next_cursor);
  }
  co_return all;
}

asio::awaitable<result<std::vector<tool_info>>> session::list_tools() {
  co_return co_await list_all<tool_info>("tools/list", read_tools_page);
}

asio::awaitable<result<tool_call_result>> session::call_tool(std::string name, json::object arguments,
                                                             call_options options) {
  json::object params{{"name", name}, {"arguments", std::move(arguments)}};
  const limits bounds{settings_.call_timeout, settings_.max_result_bytes};
  auto answered = co_await request("tools/call", std::move(params), bounds, &options);
  if (!answered) co_return std::move(answered).err();
  auto read = read_tool_call_result(*answered);
  if (!read) {
    co_return make_error(errc::invalid_argument,
                         named("answered tools/call of '" + name + "' with an invalid result: " + read.err().message));
  }
  co_return std::move(*read);
}

asio::awaitable<result<std::vector<resource_info>>> session::list_resources() {
  co_return co_await list_all<resource_info>("resources/list", read_resources_page);
}

asio::awaitable<result<std::vector<resource_template_info>>> session::list_resource_templates() {
  co_return co_await list_all<resource_template_info>("resources/templates/list", read_resource_templates_page);
}

asio::awaitable<result<std::vector<resource_contents>>> session::read_resource(std::string uri) {
  json::object params{{"uri", uri}};
  const limits bounds{settings_.call_timeout, settings_.max_result_bytes};
  auto answered = co_await request("resources/read", std::move(params), bounds);
  if (!answered) co_return std::move(answered).err();
  auto read = read_resource_result(*answered);
  if (!read) {
    co_return make_error(errc::invalid_argument,
                         named("answered resources/read with an invalid result: " + read.err().message));
  }
  co_return std::move(*read);
}

asio::awaitable<result<std::vector<prompt_info>>> session::list_prompts() {
  co_return co_await list_all<prompt_info>("prompts/list", read_prompts_page);
}

asio::awaitable<result<prompt_result>> session::get_prompt(std::string name,
                                                           std::map<std::string, std::string> arguments) {
  json::object args;
  for (auto& [key, value] : arguments) args[key] = value;
  json::object params{{"name", name}, {"arguments", std::move(args)}};
  const limits bounds{settings_.call_timeout, settings_.max_result_bytes};
  auto answered = co_await request("prompts/get", std::move(params), bounds);
  if (!answered) co_return std::move(answered).err();
  auto read = read_prompt_result(*answered);
  if (!read) {
    co_return make_error(errc::invalid_argument,
                         named("answered prompts/get with an invalid result: " + read.err().message));
  }
  co_return std::move(*read);
}

void session::close(std::string why) {
  if (failure_) return;
  fail(why);
}

void session::fail(const std::string& why, errc code) {
  if (failure_) return;
  failure_ = why;
  failure_code_ = code;
  outbox_.clear();
  if (transport_) transport_->close();
  // Each waiter removes its own entry when it wakes.
  for (auto& [id, entry] : pending_) {
    if (entry->outcome) continue;
    entry->outcome = make_error(errc::unavailable, why);  // the connection is gone, whatever ended it
    entry->wake->cancel();
  }
}

void session::send(std::string message, bool droppable) {
  if (failure_) return;
  if (droppable && outbox_.size() >= kMaxQueuedReplies) {
    ++dropped_;
    return;
  }
  outbox_.push_back(std::move(message));
  if (writing_) return;
  writing_ = true;
  asio::co_spawn(executor_, write_loop(shared_from_this()), asio::detached);
}

asio::awaitable<void> session::write_loop(std::shared_ptr<session> self) {
  while (!self->outbox_.empty() && !self->failure_) {
    std::string message = std::move(self->outbox_.front());
    self->outbox_.pop_front();
    auto sent = co_await self->transport_->send(std::move(message));
    if (!sent) self->fail(self->named("could not be written to: " + sent.err().message));
  }
  self->writing_ = false;
}

asio::awaitable<void> session::read_loop(std::shared_ptr<session> self) {
  while (!self->failure_) {
    auto received = co_await self->transport_->receive();
    if (!received) {
      self->fail(received.err().message, received.err().code);
      break;
    }
    self->dispatch(*received);
  }
}

void session::dispatch(const std::string& text) {
  std::optional<request_id> bad_request;
  auto parsed = parse_message(text, &bad_request);
  if (!parsed) {
    if (bad_request && within_budget()) {
      send(serialize(error_response(*bad_request, rpc_code::kInvalidRequest, parsed.err().message)), true);
    }
    on_invalid(text, parsed.err().message);
    return;
  }
  if (auto* response = std::get_if<rpc_response>(&*parsed)) {
    on_response(std::move(*response), text.size());
  } else if (const auto* asked = std::get_if<rpc_request>(&*parsed)) {
    if (within_budget()) on_request(*asked);
  } else if (within_budget()) {
    on_notification(std::get<rpc_notification>(*parsed));
  }
}

void session::on_invalid(const std::string& text, const std::string& problem) {
  // A broken response to a request that waits fails that request now rather than at its deadline.
  boost::system::error_code ec;
  const json::value doc = read_json(text, ec);
  if (!ec && doc.is_object() && !doc.as_object().contains("method")) {
    const auto* id = doc.as_object().if_contains("id");
    if (id != nullptr && id->is_int64()) {
      const auto found = pending_.find(id->as_int64());
      if (found != pending_.end() && !found->second->outcome) {
        found->second->outcome =
            make_error(errc::invalid_argument, named("sent an invalid JSON-RPC response: " + problem));
        found->second->wake->cancel();
      }
    }
  }
  if (invalid_logged_) return;
  invalid_logged_ = true;
  log("sent a message that is not valid JSON-RPC (" + problem + "); it and any later ones are skipped");
}

void session::on_response(rpc_response response, std::size_t size) {
  const auto* id = std::get_if<std::int64_t>(&response.id);
  const auto found = id == nullptr ? pending_.end() : pending_.find(*id);
  if (found == pending_.end() || found->second->outcome) {
    if (!unknown_id_logged_) {
      unknown_id_logged_ = true;
      log("answered request id " + clipped(to_string(response.id)) +
          ", which Parley is not waiting for (late, or never sent); skipped");
    }
    return;
  }
  pending_request& entry = *found->second;
  if (size > entry.max_bytes) {
    entry.outcome = make_error(
        errc::limit_exceeded, named("returned a result of " + std::to_string(size) + " bytes, more than the limit of " +
                                    std::to_string(entry.max_bytes) + " (max_result_bytes)"));
  } else if (auto* value = std::get_if<json::value>(&response.outcome)) {
    entry.outcome = std::move(*value);
  } else {
    const auto& refused = std::get<rpc_error>(response.outcome);
    entry.outcome = make_error(errc::provider_error, named("answered with an error: " + clipped(refused.message) +
                                                           " (code " + std::to_string(refused.code) + ")"));
  }
  entry.wake->cancel();
}

void session::on_request(const rpc_request& request) {
  if (request.method == "ping") {
    send(serialize(result_response(request.id, json::object{})), true);
  } else if (request.method == "roots/list") {
    json::array roots;
    if (!settings_.workspace.empty()) {
      roots.push_back(
          json::object{{"uri", file_uri(settings_.workspace)}, {"name", settings_.workspace.filename().string()}});
    }
    send(serialize(result_response(request.id, json::object{{"roots", std::move(roots)}})), true);
  } else {
    send(serialize(error_response(request.id, rpc_code::kMethodNotFound,
                                  "Parley does not offer '" + request.method + "' to servers")),
         true);
  }
}

void session::on_notification(const rpc_notification& notification) {
  const auto& method = notification.method;
  const auto& params = notification.params;
  if (method == "notifications/progress") {
    const auto* token = params.if_contains("progressToken");
    const auto progress = optional_number(params, "progress");
    if (token == nullptr || !token->is_int64() || !progress) return;
    const auto found = pending_.find(token->as_int64());
    if (found == pending_.end() || !found->second->on_progress) return;
    progress_update update{*progress, optional_number(params, "total"), {}};
    if (const auto* message = params.if_contains("message"); message != nullptr && message->is_string()) {
      update.message = clipped(std::string(message->get_string()));
    }
    found->second->on_progress(update);
  } else if (method == "notifications/tools/list_changed") {
    ++list_versions_[static_cast<int>(list_kind::tools)];
  } else if (method == "notifications/resources/list_changed") {
    ++list_versions_[static_cast<int>(list_kind::resources)];
  } else if (method == "notifications/prompts/list_changed") {
    ++list_versions_[static_cast<int>(list_kind::prompts)];
  } else if (method == "notifications/message") {
    if (++window_logged_ > kMessageLinesPerSecond) return;
    const auto* level = params.if_contains("level");
    const auto* data = params.if_contains("data");
    const std::string said = data == nullptr     ? ""
                             : data->is_string() ? std::string(data->get_string())
                                                 : json::serialize(*data);
    log(std::string(level != nullptr && level->is_string() ? level->get_string() : "log") + ": " + clipped(said));
  }
}

bool session::within_budget() {
  const auto now = std::chrono::steady_clock::now();
  if (now - window_start_ >= std::chrono::seconds(1)) {
    window_start_ = now;
    window_count_ = 0;
    window_logged_ = 0;
  }
  if (++window_count_ <= settings_.notification_budget) return true;
  ++dropped_;
  if (flood_logged_ == std::chrono::steady_clock::time_point{} || now - flood_logged_ >= kFloodLogEvery) {
    flood_logged_ = now;
    log("sent more than " + std::to_string(settings_.notification_budget) +
        " unasked messages in a second; the rest are dropped (" + std::to_string(dropped_) + " so far)");
  }
  return false;
}

}  // namespace parley::tools::mcp
