// Seed 002's MultiModalInputParser (model/multimodal.hpp) and what a model is given for a human's
// image or recording: the medium itself when the member takes it, else the words for it.
#include <gtest/gtest.h>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <string>

#include "engine_test_support.hpp"
#include "parley/engine/context_builder.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/model/multimodal.hpp"
#include "support/typed_events.hpp"

namespace parley {
namespace {

namespace json = boost::json;

// `type`: a content type's wire name.
multimodal_input input_of(std::string_view type, std::string content, json::object meta = {},
                          json::object metadata = {}) {
  multimodal_input in;
  in.id = "m1";
  in.sender_role = events::record_role::human;
  in.content_type = events::from_wire<events::content_type>(type).value();
  in.content = std::move(content);
  in.content_meta = std::move(meta);
  in.metadata = std::move(metadata);
  in.created_at = 1000;
  return in;
}

TEST(MultiModalInputParser, TextStaysAsItIsAndCarriesTheSeedsFields) {
  const auto block = parse_multimodal(
      input_of("text", "明天新加坡38度，不需要带伞。", {}, {{"semantic_tags", json::array{"weather", "travel"}}}));
  EXPECT_EQ(block.text_block, "明天新加坡38度，不需要带伞。");
  EXPECT_EQ(block.semantic_tags, (std::vector<std::string>{"weather", "travel"}));
  EXPECT_EQ(block.emotions, (std::vector<std::string>{"neutral"}));
  EXPECT_EQ(block.source_message_id, "m1");
  EXPECT_EQ(block.origin, "human");
  EXPECT_EQ(block.timestamp, 1000);
  EXPECT_EQ(parse_multimodal(input_of("text", "yay", {}, {{"emotion", "joy"}})).emotions,
            (std::vector<std::string>{"joy"}));
}

TEST(MultiModalInputParser, AnImageIsItsCaptionAndTheWordsSentWithIt) {
  const auto block = parse_multimodal(input_of(
      "image", "/api/uploads/x",
      {{"caption", "a beach at dusk"}, {"format", "jpeg"}, {"size_kb", 12}, {"text", "希望能再次回到这里。"}}));
  EXPECT_EQ(block.text_block, "[image (jpeg, 12 KB)] a beach at dusk\n希望能再次回到这里。");
  EXPECT_EQ(block.semantic_tags, (std::vector<std::string>{"image", "jpeg"}));
  EXPECT_EQ(parse_multimodal(input_of("image", "/api/uploads/x", {{"format", "png"}})).text_block,
            "[image (png) without a caption]");
}

TEST(MultiModalInputParser, AudioIsItsTranscription) {
  EXPECT_EQ(
      parse_multimodal(input_of("audio", "/api/uploads/y", {{"transcription", "see you at noon"}, {"format", "wav"}}))
          .text_block,
      "[audio (wav), transcribed] see you at noon");
  EXPECT_EQ(parse_multimodal(input_of("audio", "/api/uploads/y", {})).text_block, "[audio without a transcription]");
}

TEST(MultiModalInputParser, ToolOutputBecomesItsKeyFieldsAndAQuoteBringsWhatItQuotes) {
  const auto tool = parse_multimodal(
      input_of("tool_output", R"({"tool": "weather", "result": {"city": "Singapore", "temp": 38, "rain": false}})", {},
               {{"name", "weather"}}));
  EXPECT_EQ(tool.text_block, "weather: city=Singapore, temp=38, rain=false");
  EXPECT_EQ(tool.semantic_tags, (std::vector<std::string>{"tool:weather"}));
  EXPECT_EQ(parse_multimodal(input_of("tool_output", "plain result")).text_block, "plain result");

  auto quote = input_of("quote_reply", "I keep thinking about this.");
  quote.quoted_text = "我是谁";
  quote.quoted_role = "ai";
  EXPECT_EQ(parse_multimodal(quote).text_block, "> ai: 我是谁\nI keep thinking about this.");
}

TEST(MultiModalInputParser, APromptIsItsInstructionAndMarkdownPlainText) {
  EXPECT_EQ(
      parse_multimodal(input_of("prompt", R"({"type": "system_instruction", "text": "请结合以下内容继续回答："})"))
          .text_block,
      "请结合以下内容继续回答：");
  EXPECT_EQ(
      parse_multimodal(input_of("markdown", "# AI记忆系统\n- **核心层**：`意识结构`\n[link](http://x)")).text_block,
      "AI记忆系统\n- 核心层：意识结构\nlink");
}

const char* kMultimodalTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n  seer: {persona: S, provider: offline, model: m, vision: true}\n"
    "  blind: {persona: B, provider: offline, model: m}\n";

TEST(ContextBuilder, AnImageGoesAsMediaToAMemberWithVisionAndAsItsCaptionToOthers) {
  engine::testing::temp_team files(kMultimodalTeam,
                                   "members: {seer: [{emit: [{saying: ok}]}], blind: [{emit: [{saying: ok}]}]}\n");
  auto loaded = config::load_team_file(files.dir() / "team.yaml");
  ASSERT_TRUE(loaded.has_value()) << loaded.err().message;
  json::object attachment{{"uploadId", "u1"},         {"url", "/api/uploads/u1"}, {"kind", "image"},
                          {"mime", "image/png"},      {"format", "png"},          {"sizeKb", 1},
                          {"caption", "a red square"}};
  auto dialog = engine::dialog_runtime::replay(
      {test::typed_event("d", "d", 1, event_type::dialog_created, {{"memberId", "seer"}, {"kind", "root"}}, 1),
       test::typed_event("d", "d", 2, event_type::user_message,
                         {{"course", 1}, {"content", "what is this?"}, {"msgId", "m"}, {"attachment", attachment}},
                         2)});
  ASSERT_TRUE(dialog.has_value()) << dialog.err().message;
  const engine::attachment_reader reader = [](std::string_view id) -> result<std::string> {
    if (id != "u1") return make_error(errc::not_found, "no upload");
    return std::string("\x89PNG\r\n\x1a\n", 8);
  };
  engine::prompt_setting setting;
  setting.read_attachment = &reader;

  const auto seen = build_model_request(**dialog, *loaded->find_member("seer"), {}, 1, setting);
  ASSERT_EQ(seen.messages.size(), 1U);
  EXPECT_EQ(seen.messages[0].content, "what is this?");
  ASSERT_EQ(seen.messages[0].media.size(), 1U);
  EXPECT_EQ(seen.messages[0].media[0].mime, "image/png");
  EXPECT_EQ(seen.messages[0].media[0].data_base64, "iVBORw0KGgo=");

  const auto told = build_model_request(**dialog, *loaded->find_member("blind"), {}, 1, setting);
  ASSERT_EQ(told.messages.size(), 1U);
  EXPECT_TRUE(told.messages[0].media.empty());
  EXPECT_EQ(told.messages[0].content, "[image (png, 1 KB)] a red square\nwhat is this?");
}

}  // namespace
}  // namespace parley
