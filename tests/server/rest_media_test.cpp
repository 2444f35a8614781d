// Seed 002's multimodal messages over REST: uploads checked by size and by their bytes, images
// posted with words, captioned by the team's captioner when they come without one, seen as images
// by a member with vision and as their caption by others, recorded as image messages with
// content_meta, searchable by their caption, and shown as the MultiModalInputParser's blocks.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <string>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

const std::string kPng = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(600, 'p');
const std::string kJpeg = std::string("\xFF\xD8\xFF\xE0", 4) + std::string(100, 'j');

class MediaTest : public RestTest {
 protected:
  http_reply upload(const std::string& bytes, const std::string& type) {
    return client().request("POST", "/api/uploads", bytes, {{"Content-Type", type}});
  }
  std::string upload_id(const std::string& bytes, const std::string& type) {
    const auto reply = upload(bytes, type);
    EXPECT_EQ(reply.status, 201) << reply.body;
    return reply.status == 201 ? std::string(reply.json().at("upload").at("id").as_string()) : std::string{};
  }
  json::object only_message_of_role(const std::string& id, const std::string& role) {
    const auto sessions = client().get("/api/dialogues/" + id + "/sessions").json();
    const std::string session(sessions.at("sessions").at(0).at("id").as_string());
    const auto turns = client().get("/api/sessions/" + session + "/turns?include=messages").json();
    for (const auto& turn : turns.at("turns").as_array()) {
      for (const auto& m : turn.at("messages").as_array()) {
        if (m.at("sender_role") == role.c_str()) return m.as_object();
      }
    }
    return {};
  }
};

TEST_F(MediaTest, AnUploadIsCheckedByItsBytesAndReadBackAsItWas) {
  start("media", {"--max-upload-bytes", "4096"});
  const auto stored = upload(kPng, "image/png");
  ASSERT_EQ(stored.status, 201) << stored.body;
  const auto info = stored.json().at("upload");
  EXPECT_EQ(info.at("content_type"), "image");
  EXPECT_EQ(info.at("format"), "png");
  EXPECT_EQ(info.at("size_kb"), 1);
  const auto back = client().get(std::string(info.at("url").as_string()));
  EXPECT_EQ(back.status, 200);
  EXPECT_EQ(back.body, kPng);
  EXPECT_EQ(back.header("Content-Type"), "image/png");
  EXPECT_EQ(back.header("X-Content-Type-Options"), "nosniff");

  const auto mistyped = upload(kJpeg, "image/png");
  EXPECT_EQ(mistyped.status, 415);
  EXPECT_NE(mistyped.body.find("body: not a png file"), std::string::npos) << mistyped.body;
  const auto html = upload("<html><script>x</script></html>", "text/html");
  EXPECT_EQ(html.status, 415);
  EXPECT_NE(html.body.find("Content-Type: expected one of image/png"), std::string::npos) << html.body;
  const auto too_big = upload(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(5000, 'x'), "image/png");
  EXPECT_EQ(too_big.status, 413);
  EXPECT_NE(too_big.body.find("body: larger than 4096 bytes"), std::string::npos) << too_big.body;
  EXPECT_EQ(client().get("/api/uploads/0123456789abcdef0123456789abcdef").status, 404);
  EXPECT_EQ(client().get("/api/uploads/..%2F..%2Fetc%2Fpasswd").status, 404);
  // Only the one good upload is on disk (its bytes and its info).
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(data_dir() / "uploads")) ++files;
  EXPECT_EQ(files, 2U);
}

TEST_F(MediaTest, AnImageWithoutACaptionIsCaptionedAndReadAsItsCaptionByAMemberWithoutVision) {
  start("media");
  const auto id = upload_id(kPng, "image/png");
  const auto created = client().post(
      "/api/dialogs", json::value{{"content", "what is this?"}, {"attachment", json::object{{"uploadId", id}}}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string dialog(created.json().at("dialog").at("id").as_string());
  ASSERT_TRUE(eventually_says(dialog, "lead heard: [image (png, 1 KB)] a red square\nwhat is this?"));

  const auto image = only_message_of_role(dialog, "human");
  EXPECT_EQ(image.at("content_type"), "image");
  EXPECT_EQ(image.at("content"), ("/api/uploads/" + id).c_str());
  EXPECT_EQ(image.at("content_meta").at("caption"), "a red square");
  EXPECT_EQ(image.at("content_meta").at("described_by"), "seer");
  EXPECT_EQ(image.at("content_meta").at("text"), "what is this?");
  EXPECT_EQ(image.at("content_meta").at("format"), "png");
  const std::string message_id(image.at("id").as_string());
  const auto block = client().get("/api/messages/" + message_id + "?view=context_block").json().at("context_block");
  EXPECT_EQ(block.at("text_block"), "[image (png, 1 KB)] a red square\nwhat is this?");
  EXPECT_EQ(block.at("origin"), "human");
  EXPECT_EQ(block.at("semantic_tags"), (json::array{"image", "png"}));
  // Search finds the picture by its caption (and lead's answer quoting it is the other match).
  EXPECT_EQ(client().get("/api/messages/search?q=red%20square").json().at("total"), 2);
  const auto found = client().get("/api/messages/search?q=red%20square&role=human").json();
  ASSERT_EQ(found.at("total"), 1);
  EXPECT_EQ(found.at("messages").at(0).at("id"), message_id.c_str());
}

TEST_F(MediaTest, AMemberWithVisionIsGivenTheImageItself) {
  start("media");
  const auto id = upload_id(kPng, "image/png");
  const auto created =
      client().post("/api/dialogs", json::value{{"memberId", "seer"},
                                                {"content", "and this?"},
                                                {"attachment", json::object{{"uploadId", id}, {"caption", "mine"}}}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string dialog(created.json().at("dialog").at("id").as_string());
  ASSERT_TRUE(eventually_says(dialog, "seer saw image/png " + std::to_string(kPng.size()) + " bytes: and this?"));
  // A caption given with it is kept, and nobody is asked for another.
  EXPECT_EQ(only_message_of_role(dialog, "human").at("content_meta").at("caption"), "mine");
  EXPECT_FALSE(only_message_of_role(dialog, "human").at("content_meta").as_object().contains("described_by"));
}

TEST_F(MediaTest, TheTranscriptShowsAUserMessagesAttachmentWithItsCaption) {
  start("media");
  const auto id = upload_id(kPng, "image/png");
  const auto created = client().post(
      "/api/dialogs",
      json::value{{"content", "look"}, {"attachment", json::object{{"uploadId", id}, {"caption", "a cat"}}}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string dialog(created.json().at("dialog").at("id").as_string());
  const auto transcript = client().get("/api/dialogs/" + dialog + "/transcript").json();
  const auto& first = transcript.at("messages").at(0).as_object();
  EXPECT_EQ(first.at("role"), "user");
  EXPECT_EQ(first.at("content"), "look");
  const auto& attachment = first.at("attachment");
  EXPECT_EQ(attachment.at("uploadId"), id.c_str());
  EXPECT_EQ(attachment.at("url"), ("/api/uploads/" + id).c_str());
  EXPECT_EQ(attachment.at("kind"), "image");
  EXPECT_EQ(attachment.at("caption"), "a cat");
}

TEST_F(MediaTest, ABadAttachmentIsRefusedNamingTheFieldAndNothingIsPosted) {
  start("media");
  const auto id = create_dialog("first");
  ASSERT_TRUE(eventually_says(id, "lead heard: first"));
  const std::vector<std::pair<json::value, std::string>> cases{
      {json::value{{"attachment", json::object{{"uploadId", "0123456789abcdef0123456789abcdef"}}}},
       "attachment.uploadId: no upload '0123456789abcdef0123456789abcdef'"},
      {json::value{{"attachment", json::object{{"uploadId", "x"}, {"colour", "red"}}}},
       "attachment.colour: unknown field"},
      {json::value{{"attachment", "a picture"}}, "attachment: expected an object"},
      {json::value{{"content", ""}}, "content: expected a non-empty string"},
  };
  for (const auto& [body, message] : cases) {
    const auto reply = client().post("/api/dialogs/" + id + "/messages", body);
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_NE(reply.body.find(message), std::string::npos) << reply.body;
  }
  EXPECT_EQ(messages(id).size(), 2U);
}

TEST_F(MediaTest, TheRecordsWriteApiTakesImageAndAudioMessagesWithTheirContentMeta) {
  start("media");
  const auto id = create_dialog("first");
  ASSERT_TRUE(eventually_says(id, "lead heard: first"));
  const auto session = client().get("/api/dialogues/" + id + "/latest_session").json().at("session");
  const auto turn = client().post(
      "/api/turns",
      json::value{{"session_id", session.at("id")}, {"initiator_role", "human"}, {"responder_role", "ai"}});
  ASSERT_EQ(turn.status, 201) << turn.body;
  const auto turn_id = turn.json().at("turn").at("id");
  const auto audio = client().post(
      "/api/messages",
      json::value{
          {"turn_id", turn_id},
          {"sender_role", "human"},
          {"content", "https://cdn.example/audio/abc.mp3"},
          {"content_type", "audio"},
          {"content_meta", json::object{{"transcription", "see you at noon"}, {"format", "mp3"}, {"size_kb", 88}}}});
  ASSERT_EQ(audio.status, 201) << audio.body;
  EXPECT_EQ(audio.json().at("message").at("content_meta").at("transcription"), "see you at noon");
  EXPECT_EQ(client().get("/api/messages/search?q=noon").json().at("total"), 1);

  for (const auto& [body, message] : std::vector<std::pair<json::object, std::string>>{
           {{{"content_type", "text"}, {"content_meta", json::object{{"caption", "x"}}}},
            "content_meta: only image and audio messages have one"},
           {{{"content_type", "image"}, {"content_meta", json::object{{"size_kb", -1}}}},
            "content_meta.size_kb: expected a whole number"},
           {{{"content_type", "image"}, {"content_meta", json::object{{"mood", "x"}}}},
            "content_meta.mood: unknown field"},
           {{{"content_type", "video"}}, "content_type: expected one of"}}) {
    json::object full{{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "u"}};
    for (const auto& [k, v] : body) full[k] = v;
    const auto reply = client().post("/api/messages", json::value(full));
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_NE(reply.body.find(message), std::string::npos) << reply.body;
  }
}

}  // namespace
}  // namespace parley::test
