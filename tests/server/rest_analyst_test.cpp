// Seed 002's analysis fields from a configured analyst and embedder (docs/records.md "Analysis and
// embeddings"): each human message is analysed by the team's `records.analyst` (the scripted model,
// whose rules answer only a prompt that gives the message and the JSON shape) and embedded by a
// fake OpenAI-compatible `/v1/embeddings` server in this process (hashed bag of words), off the
// drive. The results are events, folded into the message's record; semantic search ranks by them.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>

#include "records_rest_fixture.hpp"
#include "support/fake_http_server.hpp"

namespace parley::test {
namespace {

constexpr int kDimensions = 16;

// A deterministic embedding: each lowercase word adds 1 to the bucket its hash falls in.
boost::json::array bag_of_words(const std::string& text) {
  std::vector<double> v(kDimensions, 0.0);
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : word) h = (h ^ c) * 1099511628211ULL;
    v[h % kDimensions] += 1.0;
    word.clear();
  };
  for (unsigned char c : text) {
    if (std::isalnum(c) != 0) {
      word += static_cast<char>(std::tolower(c));
    } else {
      flush();
    }
  }
  flush();
  return boost::json::array(v.begin(), v.end());
}

// The fake embedder: a vector for any input, except the inputs that ask for a bad answer.
testing::fake_response embed(const testing::received_request& request) {
  const auto body = boost::json::parse(request.body).as_object();
  const std::string input(body.at("input").as_string());
  if (input.find("wrongdim") != std::string::npos) {
    return testing::fake_response::json(R"({"data":[{"embedding":[0.1,0.2,0.3]}]})");
  }
  if (input.find("nanvalue") != std::string::npos) {
    return testing::fake_response::json(R"({"data":[{"embedding":[NaN,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]})");
  }
  if (input.find("hugevalue") != std::string::npos) {
    return testing::fake_response::json(R"({"data":[{"embedding":[1e300,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}]})");
  }
  boost::json::object answer{
      {"object", "list"},
      {"data", boost::json::array{boost::json::object{{"embedding", bag_of_words(input)}, {"index", 0}}}},
      {"model", body.at("model")}};
  return testing::fake_response::json(boost::json::serialize(answer));
}

class AnalystRestTest : public RecordsRestTest {
 protected:
  // The analyst team, its embeddings provider pointed at the fake server.
  void start_analyst_team() {
    embedder_.answer_with(embed);
    const auto source = std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/analyst";
    team_dir_ = root_ / "analyst";
    std::filesystem::copy(source, team_dir_, std::filesystem::copy_options::recursive);
    std::stringstream text;
    text << std::ifstream(team_dir_ / "team.yaml").rdbuf();
    std::string yaml = text.str();
    const std::string placeholder = "EMBEDDINGS_URL";  // in the file's comment too: every one is replaced
    for (auto at = yaml.find(placeholder); at != std::string::npos; at = yaml.find(placeholder, at)) {
      yaml.replace(at, placeholder.size(), embedder_.base_url());
    }
    std::ofstream(team_dir_ / "team.yaml") << yaml;
    server_ = std::make_unique<server_process>(
        std::vector<std::string>{"--team", (team_dir_ / "team.yaml").string(), "--data", data_dir().string()});
    ASSERT_TRUE(server_->started()) << server_->output();
  }

  // The records message of the human's first message in `dialog`.
  std::string human_message_of(const std::string& dialog) {
    std::string id;
    EXPECT_TRUE(eventually([&] {
      const auto reply = client().get("/api/turns/" + first_turn_of(dialog) + "/messages?role=human");
      if (reply.status != 200) return false;
      const auto body = reply.json();
      const auto& list = body.at("messages").as_array();
      if (list.empty()) return false;
      id = text(list.front().at("id"));
      return true;
    }));
    return id;
  }

  std::string first_turn_of(const std::string& dialog) {
    const auto reply = client().get("/api/dialogues/" + dialog + "/latest_session");
    if (reply.status != 200) return "none";
    const auto session = text(reply.json().at("session").at("id"));
    const auto turns = client().get("/api/sessions/" + session + "/turns").json();
    if (!turns.is_object() || turns.at("turns").as_array().empty()) return "none";
    return text(turns.at("turns").as_array().front().at("id"));
  }

  // The message once both its analysis and its embedding are recorded (or have failed).
  boost::json::object analysed(const std::string& message_id) {
    boost::json::object message;
    EXPECT_TRUE(eventually([&] {
      const auto reply = client().get("/api/messages/" + message_id);
      if (reply.status != 200) return false;
      message = reply.json().at("message").as_object();
      const auto& meta = message.at("metadata").as_object();
      return meta.contains("analysis") && meta.contains("embedding");
    })) << boost::json::serialize(message);
    return message;
  }

  testing::fake_http_server embedder_;
};

TEST_F(AnalystRestTest, EachHumanMessageIsAnalysedAndEmbeddedOffTheDriveAndTheRecordsShowIt) {
  start_analyst_team();
  const auto dialog = create_dialog("What is the weather in Singapore tomorrow?");
  ASSERT_TRUE(eventually_says(dialog, "lead heard: What is the weather in Singapore tomorrow?"));
  const auto message = analysed(human_message_of(dialog));
  EXPECT_EQ(message.at("intent_tags"), (boost::json::array{"travel", "weather"})) << message;
  EXPECT_EQ(message.at("emotion"), "curious");
  EXPECT_EQ(message.at("topic_tags"), (boost::json::array{"旅行", "天气"}));
  const auto& meta = message.at("metadata").as_object();
  EXPECT_EQ(meta.at("analysis").at("status"), "ok");
  EXPECT_EQ(meta.at("analysis").at("analyst"), "reader");
  EXPECT_EQ(meta.at("analysis").at("attempts"), 1);
  EXPECT_EQ(meta.at("embedding").at("status"), "ok");
  ASSERT_TRUE(message.at("embedding_vector").is_array()) << message;
  EXPECT_EQ(message.at("embedding_vector").as_array().size(), static_cast<std::size_t>(kDimensions));
  // The embedder was asked for this message's text, with the configured model.
  bool asked = false;
  for (const auto& request : embedder_.requests()) {
    const auto body = boost::json::parse(request.body).as_object();
    asked = asked || (request.target == "/v1/embeddings" && body.at("model") == "fake-embed" &&
                      body.at("input") == "What is the weather in Singapore tomorrow?");
  }
  EXPECT_TRUE(asked);
  // Seed 002's views take the same fields: the context block's tags and emotion, the thread's topics.
  const auto block = get_ok("/api/messages/" + text(message.at("id")) + "?view=context_block");
  const auto& tags = block.at("context_block").at("semantic_tags").as_array();
  EXPECT_NE(std::find(tags.begin(), tags.end(), boost::json::value("travel")), tags.end()) << block;
  EXPECT_EQ(block.at("context_block").at("emotions"), (boost::json::array{"curious"}));
  const auto thread = get_ok("/api/dialogues/" + dialog + "?view=conversation_thread");
  EXPECT_EQ(thread.at("conversation_thread").at("topic_tags"), (boost::json::array{"旅行", "天气"}));
  const auto turn = get_ok("/api/turns/" + text(message.at("turn_id")) + "?view=dialogue_turn");
  EXPECT_EQ(turn.at("dialogue_turn").at("human_input").at("intent_tags"), (boost::json::array{"travel", "weather"}));
  // The AI's answer is embedded too; the DialogueTurn shows its vector once it is recorded.
  EXPECT_TRUE(eventually([&] {
    const auto view = client().get("/api/turns/" + text(message.at("turn_id")) + "?view=dialogue_turn").json();
    return view.at("dialogue_turn").at("ai_response").at("embedding_vector").is_array();
  }));
}

TEST_F(AnalystRestTest, ARefusedReplyIsRetriedOnceAndASecondRefusalIsRecordedAsAFailedAnalysis) {
  start_analyst_team();
  const auto repaired = analysed(human_message_of(create_dialog("garbled words here")));
  EXPECT_EQ(repaired.at("metadata").at("analysis").at("status"), "ok") << repaired;
  EXPECT_EQ(repaired.at("metadata").at("analysis").at("attempts"), 2);
  EXPECT_EQ(repaired.at("intent_tags"), (boost::json::array{"repair"}));
  const auto failed = analysed(human_message_of(create_dialog("a hopeless case")));
  const auto& analysis = failed.at("metadata").at("analysis");
  EXPECT_EQ(analysis.at("status"), "failed") << failed;
  EXPECT_EQ(analysis.at("attempts"), 2);
  EXPECT_EQ(text(analysis.at("error")).rfind("intent_tags: expected an array of strings", 0), 0U) << analysis;
  EXPECT_TRUE(failed.at("intent_tags").is_null());
  EXPECT_TRUE(failed.at("emotion").is_null());
}

TEST_F(AnalystRestTest, BadEmbeddingsAreRefusedRecordedAsFailedAndNeverStored) {
  start_analyst_team();
  const std::pair<const char*, const char*> cases[] = {
      {"wrongdim please", "expected 16 dimensions, got 3"},
      {"nanvalue please", "response is not a JSON object"},
      {"hugevalue please", "data[0].embedding[0]: expected a finite number"},
  };
  for (const auto& [words, problem] : cases) {
    const auto message = analysed(human_message_of(create_dialog(words)));
    const auto& embedding = message.at("metadata").at("embedding");
    EXPECT_EQ(embedding.at("status"), "failed") << message;
    EXPECT_NE(text(embedding.at("error")).find(problem), std::string::npos) << words << ": " << embedding;
    EXPECT_TRUE(message.at("embedding_vector").is_null()) << message;
  }
}

TEST_F(AnalystRestTest, SemanticSearchRanksTheNearestMessageFirstAndTextSearchIsUnchanged) {
  start_analyst_team();
  const char* texts[] = {"apples and pears grow in the orchard", "rockets launch satellites into orbit",
                         "the weather forecast says rain tomorrow"};
  for (const char* words : texts) analysed(human_message_of(create_dialog(words)));
  const auto found = get_ok("/api/messages/search?q=rockets%20orbit%20satellites&mode=semantic&role=human&limit=2");
  const auto& list = found.at("messages").as_array();
  ASSERT_FALSE(list.empty()) << found;
  EXPECT_EQ(list.front().at("content"), "rockets launch satellites into orbit") << found;
  EXPECT_LE(list.size(), 2U);
  EXPECT_GT(list.front().at("score").as_double(), 0.5);
  // mode=text (the default) is the trigram search as before. (The lead's answers repeat the
  // human's words, and are embedded too: role=human keeps to the human's messages.)
  const auto by_text = get_ok("/api/messages/search?q=orchard&role=human");
  ASSERT_EQ(by_text.at("messages").as_array().size(), 1U) << by_text;
  EXPECT_EQ(get_ok("/api/messages/search?q=orchard&role=human&mode=text"), by_text);
  // Bad input names its field, and changes nothing.
  auto reply = client().get("/api/messages/search?q=orbit&mode=vector");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(error_field(reply, "message").rfind("mode: expected text, semantic, got 'vector'", 0), 0U) << reply.body;
  reply = client().get("/api/messages/search?q=orbit&mode=semantic&sort_by=created_at");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(error_field(reply, "message").rfind("sort_by:", 0), 0U) << reply.body;
  reply = client().get("/api/messages/search?mode=semantic");
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(error_field(reply, "message").rfind("q:", 0), 0U) << reply.body;
}

TEST_F(AnalystRestTest, TheAnalystIsInstructedInTheMessagesLanguage) {
  start_analyst_team();
  // reader answers a Chinese message well only when its instruction is Chinese (script.yaml).
  const auto chinese = analysed(human_message_of(create_dialog("明天新加坡会下雨吗？我需要带伞吗？")));
  EXPECT_EQ(chinese.at("metadata").at("analysis").at("status"), "ok") << chinese;
  EXPECT_EQ(chinese.at("intent_tags"), (boost::json::array{"travel"}));
  EXPECT_EQ(chinese.at("topic_tags"), (boost::json::array{"新加坡"}));
  const auto& zh_step = chinese.at("metadata").at("analysis_steps").at(0);
  EXPECT_EQ(zh_step.at("parser"), "TextParser") << chinese;
  EXPECT_EQ(zh_step.at("language"), "zh");
  EXPECT_EQ(zh_step.at("status"), "done");
  const auto english = analysed(human_message_of(create_dialog("Will the weather hold in Singapore?")));
  EXPECT_EQ(english.at("metadata").at("analysis_steps").at(0).at("language"), "en") << english;
  EXPECT_EQ(english.at("metadata").at("analysis_steps").as_array().size(), 1U);  // text only: one step
}

TEST_F(AnalystRestTest, AHumansAnswerToAQuestionIsAnalysedAndEmbeddedLikeTheirMessages) {
  start_analyst_team();
  const auto dialog = create_dialog("ask me where to go");
  ASSERT_TRUE(eventually([&] { return client().get("/api/questions").json().at("questions").as_array().size() == 1; }));
  const auto question = client().get("/api/questions").json().at("questions").at(0);
  const auto answered =
      client().post("/api/dialogs/" + dialog + "/answer",
                    boost::json::value{{"questionId", question.at("id")}, {"content", "Somewhere with sunny weather"}});
  ASSERT_EQ(answered.status, 202) << answered.body;
  ASSERT_TRUE(eventually([&] {
    const auto list = messages(dialog);
    return !list.empty() && list.back().at("role") == "assistant" &&
           std::string(list.back().at("content").as_string()).rfind("lead noted:", 0) == 0;
  }));
  std::string answer_id;
  ASSERT_TRUE(eventually([&] {
    const auto found = client().get("/api/messages/search?q=Somewhere&role=human").json();
    if (!found.is_object() || found.at("messages").as_array().empty()) return false;
    answer_id = text(found.at("messages").at(0).at("id"));
    return true;
  }));
  const auto answer = analysed(answer_id);
  EXPECT_EQ(answer.at("sender_role"), "human") << answer;
  EXPECT_EQ(answer.at("content"), "Somewhere with sunny weather");
  EXPECT_EQ(answer.at("intent_tags"), (boost::json::array{"travel", "weather"}));
  EXPECT_EQ(answer.at("emotion"), "curious");
  EXPECT_EQ(answer.at("metadata").at("embedding").at("status"), "ok");
  EXPECT_TRUE(answer.at("embedding_vector").is_array());
}

TEST_F(AnalystRestTest, AnImagesParserStepsAreRecordedWithWhoMadeEachAndWithWhatModel) {
  start_analyst_team();
  const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(600, 'p');
  auto upload = [&] {
    const auto reply = client().request("POST", "/api/uploads", png, {{"Content-Type", "image/png"}});
    EXPECT_EQ(reply.status, 201) << reply.body;
    return text(reply.json().at("upload").at("id"));
  };
  // Sent without a caption: seer (media.captioner) describes it before the message is recorded.
  const auto described =
      client().post("/api/dialogs", boost::json::value{{"content", "I miss this place"},
                                                       {"attachment", boost::json::object{{"uploadId", upload()}}}});
  ASSERT_EQ(described.status, 201) << described.body;
  const auto image = analysed(human_message_of(text(described.json().at("dialog").at("id"))));
  EXPECT_EQ(image.at("content_type"), "image") << image;
  EXPECT_EQ(image.at("intent_tags"), (boost::json::array{"memory"}));
  EXPECT_EQ(image.at("emotion"), "nostalgic");
  const auto& steps = image.at("metadata").at("analysis_steps").as_array();
  ASSERT_EQ(steps.size(), 3U) << image;
  EXPECT_EQ(steps[0], (boost::json::object{{"parser", "ImageParser"},
                                           {"medium", "image"},
                                           {"kind", "caption"},
                                           {"status", "done"},
                                           {"member", "seer"},
                                           {"model", "scripted-vision"},
                                           {"output", "a beach at sunset"}}));
  EXPECT_EQ(steps[1], (boost::json::object{{"parser", "TextParser"},
                                           {"medium", "text"},
                                           {"kind", "text_analysis"},
                                           {"status", "done"},
                                           {"member", "reader"},
                                           {"model", "scripted"},
                                           {"language", "en"}}));
  EXPECT_EQ(steps[2], (boost::json::object{{"parser", "IntegrationManager"},
                                           {"medium", "mixed"},
                                           {"kind", "integration"},
                                           {"status", "done"},
                                           {"output", "I miss this place\na beach at sunset"}}));
  // Sent with its caption: the sender's words, no model; the analyst's refused replies are a
  // failed text step, recorded as such.
  const auto captioned = client().post(
      "/api/dialogs",
      boost::json::value{{"content", "look"},
                         {"attachment", boost::json::object{{"uploadId", upload()}, {"caption", "my cat"}}}});
  ASSERT_EQ(captioned.status, 201) << captioned.body;
  const auto cat = analysed(human_message_of(text(captioned.json().at("dialog").at("id"))));
  const auto& cat_steps = cat.at("metadata").at("analysis_steps").as_array();
  ASSERT_EQ(cat_steps.size(), 3U) << cat;
  EXPECT_EQ(cat_steps[0].at("status"), "given");
  EXPECT_EQ(cat_steps[0].at("output"), "my cat");
  EXPECT_FALSE(cat_steps[0].as_object().contains("member"));
  EXPECT_EQ(cat_steps[1].at("status"), "failed");
  EXPECT_EQ(text(cat_steps[1].at("error")).rfind("intent_tags: expected an array of strings", 0), 0U) << cat;
  EXPECT_EQ(cat.at("metadata").at("analysis").at("status"), "failed");
}

TEST_F(AnalystRestTest, SemanticSearchWithoutAnEmbedderNamesTheMissingConfiguration) {
  start("media");
  const auto reply = client().get("/api/messages/search?q=anything&mode=semantic");
  EXPECT_EQ(reply.status, 503) << reply.body;
  EXPECT_EQ(error_field(reply, "code"), "not_configured");
  EXPECT_NE(error_field(reply, "message").find("records.embeddings"), std::string::npos) << reply.body;
}

}  // namespace
}  // namespace parley::test
