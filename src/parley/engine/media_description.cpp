// Seed 002: "a missing caption or transcription can be produced by a configured member". An image
// posted without a caption goes to the team's captioner, a recording without a transcription to
// its transcriber (team.yaml `media`), once, before the message is recorded; what they answer is
// part of the message from then on. A failure is recorded beside it and the message goes on.
#include <boost/json/object.hpp>

#include "parley/core/base64.hpp"
#include "parley/core/json.hpp"
#include "parley/engine/member_roster.hpp"
#include "parley/engine/prompts.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<void> member_roster::describe_attachment(events::attachment& attachment) const {
  const bool image = attachment.kind == events::attachment_kind::image;
  const std::string& describer = image ? team_.media.captioner : team_.media.transcriber;
  auto& words_field = image ? attachment.caption : attachment.transcription;
  if (describer.empty() || !words_field.value_or("").empty() || !read_attachment_) co_return;
  const auto* member = find(describer);
  if (member == nullptr) co_return;
  auto bytes = read_attachment_(attachment.upload_id);
  if (!bytes) {
    attachment.describe_error = bytes.err().message;
    co_return;
  }
  llm::model_request request;
  request.member_id = describer;
  request.model = member->config->model;
  request.params = member->config->model_params;
  request.system_prompt = media_description_prompt(team_.language, image);
  request.stream = false;
  llm::chat_message ask;
  ask.content = image ? "Describe this image." : "Transcribe this recording.";
  ask.media.push_back(llm::media_part{attachment.kind, attachment.mime, attachment.format, base64_encode(*bytes)});
  request.messages.push_back(std::move(ask));
  llm::stream_sink quiet;  // nobody watches a description being written
  llm::generation_control control;
  auto described = co_await member->provider->stream(request, quiet, control);
  std::string words = described ? described->saying : std::string{};
  while (!words.empty() && (words.back() == '\n' || words.back() == ' ')) words.pop_back();
  if (words.empty()) {
    attachment.describe_error = described ? "@" + describer + " answered nothing" : described.err().message;
    co_return;
  }
  words_field = std::move(words);
  attachment.described_by = describer;
}

}  // namespace parley::engine
