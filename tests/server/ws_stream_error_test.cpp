// stream_error_evt on the wire (issue 23, item 5): a provider whose stream breaks the segment order
// — a saying opened while thinking is still open, a chunk outside any segment — is driven by the
// real engine, and a PubChan subscriber receives what streamed so far, then stream_error_evt
// naming the violation (valid against the protocol table), then the dialog's state with the
// error; nothing of the refused segment and no generating_finish_evt reach it.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/wire_schema.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;

// A provider that plays `script` into the sink: each test's own misbehaviour.
class misbehaving_provider final : public llm::provider {
 public:
  explicit misbehaving_provider(std::function<void(llm::stream_sink&)> script) : script_(std::move(script)) {}
  asio::awaitable<result<llm::model_response>> stream(const llm::model_request& /*request*/, llm::stream_sink& sink,
                                                      llm::generation_control& /*control*/) override {
    script_(sink);
    co_return llm::model_response{"hmm", "oops", {}, "stop", {}, {}};
  }
  std::string_view kind() const override { return "test"; }

 private:
  std::function<void(llm::stream_sink&)> script_;
};

struct stream_error_recorder final : pubchan_subscriber {
  std::vector<boost::json::object> packets;
  void deliver(const packet_ptr& packet) override { packets.push_back(boost::json::parse(packet->json).as_object()); }
  bool sees_root(const dialog_row& /*root*/) const override { return true; }
  void close(std::uint16_t /*code*/, std::string_view /*reason*/) override {}
  std::vector<std::string> types() const {
    std::vector<std::string> out;
    for (const auto& p : packets) {
      if (p.contains("seq") && p.at("type").as_string() != "resync") out.emplace_back(p.at("type").as_string());
    }
    return out;
  }
  const boost::json::object* first(std::string_view type) const {
    for (const auto& p : packets) {
      if (p.at("type").as_string() == type) return &p;
    }
    return nullptr;
  }
};

asio::awaitable<void> create_and_say(engine::engine& eng, std::string& id, std::function<void()> subscribe) {
  engine::new_dialog spec{"lead", "t", ""};
  auto created = co_await eng.create_root_dialog(std::move(spec));
  if (!created) co_return;
  id = *created;
  subscribe();
  auto posted = co_await eng.post_user_message(id, "hi");
  EXPECT_TRUE(posted);
  co_await eng.runs().wait_until_settled(id);
}

class stream_error_fixture : public ::testing::Test {
 protected:
  // Drives one message through a lead whose provider plays `script`; returns the dialog's packets.
  stream_error_recorder drive_with(std::function<void(llm::stream_sink&)> script) {
    auto team = config::load_team_file(std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/ws_teams/team.yaml");
    EXPECT_TRUE(team) << team.err().message;
    stream_error_recorder sub;
    if (!team) return sub;
    engine::provider_map providers{{"offline", std::make_shared<misbehaving_provider>(std::move(script))}};
    auto created =
        engine::engine::create(io_.get_executor(), *log_, *team, std::move(providers), engine::build_builtin_tools());
    EXPECT_TRUE(created) << created.err().message;
    if (!created) return sub;
    engine_ = std::move(*created);
    channels_ = std::make_unique<pubchan>(*engine_, *log_, options_);
    asio::co_spawn(
        io_, create_and_say(*engine_, id_, [&] { EXPECT_TRUE(channels_->subscribe(sub, id_, std::nullopt, "")); }),
        asio::detached);
    io_.run();
    return sub;
  }

  static void expect_stream_error(const stream_error_recorder& sub, std::string_view message) {
    const auto types = sub.types();
    const auto at = std::find(types.begin(), types.end(), "stream_error_evt");
    ASSERT_NE(at, types.end()) << "no stream_error_evt";
    EXPECT_EQ(std::count(types.begin(), types.end(), "stream_error_evt"), 1);
    // The generation had started on the wire; it is aborted, never finished.
    EXPECT_LT(std::find(types.begin(), types.end(), "generating_start_evt"), at);
    EXPECT_EQ(std::find(types.begin(), types.end(), "generating_finish_evt"), types.end());
    // The dialog's state follows, carrying the same error.
    const auto state = std::find(at, types.end(), "dialog_state_evt");
    ASSERT_NE(state, types.end()) << "no dialog_state_evt after stream_error_evt";

    const auto* packet = sub.first("stream_error_evt");
    ASSERT_NE(packet, nullptr);
    EXPECT_EQ(packet->at("message").as_string(), message);
    const auto* spec = find_packet(packet_direction::server, "stream_error_evt");
    ASSERT_NE(spec, nullptr);
    const auto valid = validate_packet(*packet, *spec);
    EXPECT_TRUE(valid) << (valid ? "" : valid.err().message) << "\n" << boost::json::serialize(*packet);
    const auto& last_state = sub.packets.back();
    ASSERT_EQ(last_state.at("type").as_string(), "dialog_state_evt");
    EXPECT_EQ(last_state.at("state").at("lastError").as_string(), message);
    EXPECT_EQ(last_state.at("state").at("generating").as_bool(), false);
  }

  asio::io_context io_{1};
  std::unique_ptr<store> log_ = make_memory_store();
  std::unique_ptr<engine::engine> engine_;
  server_options options_;
  std::unique_ptr<pubchan> channels_;
  std::string id_;
};
using PubchanStreamError = stream_error_fixture;

TEST_F(PubchanStreamError, ASayingOpenedInsideThinkingReachesTheSubscriberAsStreamErrorEvt) {
  const auto sub = drive_with([](llm::stream_sink& sink) {
    sink.on_thinking_start();
    sink.on_thinking_chunk("hmm");
    sink.on_saying_start();
    sink.on_saying_chunk("oops");
  });
  expect_stream_error(sub, "stream order violation: saying started while thinking was still open");
  const auto types = sub.types();
  // What streamed before the violation was delivered; nothing of the saying was.
  for (const auto* seen : {"thinking_start_evt", "thinking_chunk_evt"}) {
    EXPECT_NE(std::find(types.begin(), types.end(), seen), types.end()) << seen;
  }
  for (const auto* unseen : {"saying_start_evt", "saying_chunk_evt", "saying_finish_evt"}) {
    EXPECT_EQ(std::find(types.begin(), types.end(), unseen), types.end()) << unseen;
  }
}

TEST_F(PubchanStreamError, AChunkOutsideAnySegmentReachesTheSubscriberAsStreamErrorEvt) {
  const auto sub = drive_with([](llm::stream_sink& sink) { sink.on_saying_chunk("stray"); });
  expect_stream_error(sub, "stream order violation: saying chunk outside an open saying segment");
  const auto types = sub.types();
  EXPECT_EQ(std::find(types.begin(), types.end(), "saying_chunk_evt"), types.end());
}

}  // namespace
}  // namespace parley::server
