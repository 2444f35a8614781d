// The OpenAI-compatible embeddings client (llm/openai/openai_embeddings.hpp) against a fake server:
// what it sends, and that an answer from outside is taken only as one vector of exactly the
// configured number of finite floats.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/json.hpp>

#include "parley/llm/openai/openai_embeddings.hpp"
#include "parley/model/embedding_vector.hpp"
#include "support/fake_http_server.hpp"
#include "support/run_awaitable.hpp"

namespace parley::llm {
namespace {

using namespace std::chrono_literals;
using testing::fake_response;

TEST(EmbeddingsClient, PostsTheModelAndTheTextAndReadsTheVector) {
  boost::asio::io_context io;
  testing::fake_http_server server;
  server.push(fake_response::json(
      R"({"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.5,-1,2]}],"model":"m"})"));
  embeddings_options options;
  options.base_url = server.base_url() + "/v1";
  options.api_key = "sk-embed";
  options.proxy = http::proxy_settings{};
  options.retry.max_attempts = 1;
  options.model = "embed-small";
  options.dimensions = 3;
  embeddings_client client(options);
  generation_control control;
  auto vector = testing::run_awaitable(io, client.embed("hello there", control));
  ASSERT_TRUE(vector) << vector.err().message;
  EXPECT_EQ(*vector, (std::vector<float>{0.5F, -1.0F, 2.0F}));
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].target, "/v1/embeddings");
  EXPECT_EQ(requests[0].header("Authorization"), "Bearer sk-embed");
  const auto body = boost::json::parse(requests[0].body).as_object();
  EXPECT_EQ(body.at("model"), "embed-small");
  EXPECT_EQ(body.at("input"), "hello there");
}

TEST(EmbeddingsClient, AnythingButOneVectorOfTheConfiguredFiniteFloatsIsRefusedNamingTheField) {
  const std::pair<std::string, std::string> refused[] = {
      {"not json", "embeddings: "},
      {R"({"data":[{"embedding":[NaN,1,2]}]})", "embeddings: "},
      {R"({"nothing":1})", "data: expected an array of embeddings"},
      {R"({"data":[]})", "data: expected one embedding, got 0"},
      {R"({"data":[{"embedding":[1,2,3]},{"embedding":[1,2,3]}]})", "data: expected one embedding, got 2"},
      {R"({"data":[7]})", "data[0]: expected an object, got a number"},
      {R"({"data":[{"index":0}]})", "data[0].embedding: missing"},
      {R"({"data":[{"embedding":"AAAA"}]})", "data[0].embedding: expected an array of numbers, got a string"},
      {R"({"data":[{"embedding":[1,2]}]})", "data[0].embedding: expected 3 dimensions, got 2"},
      {R"({"data":[{"embedding":[1,"2",3]}]})", "data[0].embedding[1]: expected a finite number, got a string"},
      {R"({"data":[{"embedding":[1,2,1e300]}]})", "data[0].embedding[2]: expected a finite number within float32"},
  };
  for (const auto& [body, problem] : refused) {
    auto vector = parse_embedding_answer(body, 3);
    ASSERT_FALSE(vector) << body;
    EXPECT_EQ(vector.err().code, errc::provider_error);
    EXPECT_EQ(vector.err().message.rfind(problem, 0), 0U) << body << " -> " << vector.err().message;
  }
}

TEST(EmbeddingVector, Float32BytesRoundTripAndDamagedBytesAreRefused) {
  const std::vector<float> values{1.5F, -0.25F, 3.0F};
  const auto bytes = float32_bytes(values);
  ASSERT_EQ(bytes.size(), 12U);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x00);  // 1.5f = 0x3fc00000, little-endian
  EXPECT_EQ(static_cast<unsigned char>(bytes[3]), 0x3f);
  auto back = floats_of_bytes(bytes, 3);
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(*back, values);
  EXPECT_FALSE(floats_of_bytes(bytes, 4));
  std::string nan_bytes = bytes;
  nan_bytes[4] = '\0';
  nan_bytes[5] = '\0';
  nan_bytes[6] = static_cast<char>(0xc0);
  nan_bytes[7] = static_cast<char>(0x7f);  // a quiet NaN
  auto nan = floats_of_bytes(nan_bytes, 3);
  ASSERT_FALSE(nan);
  EXPECT_EQ(nan.err().message, "vector: value 1 is not a finite number");
  EXPECT_FALSE(floats_of_base64("not base64!", 3));
  EXPECT_NEAR(cosine_similarity(values, values), 1.0, 1e-9);
  EXPECT_EQ(cosine_similarity(values, std::vector<float>{0, 0, 0}), 0.0);
}

}  // namespace
}  // namespace parley::llm
