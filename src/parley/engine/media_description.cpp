// Seed 002: "a missing caption or transcription can be produced by a configured member". An image
// posted without a caption goes to the team's captioner, a recording without a transcription to
// its transcriber (team.yaml `media`), once, before the message is recorded; what they answer is
// part of the message from then on. A failure is recorded beside it and the message goes on.
#include <boost/json/object.hpp>

#include "parley/core/base64.hpp"
#include "parley/core/json.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/prompts.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<void> engine::describe_attachment(boost::json::object& attachment) {
  const std::string kind = json_string_or(attachment, "kind");
  const bool image = kind == "image";
  const std::string& describer = image ? team_.media.captioner : team_.media.transcriber;
  const char* field = image ? "caption" : "transcription";
  if (describer.empty() || !json_string_or(attachment, field).empty() || !read_attachment_) co_return;
  const auto member = members_.find(describer);
  if (member == members_.end()) co_return;
  auto bytes = read_attachment_(json_string_or(attachment, "uploadId"));
  if (!bytes) {
    attachment["describeError"] = bytes.err().message;
    co_return;
  }
  llm::model_request request;
  request.member_id = describer;
  request.model = member->second.config->model;
  request.params = member->second.config->model_params;
  request.system_prompt = media_description_prompt(team_.language, image);
  request.stream = false;
  llm::chat_message ask;
  ask.content = image ? "Describe this image." : "Transcribe this recording.";
  ask.media.push_back(llm::media_part{kind, json_string_or(attachment, "mime"), json_string_or(attachment, "format"),
                                      base64_encode(*bytes)});
  request.messages.push_back(std::move(ask));
  llm::stream_sink quiet;  // nobody watches a description being written
  llm::generation_control control;
  auto described = co_await member->second.provider->stream(request, quiet, control);
  std::string words = described ? described->saying : std::string{};
  while (!words.empty() && (words.back() == '\n' || words.back() == ' ')) words.pop_back();
  if (words.empty()) {
    attachment["describeError"] = described ? "@" + describer + " answered nothing" : described.err().message;
    co_return;
  }
  attachment[field] = std::move(words);
  attachment["describedBy"] = describer;
}

}  // namespace parley::engine
