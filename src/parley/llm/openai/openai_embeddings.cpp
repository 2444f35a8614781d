#include "parley/llm/openai/openai_embeddings.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cmath>
#include <limits>

#include "parley/core/json.hpp"
#include "parley/llm/remote_call.hpp"

namespace parley::llm {
namespace {

constexpr std::string_view kName = "embeddings";
constexpr std::string_view kDefaultBaseUrl = "https://api.openai.com/v1";

error refused(std::string message) { return make_error(errc::provider_error, std::move(message)); }

// The provider's numbers are named as such, whether integral or not.
const char* kind_name(const boost::json::value& v) { return v.is_number() ? "a number" : json_kind_with_article(v); }

// A JSON number as a finite float32, or why not.
result<float> finite_float(const boost::json::value& v, const std::string& path) {
  if (!v.is_number()) return refused(path + ": expected a finite number, got " + kind_name(v));
  const double d = v.to_number<double>();
  if (!std::isfinite(d) || std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max())) {
    return refused(path + ": expected a finite number within float32's range");
  }
  return static_cast<float>(d);
}

}  // namespace

result<std::vector<float>> parse_embedding_answer(std::string_view body, std::int64_t dimensions) {
  auto answer = answer_object(body);
  if (!answer) return refused(std::string(kName) + ": " + answer.err().message);
  const auto* data = answer->if_contains("data");
  if (data == nullptr || !data->is_array()) return refused("data: expected an array of embeddings");
  const auto& items = data->as_array();
  if (items.size() != 1) return refused("data: expected one embedding, got " + std::to_string(items.size()));
  if (!items[0].is_object()) return refused(std::string("data[0]: expected an object, got ") + kind_name(items[0]));
  const auto* embedding = items[0].as_object().if_contains("embedding");
  if (embedding == nullptr) return refused("data[0].embedding: missing");
  if (!embedding->is_array()) {
    return refused(std::string("data[0].embedding: expected an array of numbers, got ") + kind_name(*embedding) +
                   " (ask for encoding_format float)");
  }
  const auto& values = embedding->as_array();
  if (static_cast<std::int64_t>(values.size()) != dimensions) {
    return refused("data[0].embedding: expected " + std::to_string(dimensions) + " dimensions, got " +
                   std::to_string(values.size()));
  }
  std::vector<float> out;
  out.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    auto value = finite_float(values[i], "data[0].embedding[" + std::to_string(i) + "]");
    if (!value) return std::move(value).err();
    out.push_back(*value);
  }
  return out;
}

embeddings_client::embeddings_client(embeddings_options options)
    : options_(std::move(options)),
      client_(client_options_for(options_)),
      url_(join_url(options_.base_url.empty() ? kDefaultBaseUrl : std::string_view(options_.base_url), "embeddings")) {}

boost::asio::awaitable<result<std::vector<float>>> embeddings_client::embed(std::string text,
                                                                            generation_control& control) {
  http::request req;
  req.url = url_;
  req.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  if (!options_.api_key.empty()) req.headers.push_back({"Authorization", "Bearer " + options_.api_key});
  req.headers.insert(req.headers.end(), options_.extra_headers.begin(), options_.extra_headers.end());
  req.body = boost::json::serialize(
      boost::json::object{{"model", options_.model}, {"input", std::move(text)}, {"encoding_format", "float"}});
  auto answer = co_await call_with_retries(client_, req, nullptr, control, options_.retry, kName);
  if (!answer) co_return std::move(answer).err();
  co_return parse_embedding_answer(answer->body, options_.dimensions);
}

}  // namespace parley::llm
