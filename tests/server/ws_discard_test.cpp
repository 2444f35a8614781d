// A provider stream that breaks after output was streamed: the engine logs the discard, PubChan
// tells clients to drop that genseq's text, and the new attempt's text is all the log keeps.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <memory>
#include <vector>

#include "fake_model_engine.hpp"
#include "parley/server/pubchan.hpp"
#include "support/fake_http_server.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
using parley::testing::fake_ending;
using parley::testing::fake_response;

std::string saying_delta(std::string_view text) {
  return R"(data: {"id":"c1","choices":[{"index":0,"delta":{"content":")" + std::string(text) +
         R"("},"finish_reason":null}]})" + "\n\n";
}
const std::string stop_chunk =
    "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n";

struct discard_recorder final : pubchan_subscriber {
  std::vector<boost::json::object> packets;
  void deliver(const packet_ptr& packet) override { packets.push_back(boost::json::parse(packet->json).as_object()); }
  bool sees_root(const dialog_row& /*root*/) const override { return true; }
  void close(std::uint16_t, std::string_view) override {}
};

asio::awaitable<void> create(engine::engine& eng, std::string& id) {
  engine::new_dialog spec{"lead", "t", ""};
  auto created = co_await eng.create_root_dialog(std::move(spec));
  if (created) id = *created;
}

asio::awaitable<void> converse(engine::engine& eng, std::string id) {
  auto posted = co_await eng.post_user_message(id, "hello");
  EXPECT_TRUE(posted);
  co_await eng.runs().wait_until_settled(id);
}

TEST(GenseqDiscard, ABrokenStreamIsDiscardedOnTheWireAndNotDuplicatedInTheLog) {
  parley::testing::fake_http_server model;
  model.push(fake_response::sse({saying_delta("Hel")}, fake_ending::disconnect));
  model.push(fake_response::sse({saying_delta("Hello"), stop_chunk, "data: [DONE]\n\n"}));

  parley::testing::fake_model_engine setup(model.base_url());
  ASSERT_NE(setup.engine, nullptr);
  auto& io = setup.io;
  auto& log = setup.log;
  auto& eng = *setup.engine;
  server_options options;
  pubchan channels(eng, *log, options);
  discard_recorder sub;
  channels.attach(sub);

  std::string id;
  asio::co_spawn(io, create(eng, id), asio::detached);
  io.run();
  io.restart();
  ASSERT_FALSE(id.empty());
  ASSERT_TRUE(channels.subscribe(sub, id, std::nullopt, ""));
  asio::co_spawn(io, converse(eng, id), asio::detached);
  io.run();
  EXPECT_EQ(model.requests().size(), 2u);

  // Wire: "Hel" streamed, then the discard, then the new attempt from its start.
  std::vector<std::string> said;
  for (const auto& p : sub.packets) {
    const auto type = p.at("type").as_string();
    if (type == "saying_chunk_evt") said.emplace_back(p.at("content").as_string());
    if (type == "genseq_discard_evt") {
      said.emplace_back("<discard>");
      EXPECT_NE(p.at("reason").as_string().find("mid-response"), boost::json::string::npos);
      EXPECT_EQ(p.at("genseq"), 1);
      EXPECT_TRUE(p.contains("logSeq"));
    }
  }
  std::string joined;
  for (const auto& s : said) joined += s;
  EXPECT_EQ(joined, "Hel<discard>Hello");

  // Log: one discard event, one generation, whose text is the second attempt's only.
  auto events = log->read_events(id);
  ASSERT_TRUE(events);
  int discards = 0;
  int finished = 0;
  for (const auto& ev : *events) {
    if (ev.is<parley::events::generation_discarded>()) ++discards;
    if (ev.is<parley::events::generation_finished>()) ++finished;
  }
  EXPECT_EQ(discards, 1);
  EXPECT_EQ(finished, 1);
  auto messages = log->messages(id, 0);
  ASSERT_TRUE(messages);
  ASSERT_EQ(messages->size(), 2u);
  EXPECT_EQ((*messages)[1].content, "Hello");
}

}  // namespace
}  // namespace parley::server
