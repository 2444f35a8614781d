// The model's own title (issue 43 item 4) against a fake OpenAI-compatible server: after a root's
// first answer the member's model is asked once, briefly, and its title is logged as a
// title_changed by the model; a failed call keeps the rule-made title; a title the user gave is
// never replaced (the model is not even asked). A team's `titles: rule` is read by the team file.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <string>
#include <vector>

#include "fake_model_engine.hpp"
#include "parley/core/json.hpp"
#include "parley/engine/title_writer.hpp"
#include "parley/model/event.hpp"
#include "support/fake_http_server.hpp"
#include "support/openai_stream.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
using parley::testing::fake_response;
using parley::testing::openai_chunk;

constexpr const char* kFirstMessage = "Plan the quarterly budget review for the third quarter, please";

fake_response answer_streamed(const std::string& text) {
  return fake_response::sse(
      {openai_chunk(R"({"content":")" + text + R"("})", "null"), openai_chunk("{}", R"("stop")"), "data: [DONE]\n\n"});
}

fake_response title_answer(const std::string& title_json) {
  return fake_response::json(R"({"id":"t","object":"chat.completion","choices":[{"index":0,"finish_reason":"stop",)"
                             R"("message":{"role":"assistant","content":)" +
                             title_json + "}}]}");
}

// A root of @lead with its first message (titled by the rule from it), or, when `user_title` is
// not empty, created untitled, named by the user, then sent its first message.
asio::awaitable<void> start_root(engine::engine& eng, std::string& id, std::string user_title) {
  engine::new_dialog spec{"lead", "", ""};
  if (user_title.empty()) spec.first_message = kFirstMessage;
  auto created = co_await eng.create_root_dialog(std::move(spec));
  if (!created) co_return;
  id = *created;
  if (!user_title.empty()) {
    auto named = co_await eng.titles().set_by_user(id, std::move(user_title));
    EXPECT_TRUE(named);
    auto posted = co_await eng.post_user_message(id, kFirstMessage);
    EXPECT_TRUE(posted);
  }
  co_await eng.runs().wait_until_settled(id);
}

struct titled_run {
  std::string id;
  std::vector<parley::event> events;
};

// Runs a root to its first answer with a title_writer observing, until every call has ended.
titled_run run_with_writer(parley::testing::fake_model_engine& setup, const std::string& user_title = "") {
  engine::title_writer writer(setup.io.get_executor(), *setup.engine);
  setup.engine->add_observer(&writer);
  titled_run out;
  asio::co_spawn(setup.io, start_root(*setup.engine, out.id, user_title), asio::detached);
  setup.io.run();
  setup.io.restart();
  if (auto events = setup.log->read_events(out.id)) out.events = std::move(*events);
  return out;
}

std::vector<const parley::events::title_changed*> titles_in(const titled_run& run) {
  std::vector<const parley::events::title_changed*> out;
  for (const auto& ev : run.events) {
    if (const auto* change = ev.as<parley::events::title_changed>()) out.push_back(change);
  }
  return out;
}

TEST(ModelTitles, TheModelsTitleIsAskedOnceAfterTheFirstAnswerAndLogged) {
  parley::testing::fake_http_server model;
  model.push(answer_streamed("Here is a plan."));
  model.push(title_answer(R"("\"Q3 budget review plan.\"")"));
  parley::testing::fake_model_engine setup(model.base_url());
  ASSERT_NE(setup.engine, nullptr);
  const auto run = run_with_writer(setup);
  ASSERT_FALSE(run.id.empty());
  const auto titles = titles_in(run);
  ASSERT_EQ(titles.size(), 1U);
  EXPECT_EQ(titles[0]->title, "Q3 budget review plan") << "quotes and the full stop taken off";
  EXPECT_EQ(titles[0]->by, parley::events::title_source::model);
  EXPECT_EQ(setup.log->get_dialog(run.id).value()->title, "Q3 budget review plan");
  // The answer came first (nothing waited for the title), then one short, unstreamed call.
  const auto requests = model.requests();
  ASSERT_EQ(requests.size(), 2U);
  const auto body = parse_json(requests[1].body).value().as_object();
  EXPECT_FALSE(body.contains("stream")) << requests[1].body;
  EXPECT_EQ(body.at("max_tokens").as_int64(), 200);
  EXPECT_FALSE(body.contains("tools")) << requests[1].body;
  EXPECT_NE(requests[1].body.find("quarterly budget review"), std::string::npos) << "the first message is shown";
  EXPECT_NE(requests[1].body.find("Here is a plan."), std::string::npos) << "and the answer";
}

TEST(ModelTitles, AFailedTitleCallKeepsTheRuleMadeTitle) {
  parley::testing::fake_http_server model;
  model.push(answer_streamed("Here is a plan."));
  model.push(fake_response::json(R"({"error":{"message":"no such model","type":"invalid_request_error"}})", 404));
  parley::testing::fake_model_engine setup(model.base_url());
  ASSERT_NE(setup.engine, nullptr);
  const auto run = run_with_writer(setup);
  ASSERT_FALSE(run.id.empty());
  EXPECT_EQ(model.requests().size(), 2U) << "the title was asked for";
  EXPECT_TRUE(titles_in(run).empty()) << "no title_changed from a failed call";
  const auto row = setup.log->get_dialog(run.id).value();
  EXPECT_EQ(row->title.rfind("Plan the quarterly", 0), 0U) << "the rule-made title stays: " << row->title;
}

TEST(ModelTitles, AUsersTitleIsNeverReplacedAndTheModelIsNotAsked) {
  parley::testing::fake_http_server model;
  model.push(answer_streamed("Here is a plan."));
  model.push(title_answer(R"("Something the model chose")"));
  parley::testing::fake_model_engine setup(model.base_url());
  ASSERT_NE(setup.engine, nullptr);
  const auto run = run_with_writer(setup, "My budget notes");
  ASSERT_FALSE(run.id.empty());
  EXPECT_EQ(model.requests().size(), 1U) << "only the answer: the log already had the user's title";
  const auto titles = titles_in(run);
  ASSERT_EQ(titles.size(), 1U);
  EXPECT_EQ(titles[0]->by, parley::events::title_source::user);
  EXPECT_EQ(setup.log->get_dialog(run.id).value()->title, "My budget notes");
}

}  // namespace
}  // namespace parley::server
