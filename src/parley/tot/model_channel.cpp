#include "parley/tot/model_channel.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "parley/tot/protocol_names.hpp"

namespace parley::tot {

provider_channel::provider_channel(std::shared_ptr<llm::provider> provider, std::string model,
                                   std::chrono::milliseconds timeout)
    : provider_(std::move(provider)), model_(std::move(model)), timeout_(timeout) {}

boost::asio::awaitable<result<std::string>> provider_channel::ask(agent_call& call) {
  llm::model_request request;
  request.member_id = std::string(name_of(call.role));
  request.model = model_;
  request.system_prompt = call.system_prompt;
  request.messages = call.messages;
  request.params = call.params;
  request.stream = false;
  llm::stream_sink quiet;
  // The timer stops the generation when the time is up; both live as long as either needs them.
  auto control = std::make_shared<llm::generation_control>();
  auto timed_out = std::make_shared<bool>(false);
  auto executor = co_await boost::asio::this_coro::executor;
  auto timer = std::make_shared<boost::asio::steady_timer>(executor, timeout_);
  boost::asio::co_spawn(
      executor,
      [timer, control, timed_out]() -> boost::asio::awaitable<void> {
        auto [ec] = co_await timer->async_wait(boost::asio::as_tuple(boost::asio::use_awaitable));
        if (!ec) {
          *timed_out = true;
          control->stop();
        }
      },
      boost::asio::detached);
  ++meter_.calls;
  auto response = co_await provider_->stream(request, quiet, *control);
  timer->cancel();
  if (*timed_out) {
    co_return make_error(errc::limit_exceeded, "no answer within " + std::to_string(timeout_.count()) + " ms");
  }
  if (!response) co_return std::move(response).err();
  meter_.input_tokens += response->usage.input_tokens;
  meter_.output_tokens += response->usage.output_tokens;
  co_return std::move(response->saying);
}

}  // namespace parley::tot
