// stream_error_evt over a real WebSocket (issue 23, item 5): the real `parley serve` with a lead
// on an OpenAI-compatible fake model whose second answer streams a few words and then a chunk that
// is not JSON. The subscribed client receives the words, then stream_error_evt naming the
// provider's failure (valid against the protocol table), then the dialog's state with the same
// error — and no generating_finish_evt for the aborted generation.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "parley/server/wire_schema.hpp"
#include "rest_client.hpp"
#include "server_process.hpp"
#include "support/fake_http_server.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;
using parley::testing::fake_piece;
using parley::testing::fake_response;

std::string content_chunk(std::string_view text) {
  return R"(data: {"id":"c1","choices":[{"index":0,"delta":{"content":)" + json::serialize(json::string(text)) +
         R"(},"finish_reason":null}]})"
         "\n\n";
}

fake_response saying(std::string_view text) {
  return fake_response::sse({content_chunk(text),
                             R"(data: {"id":"c1","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]})"
                             "\n\n",
                             "data: [DONE]\n\n"});
}

class provider_failure_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = std::filesystem::temp_directory_path() / ("parley-ws-failure-" + std::to_string(device()));
    // The team's folder is its workspace; the data directory stays outside it.
    std::filesystem::create_directories(root_ / "team");
    std::ofstream(root_ / "team" / "team.yaml")
        << "version: 1\ndefault_member: lead\ntitles: rule\nproviders:\n  fake: {kind: openai, "
           "base_url: \""
        << model_.base_url()
        << "/v1\", api_key_env: PARLEY_TEST_NO_KEY}\nmembers:\n"
           "  lead: {name: Lead, persona: You lead., provider: fake, model: m}\n";
  }
  void TearDown() override {
    server_.reset();
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }

  rest_client rest() const { return rest_client(server_->port(), server_->token()); }

  bool settled(const std::string& id) const {
    const auto body = rest().get("/api/dialogs/" + id).json();
    if (!body.is_object()) return false;
    const auto& summary = body.at("dialog");
    return !summary.at("generating").as_bool() && !summary.at("needsDrive").as_bool();
  }

  parley::testing::fake_http_server model_;
  std::filesystem::path root_;
  std::unique_ptr<server_process> server_;
};
using WsProviderFailure = provider_failure_fixture;

TEST_F(WsProviderFailure, AStreamThatBreaksMidwayReachesTheClientAsStreamErrorEvt) {
  model_.push(saying("Hello."));
  fake_response broken;
  broken.headers = {{"Content-Type", "text/event-stream"}};
  broken.pieces = {fake_piece{content_chunk("Half an ans")}, fake_piece{"data: {not json at all\n\n", 50ms}};
  model_.push(broken);

  server_ = std::make_unique<server_process>(
      std::vector<std::string>{"--team", (root_ / "team" / "team.yaml").string(), "--data", (root_ / "data").string()});
  ASSERT_TRUE(server_->started()) << server_->output();

  const auto created = rest().post("/api/dialogs", json::value{{"content", "hello"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id(created.json().at("dialog").at("id").as_string());
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (!settled(id) && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(settled(id));

  ws_client client;
  ASSERT_TRUE(client.connect(server_->port(), ws_client::protocols_with_token(server_->token())));
  ASSERT_TRUE(client.next_of("welcome"));
  client.send(json::object{{"type", "subscribe"}, {"dialog", json::object{{"selfId", id}}}});
  ASSERT_TRUE(client.next_of("resync"));
  client.send(json::object{{"type", "drive_dlg_by_user_msg"},
                           {"dialog", json::object{{"selfId", id}}},
                           {"content", "and now?"},
                           {"msgId", "m-broken"}});

  // Packets of the dialog's channel up to its state after the failure.
  std::vector<json::object> packets;
  const auto until = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < until) {
    auto packet = client.next(5s);
    if (!packet) break;
    const auto* dialog = packet->if_contains("dialog");
    if (dialog == nullptr || !dialog->is_object() || dialog->at("selfId").as_string() != id) continue;
    packets.push_back(*packet);
    if (packet->at("type") == "dialog_state_evt" && packet->at("state").at("lastError").is_string()) break;
  }
  std::vector<std::string> types;
  std::string said;
  for (const auto& p : packets) {
    types.emplace_back(p.at("type").as_string());
    if (p.at("type") == "saying_chunk_evt") said += p.at("content").as_string();
  }
  const auto error_at = std::find(types.begin(), types.end(), "stream_error_evt");
  ASSERT_NE(error_at, types.end()) << "no stream_error_evt among " << types.size() << " packets";
  EXPECT_EQ(said, "Half an ans");  // what streamed before the break reached the client
  EXPECT_LT(std::find(types.begin(), types.end(), "saying_chunk_evt"), error_at);
  EXPECT_EQ(std::find(types.begin(), types.end(), "generating_finish_evt"), types.end());
  ASSERT_EQ(types.back(), "dialog_state_evt");

  const auto& error = packets[static_cast<std::size_t>(error_at - types.begin())];
  const auto* spec = server::find_packet(server::packet_direction::server, "stream_error_evt");
  ASSERT_NE(spec, nullptr);
  const auto valid = server::validate_packet(error, *spec);
  EXPECT_TRUE(valid) << (valid ? "" : valid.err().message) << "\n" << json::serialize(error);
  const std::string message(error.at("message").as_string());
  EXPECT_NE(message.find("openai"), std::string::npos) << message;
  EXPECT_EQ(packets.back().at("state").at("lastError").as_string(), message);
  EXPECT_EQ(packets.back().at("state").at("generating"), false);
  // The broken answer was not retried: the model was asked twice in all.
  EXPECT_EQ(model_.requests().size(), 2u);
}

}  // namespace
}  // namespace parley::test
