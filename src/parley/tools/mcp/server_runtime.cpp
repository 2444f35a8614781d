#include "parley/tools/mcp/server_runtime.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace parley::tools::mcp {

namespace asio = boost::asio;

namespace {

constexpr std::chrono::milliseconds kFirstBackoff{1000};
constexpr std::chrono::milliseconds kLongestBackoff{30'000};

std::string seconds_text(std::chrono::steady_clock::duration left) {
  const auto whole = std::chrono::duration_cast<std::chrono::seconds>(left).count() + 1;
  return std::to_string(whole) + " s";
}

}  // namespace

std::shared_ptr<server_runtime> server_runtime::create(asio::any_io_executor executor, config::mcp_server_config config,
                                                       runtime_settings settings) {
  return std::shared_ptr<server_runtime>(
      new server_runtime(std::move(executor), std::move(config), std::move(settings)));
}

server_runtime::server_runtime(asio::any_io_executor executor, config::mcp_server_config config,
                               runtime_settings settings)
    : executor_(std::move(executor)),
      config_(std::move(config)),
      settings_(std::move(settings)),
      start_done_(executor_) {
  start_done_.expires_at(asio::steady_timer::time_point::max());
}

server_runtime::~server_runtime() {
  if (session_) session_->close("MCP server '" + config_.id + "' was stopped");
}

void server_runtime::log(const std::string& line) const {
  const std::string full = "server '" + config_.id + "': " + line;
  if (settings_.log) {
    settings_.log(full);
  } else {
    log_to_stderr(full);
  }
}

void server_runtime::note_crash(const std::string& why) {
  backoff_ = backoff_.count() == 0 ? kFirstBackoff : std::min(backoff_ * 2, kLongestBackoff);
  restart_at_ = std::chrono::steady_clock::now() + backoff_;
  last_crash_ = why;
  log("stopped: " + why + "; it is started again at the next use from " + std::to_string(backoff_.count() / 1000) +
      " s on");
}

asio::awaitable<result<std::shared_ptr<session>>> server_runtime::ready() {
  auto self = shared_from_this();  // a reload may drop the pool's reference meanwhile
  for (;;) {
    if (session_ && session_->alive()) co_return session_;
    if (session_ && session_->failure_code() == errc::not_found) {
      // A streamable HTTP server forgot the session (it expired): a new one at once, not a crash,
      // and not the configured sessionId again.
      log("its session expired (" + session_->failure() + "); a new one is started");
      session_expired_ = true;
      session_.reset();
    }
    if (session_) {
      note_crash(session_->failure());
      session_.reset();
    }
    if (starting_) {  // another request is starting it: its outcome is this one's
      boost::system::error_code ec;
      co_await start_done_.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    if (const auto now = std::chrono::steady_clock::now(); now < restart_at_) {
      co_return make_error(errc::unavailable, "MCP server '" + config_.id + "' is restarting after: " + last_crash_ +
                                                  " (next try in " + seconds_text(restart_at_ - now) + ")");
    }
    co_return co_await start();
  }
}

asio::awaitable<result<std::shared_ptr<session>>> server_runtime::start() {
  auto self = shared_from_this();
  starting_ = true;
  stopped_while_starting_ = false;
  struct end_of_start {
    server_runtime& runtime;
    ~end_of_start() {
      runtime.starting_ = false;
      runtime.start_done_.cancel();
    }
  } ending{*this};
  auto plan = plan_launch(config_, settings_.workspace, settings_.env);
  if (!plan) {
    note_crash(plan.err().message);
    co_return std::move(plan).err();
  }
  if (session_expired_) plan->session_id.clear();
  if (settings_.wrap && plan->transport == config::mcp_transport::stdio) {
    auto prefix = settings_.wrap(plan->cwd);
    if (!prefix) {
      const std::string why =
          "MCP server '" + config_.id + "' cannot run in the member's sandbox: " + prefix.err().message;
      note_crash(why);
      co_return make_error(prefix.err().code, why);
    }
    plan->argv.insert(plan->argv.begin(), prefix->begin(), prefix->end());
  }
  auto channel = settings_.make(executor_, config_.id, *plan);
  if (!channel) {
    note_crash(channel.err().message);
    co_return std::move(channel).err();
  }
  session_settings connection;
  connection.server_id = config_.id;
  connection.start_timeout = config_.start_timeout;
  connection.call_timeout = config_.call_timeout;
  connection.max_result_bytes = config_.max_result_bytes;
  connection.workspace = settings_.workspace;
  connection.notification_budget = settings_.notification_budget;
  connection.log = settings_.log;
  auto fresh = session::create(executor_, std::move(*channel), std::move(connection));
  auto started = co_await fresh->start();
  if (!started) {
    note_crash(started.err().message);
    co_return std::move(started).err();
  }
  if (stopped_while_starting_) {
    fresh->close("MCP server '" + config_.id + "' was stopped while it started");
    co_return make_error(errc::cancelled, "MCP server '" + config_.id + "' was stopped while it started");
  }
  session_ = fresh;
  ++sessions_started_;
  log("started (" + started->name + " " + started->version + ", MCP revision " + started->protocol_version + ")");
  co_return fresh;
}

asio::awaitable<result<std::shared_ptr<const std::vector<tool_info>>>> server_runtime::tools() {
  auto self = shared_from_this();
  auto connected = co_await ready();
  if (!connected) co_return std::move(connected).err();
  const auto& live = *connected;
  const std::uint64_t number = sessions_started_;
  const std::uint64_t version = live->list_version(list_kind::tools);
  if (tools_ && tools_session_ == number && tools_version_ == version) co_return tools_;
  auto listed = co_await live->list_tools();
  if (!listed) co_return std::move(listed).err();
  note_success();
  tools_ = std::make_shared<const std::vector<tool_info>>(std::move(*listed));
  tools_session_ = number;
  tools_version_ = version;
  co_return tools_;
}

std::shared_ptr<const std::vector<tool_info>> server_runtime::current_tools() const {
  if (!tools_ || !session_ || !session_->alive()) return nullptr;
  if (tools_session_ != sessions_started_ || tools_version_ != session_->list_version(list_kind::tools)) return nullptr;
  return tools_;
}

asio::awaitable<result<tool_call_result>> server_runtime::call_tool(std::string name, boost::json::object arguments,
                                                                    call_options options) {
  auto self = shared_from_this();
  auto connected = co_await ready();
  if (!connected) co_return std::move(connected).err();
  auto called = co_await (*connected)->call_tool(std::move(name), std::move(arguments), std::move(options));
  if (called) note_success();
  co_return called;
}

asio::awaitable<result<std::shared_ptr<const resource_listing>>> server_runtime::resources() {
  auto self = shared_from_this();
  auto connected = co_await ready();
  if (!connected) co_return std::move(connected).err();
  const auto& live = *connected;
  const std::uint64_t number = sessions_started_;
  const std::uint64_t version = live->list_version(list_kind::resources);
  if (resources_ && resources_session_ == number && resources_version_ == version) co_return resources_;
  resource_listing listing;
  if (live->identity().has_resources) {
    auto listed = co_await live->list_resources();
    if (!listed) co_return std::move(listed).err();
    listing.resources = std::move(*listed);
    // Templates are optional: a server may list resources and refuse templates/list.
    auto templates = co_await live->list_resource_templates();
    if (templates) {
      listing.templates = std::move(*templates);
    } else if (templates.err().code != errc::provider_error) {
      co_return std::move(templates).err();
    }
  }
  resources_ = std::make_shared<const resource_listing>(std::move(listing));
  resources_session_ = number;
  resources_version_ = version;
  co_return resources_;
}

asio::awaitable<result<std::vector<resource_contents>>> server_runtime::read_resource(std::string uri) {
  auto self = shared_from_this();
  auto connected = co_await ready();
  if (!connected) co_return std::move(connected).err();
  co_return co_await (*connected)->read_resource(std::move(uri));
}

void server_runtime::stop(const std::string& why) {
  if (starting_) stopped_while_starting_ = true;
  if (session_) session_->close(why);
  session_.reset();
  backoff_ = std::chrono::milliseconds(0);
  restart_at_ = {};
}

std::uint64_t server_runtime::tools_generation() const {
  const std::uint64_t version = session_ ? session_->list_version(list_kind::tools) : 0;
  return (sessions_started_ << 32) ^ version;
}

std::string server_runtime::problem() const {
  if (session_ && session_->alive()) return {};
  if (session_) return "MCP server '" + config_.id + "' stopped: " + session_->failure();
  if (std::chrono::steady_clock::now() < restart_at_) {
    return "MCP server '" + config_.id + "' is restarting after: " + last_crash_;
  }
  return {};
}

}  // namespace parley::tools::mcp
