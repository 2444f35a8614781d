// A real provider answering with something the engine cannot take — here a finish reason no API
// documents — through the engine: the failure is in the log with its reason, nothing of the
// refused answer is kept as a message, and the dialog answers the next message.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <string>

#include "fake_model_engine.hpp"
#include "parley/core/json.hpp"
#include "parley/model/event.hpp"
#include "support/fake_http_server.hpp"
#include "support/openai_stream.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
using parley::testing::fake_response;
using parley::testing::openai_chunk;

// Temporaries are kept out of the co_await expressions: g++ 12 mishandles some of them.
asio::awaitable<void> say(engine::engine& eng, std::string& id, std::string text) {
  if (id.empty()) {
    engine::new_dialog spec{"lead", "t", ""};
    auto created = co_await eng.create_root_dialog(std::move(spec));
    if (!created) co_return;
    id = *created;
  }
  auto posted = co_await eng.post_user_message(id, std::move(text));
  EXPECT_TRUE(posted);
  co_await eng.runs().wait_until_settled(id);
}

TEST(ProviderBadInput, AnUnknownFinishReasonIsLoggedAsAFailureAndTheDialogAnswersTheNextMessage) {
  parley::testing::fake_http_server model;
  model.push(fake_response::sse(
      {openai_chunk(R"({"content":"Hal"})", "null"), openai_chunk("{}", R"("banana")"), "data: [DONE]\n\n"}));
  model.push(fake_response::sse(
      {openai_chunk(R"({"content":"Hello"})", "null"), openai_chunk("{}", R"("stop")"), "data: [DONE]\n\n"}));

  parley::testing::fake_model_engine setup(model.base_url());
  ASSERT_NE(setup.engine, nullptr);
  auto& io = setup.io;
  auto& log = setup.log;
  auto& eng = *setup.engine;

  std::string id;
  asio::co_spawn(io, say(eng, id, "hi"), asio::detached);
  io.run();
  io.restart();
  ASSERT_FALSE(id.empty());
  auto events = log->read_events(id);
  ASSERT_TRUE(events);
  ASSERT_FALSE(events->empty());
  EXPECT_EQ(events->back().type(), event_type::drive_failed);
  ASSERT_TRUE(events->back().is<parley::events::drive_failed>());
  EXPECT_EQ(events->back().as<parley::events::drive_failed>()->message,
            "openai: the model ended with finish_reason 'banana', which is none of stop, length, tool_calls, "
            "content_filter");
  for (const auto& ev : *events) EXPECT_NE(ev.type(), event_type::generation_finished);

  asio::co_spawn(io, say(eng, id, "again"), asio::detached);
  io.run();
  EXPECT_EQ(model.requests().size(), 2u);
  auto messages = log->messages(id, 0);
  ASSERT_TRUE(messages);
  ASSERT_EQ(messages->size(), 3u);
  EXPECT_EQ((*messages)[0].content, "hi");
  EXPECT_EQ((*messages)[1].content, "again");
  EXPECT_EQ((*messages)[2].content, "Hello");
  auto row = log->get_dialog(id);
  ASSERT_TRUE(row && *row);
  EXPECT_EQ((**row).last_error, "");
}

}  // namespace
}  // namespace parley::server
