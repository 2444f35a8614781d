// Issue 27 item 3, from the model's side: read_file of a PNG in a dialog driven by the scripted
// model puts the image into what the member's model is sent next (and in every later round, from
// the log), when its model takes images; a member whose model does not is told so in text.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <fstream>
#include <string>

#include "engine_test_support.hpp"
#include "parley/core/base64.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::temp_team;

const std::string kPng = std::string("\x89PNG\r\n\x1a\n", 8) + "a tiny png";

std::string team_yaml(bool vision) {
  return std::string("version: 1\nworkspace: .\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n") +
         "members:\n  lead: {persona: p, provider: offline, model: m, toolsets: [ws_read], vision: " +
         (vision ? "true" : "false") + "}\n";
}

constexpr const char* kScript = R"(members:
  lead:
    - when: {round: 1}
      emit: [{tool_call: {name: read_file, arguments: {path: shot.png}}}]
    - emit: [{saying: "I see it."}]
)";

// Runs lead on "Look." and returns what its model would be sent next (after the whole dialog).
llm::model_request told_after_reading(bool vision) {
  temp_team files(team_yaml(vision), kScript);
  std::ofstream(files.dir() / "shot.png", std::ios::binary) << kPng;
  auto team = files.load();
  asio::io_context io;
  auto log = make_memory_store();
  auto providers = build_providers(team);
  EXPECT_TRUE(providers) << providers.err().message;
  auto eng = engine::create(io.get_executor(), *log, team, std::move(*providers), build_builtin_tools());
  EXPECT_TRUE(eng) << eng.err().message;
  if (!eng) return {};
  std::string id;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        spec.first_message = "Look.";
        id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        co_await (*eng)->runs().wait_until_idle(id);
      },
      asio::detached);
  io.run();
  const auto* dialog = (*eng)->find(id);
  EXPECT_NE(dialog, nullptr);
  if (dialog == nullptr) return {};
  auto request = (*eng)->members().model_request_for(*dialog);
  EXPECT_TRUE(request) << request.err().message;
  return request ? std::move(request).value() : llm::model_request{};
}

const llm::chat_message* tool_message(const llm::model_request& request) {
  for (const auto& msg : request.messages) {
    if (msg.role == llm::role::tool) return &msg;
  }
  return nullptr;
}

TEST(ToolImage, AModelThatTakesImagesIsSentTheImageWithTheToolResult) {
  const auto request = told_after_reading(true);
  const auto* result = tool_message(request);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->content,
            "'shot.png': a PNG image of " + std::to_string(kPng.size()) + " bytes, given to you as an image");
  ASSERT_EQ(result->media.size(), 1U);
  EXPECT_EQ(result->media[0].kind, media_kind::image);
  EXPECT_EQ(result->media[0].mime, "image/png");
  EXPECT_EQ(result->media[0].data_base64, base64_encode(kPng));
}

TEST(ToolImage, AModelWithoutImagesIsToldInWordsAndSentNoImage) {
  const auto request = told_after_reading(false);
  const auto* result = tool_message(request);
  ASSERT_NE(result, nullptr);
  EXPECT_TRUE(result->media.empty());
  EXPECT_NE(result->content.find("your model does not take images"), std::string::npos) << result->content;
}

}  // namespace
}  // namespace parley::engine
