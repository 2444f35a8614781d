#include "parley/http/client.hpp"
#include "parley/core/guarded.hpp"

#include <boost/asio/ssl/context.hpp>
#include <boost/asio/this_coro.hpp>

#include <algorithm>
#include <cctype>
#include <mutex>

#include "parley/core/text.hpp"
#include "parley/http/detail/cancel_guard.hpp"
#include "parley/http/detail/connection_pool.hpp"
#include "parley/http/detail/connector.hpp"
#include "parley/http/detail/exchange.hpp"

namespace parley::http {

namespace asio = boost::asio;

namespace {

std::string pool_key(const url_parts& target, const std::optional<proxy_endpoint>& proxy) {
  std::string key = (target.tls ? "https://" : "http://") + target.authority;
  if (proxy) key += " via " + proxy->host + ":" + std::to_string(proxy->port) + " " + proxy->authorization;
  return key;
}

}  // namespace

std::string_view response::header(std::string_view name) const {
  for (const auto& field : headers) {
    if (iequals_ascii(field.name, name)) return field.value;
  }
  return {};
}

class client::impl {
 public:
  explicit impl(client_options options)
      : options_(std::move(options)),
        proxy_(options_.proxy ? *options_.proxy : proxy_settings::from_environment()),
        pool_(options_.max_idle_per_host, options_.max_idle_time) {}

  asio::awaitable<result<response>> run(const request& req, const head_callback* on_head, const body_callback* on_body,
                                        asio::cancellation_slot cancel) {
    auto found = route_to(req.url);
    if (!found) co_return std::move(found).err();
    const std::shared_ptr<const route> way = std::move(*found);
    const url_parts& target = way->target;
    const std::optional<proxy_endpoint>& proxy = way->proxy;
    const std::string& key = way->pool_key;
    asio::ssl::context* tls = nullptr;
    if (target.tls) {
      auto context = tls_context();
      if (!context) co_return std::move(context).err();
      tls = *context;
    }

    detail::cancel_guard guard(cancel);
    const detail::exchange_params params{req,
                                         target,
                                         options_,
                                         proxy.has_value() && !target.tls,
                                         proxy.has_value() ? proxy->authorization : std::string(),
                                         on_body,
                                         on_head};
    // A pooled connection may have been closed by the server while idle; that shows as a failure
    // before any response byte, and the request then goes once more on a fresh connection.
    const auto executor = co_await asio::this_coro::executor;
    for (bool may_retry = true;; may_retry = false) {
      auto conn = pool_.take(key, executor);
      const bool reused = conn != nullptr;
      if (!conn) {
        const detail::connect_params connect{target, proxy, options_.timeouts, tls, options_.verify_tls};
        auto opened = co_await detail::open_connection(connect, key, guard);
        if (!opened) co_return std::move(opened).err();
        conn = std::move(*opened);
      }
      guard.watch(conn.get());
      detail::exchange_state state;
      auto outcome = co_await detail::exchange(*conn, params, state, guard);
      guard.watch(static_cast<detail::connection*>(nullptr));
      if (!outcome && reused && state.stale && may_retry && !guard.fired()) continue;
      if (outcome && state.reusable && !guard.fired()) pool_.put(std::move(conn));
      co_return outcome;
    }
  }

  const client_options& options() const noexcept { return options_; }
  std::size_t idle_connections() const { return pool_.idle_count(); }

 private:
  // Where a URL leads: its parts, the proxy (if any) and the pool its connections share.
  struct route {
    url_parts target;
    std::optional<proxy_endpoint> proxy;
    std::string pool_key;
  };

  // A client talks to one provider URL almost always; parsing it and matching it against the proxy
  // settings once instead of per request is a few allocations less per model call.
  result<std::shared_ptr<const route>> route_to(const std::string& url) {
    {
      parley::lock_guard lock(route_mutex_);
      if (last_route_ != nullptr && last_url_ == url) return last_route_;
    }
    auto target = parse_url(url);
    if (!target) return std::move(target).err();
    auto proxy = proxy_for(proxy_, *target);
    if (!proxy) return std::move(proxy).err();
    auto made = std::make_shared<route>();
    made->pool_key = pool_key(*target, *proxy);
    made->target = std::move(*target);
    made->proxy = std::move(*proxy);
    parley::lock_guard lock(route_mutex_);
    last_url_ = url;
    last_route_ = made;
    return std::shared_ptr<const route>(std::move(made));
  }

  // Loading the system CA store takes a while, so only clients that meet an https URL do it.
  result<asio::ssl::context*> tls_context() {
    std::call_once(tls_once_, [this] { set_up_tls(); });
    if (tls_setup_error_) return *tls_setup_error_;
    return &*tls_context_;
  }

  void set_up_tls() {
    try {
      tls_context_.emplace(asio::ssl::context::tls_client);
    } catch (const std::exception& e) {  // SSL_CTX_new failed; report it per request instead of throwing
      tls_setup_error_ = make_error(errc::internal, std::string("cannot create a TLS context: ") + e.what());
      return;
    }
    boost::system::error_code ec;
    tls_context_->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                                  asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                                  asio::ssl::context::no_tlsv1_1,
                              ec);
    if (!ec) tls_context_->set_default_verify_paths(ec);
    if (ec) {
      tls_setup_error_ = make_error(errc::config_error, "cannot load the system CA store: " + ec.message());
      return;
    }
    if (!options_.ca_file.empty()) {
      tls_context_->load_verify_file(options_.ca_file, ec);
      if (ec) {
        tls_setup_error_ =
            make_error(errc::config_error, "cannot load CA file " + options_.ca_file + ": " + ec.message());
      }
    }
  }

  client_options options_;
  proxy_settings proxy_;
  detail::connection_pool pool_;
  std::once_flag tls_once_;
  std::optional<asio::ssl::context> tls_context_;  // set once under tls_once_, then only read
  std::optional<error> tls_setup_error_;
  parley::mutex route_mutex_;
  std::string last_url_ PARLEY_GUARDED_BY(route_mutex_);
  std::shared_ptr<const route> last_route_ PARLEY_GUARDED_BY(route_mutex_);
};

client::client(client_options options) : impl_(std::make_unique<impl>(std::move(options))) {}
client::~client() = default;

asio::awaitable<result<response>> client::send(const request& req, asio::cancellation_slot cancel) {
  co_return co_await impl_->run(req, nullptr, nullptr, cancel);
}

asio::awaitable<result<response>> client::stream(const request& req, body_callback on_body,
                                                 asio::cancellation_slot cancel) {
  co_return co_await impl_->run(req, nullptr, &on_body, cancel);
}

asio::awaitable<result<response>> client::stream(const request& req, head_callback on_head, body_callback on_body,
                                                 asio::cancellation_slot cancel) {
  co_return co_await impl_->run(req, &on_head, &on_body, cancel);
}

std::size_t client::idle_connections() const { return impl_->idle_connections(); }
const client_options& client::options() const noexcept { return impl_->options(); }

}  // namespace parley::http
