// What the records' analyst is told and how strictly its answer is read (engine/message_analysis.hpp).
#include <gtest/gtest.h>

#include <string>

#include "parley/engine/message_analysis.hpp"

namespace parley::engine {
namespace {

config::member_config reader() {
  config::member_config member;
  member.id = "reader";
  member.model = "some-model";
  member.persona = "You read people.";
  return member;
}

TEST(MessageAnalysis, TheAnalystIsToldTheMessageAndTheExactJsonShapeWithNoTools) {
  const auto request = analysis_request(reader(), "Will it rain in Singapore?");
  EXPECT_EQ(request.member_id, "reader");
  EXPECT_EQ(request.model, "some-model");
  EXPECT_FALSE(request.stream);
  EXPECT_TRUE(request.tools == nullptr || request.tools->empty());
  EXPECT_EQ(request.system_prompt.rfind("You read people.", 0), 0U) << request.system_prompt;
  EXPECT_NE(request.system_prompt.find(R"({"intent_tags": ["..."], "emotion": "...", "topic_tags": ["..."]})"),
            std::string::npos)
      << request.system_prompt;
  EXPECT_NE(request.system_prompt.find("exactly one JSON object and nothing else"), std::string::npos);
  ASSERT_EQ(request.messages.size(), 1U);
  EXPECT_EQ(request.messages[0].role, llm::role::user);
  EXPECT_EQ(request.messages[0].content, "The message:\nWill it rain in Singapore?");
}

TEST(MessageAnalysis, TheRetryQuotesTheRefusedReplyAndTheProblem) {
  const auto first = analysis_request(reader(), "hi");
  const auto retry = analysis_retry(first, "I think they are happy.", "the reply is not JSON: syntax error");
  ASSERT_EQ(retry.messages.size(), 3U);
  EXPECT_EQ(retry.messages[1].role, llm::role::assistant);
  EXPECT_EQ(retry.messages[1].content, "I think they are happy.");
  EXPECT_NE(retry.messages[2].content.find("(the reply is not JSON: syntax error)"), std::string::npos);
  EXPECT_NE(retry.messages[2].content.find(R"("emotion": "...")"), std::string::npos);
  EXPECT_EQ(retry.system_prompt, first.system_prompt);
}

TEST(MessageAnalysis, AChineseMessageIsAnalysedWithTheChineseInstructionAndItsRetryIsChineseToo) {
  const auto request = analysis_request(reader(), "明天新加坡会下雨吗？我需要带伞吗？");
  EXPECT_EQ(request.system_prompt.rfind("You read people.", 0), 0U) << request.system_prompt;
  EXPECT_NE(request.system_prompt.find("只回复一个 JSON 对象"), std::string::npos) << request.system_prompt;
  EXPECT_NE(request.system_prompt.find(R"({"intent_tags": ["..."], "emotion": "...", "topic_tags": ["..."]})"),
            std::string::npos);
  EXPECT_EQ(request.system_prompt.find("You analyse one message"), std::string::npos) << request.system_prompt;
  ASSERT_EQ(request.messages.size(), 1U);
  EXPECT_EQ(request.messages[0].content, "消息：\n明天新加坡会下雨吗？我需要带伞吗？");
  const auto retry = analysis_retry(request, "好的", "the reply is not JSON: syntax error");
  ASSERT_EQ(retry.messages.size(), 3U);
  EXPECT_EQ(retry.messages[2].content.rfind("这个回复被拒绝了（the reply is not JSON: syntax error）", 0), 0U)
      << retry.messages[2].content;
}

TEST(MessageAnalysis, TheInstructionsLanguageIsTheOneThatCarriesTheMessage) {
  EXPECT_EQ(analysis_language("Will it rain in Singapore?"), "en");
  EXPECT_EQ(analysis_language("明天新加坡会下雨吗？"), "zh");
  // A Chinese sentence with a few English words is Chinese; a word of Chinese in English is not.
  EXPECT_EQ(analysis_language("我想用 Python 写一个脚本"), "zh");
  EXPECT_EQ(analysis_language("How do I say thank you in Chinese? Is it 谢谢?"), "en");
  EXPECT_EQ(analysis_language(""), "en");
  EXPECT_EQ(analysis_language("こんにちは"), "en");  // kana are not Chinese characters
}

TEST(MessageAnalysis, AStrictReplyIsReadAndAnythingElseIsRefusedNamingTheField) {
  auto good = parse_analysis(R"({"intent_tags": ["travel"], "emotion": "calm", "topic_tags": ["旅行"]})");
  ASSERT_TRUE(good) << good.err().message;
  EXPECT_EQ(good->intent_tags, std::vector<std::string>{"travel"});
  EXPECT_EQ(good->emotion, "calm");
  EXPECT_EQ(good->topic_tags, std::vector<std::string>{"旅行"});
  const std::pair<std::string, std::string> refused[] = {
      {"I think they are happy.", "the reply is not JSON"},
      {"```json\n{}\n```", "the reply is not JSON"},
      {"[1]", "the reply is not a JSON object"},
      {R"({"intent_tags": [], "emotion": "x", "topic_tags": [], "mood": 1})", "mood: unknown field"},
      {R"({"emotion": "x", "topic_tags": []})", "intent_tags: missing"},
      {R"({"intent_tags": "travel", "emotion": "x", "topic_tags": []})", "intent_tags: expected an array"},
      {R"({"intent_tags": [1], "emotion": "x", "topic_tags": []})", "intent_tags[0]: expected a string"},
      {R"({"intent_tags": [""], "emotion": "x", "topic_tags": []})", "intent_tags[0]: is empty"},
      {R"({"intent_tags": [], "emotion": "x", "topic_tags": ["a","b","c","d","e","f","g","h","i"]})",
       "topic_tags: more than 8 tags"},
      {R"({"intent_tags": [], "topic_tags": []})", "emotion: missing"},
      {R"({"intent_tags": [], "emotion": ")" + std::string(65, 'x') + R"(", "topic_tags": []})",
       "emotion: longer than 64 bytes"},
  };
  for (const auto& [reply, problem] : refused) {
    auto parsed = parse_analysis(reply);
    ASSERT_FALSE(parsed) << reply;
    EXPECT_EQ(parsed.err().message.rfind(problem, 0), 0U) << reply << " -> " << parsed.err().message;
  }
}

}  // namespace
}  // namespace parley::engine
