#include "parley/engine/unavailable_provider.hpp"

#include <utility>

namespace parley::engine {
namespace {

class unavailable_provider final : public llm::provider {
 public:
  unavailable_provider(std::string provider_id, std::string problem)
      : provider_id_(std::move(provider_id)), problem_(std::move(problem)) {}

  boost::asio::awaitable<result<llm::model_response>> stream(const llm::model_request& request,
                                                             llm::stream_sink& /*sink*/,
                                                             llm::generation_control& /*control*/) override {
    co_return make_error(errc::config_error, "member '" + request.member_id + "' cannot be driven: provider '" +
                                                 provider_id_ + "' is not usable by Parley (" + problem_ + ")");
  }
  std::string_view kind() const override { return "unavailable"; }

 private:
  std::string provider_id_;
  std::string problem_;
};

}  // namespace

std::shared_ptr<llm::provider> make_unavailable_provider(std::string provider_id, std::string problem) {
  return std::make_shared<unavailable_provider>(std::move(provider_id), std::move(problem));
}

}  // namespace parley::engine
