#include "parley/engine/message_analysis.hpp"

#include <boost/json/parse.hpp>

#include "parley/core/utf8.hpp"

namespace parley::engine {
namespace {

constexpr std::string_view kShape = R"({"intent_tags": ["..."], "emotion": "...", "topic_tags": ["..."]})";

std::string system_prompt_for(const config::member_config& analyst) {
  std::string prompt = analyst.persona.empty() ? std::string{} : analyst.persona + "\n\n";
  prompt +=
      "You analyse one message a human wrote in a conversation with an AI team. Reply with exactly one JSON "
      "object and nothing else (no prose, no code fence), of this shape:\n";
  prompt += kShape;
  prompt += "\n- intent_tags: what the human wants, as short lowercase tags (e.g. \"travel\", \"weather\"), at most " +
            std::to_string(kMaxAnalysisTags) +
            ";\n- emotion: one word for the emotion the message shows (e.g. \"neutral\", \"curious\", \"worried\");\n"
            "- topic_tags: what the message is about, in the message's own language, at most " +
            std::to_string(kMaxAnalysisTags) + ".\nEach tag is at most " + std::to_string(kMaxAnalysisTagBytes) +
            " bytes. Use empty lists when nothing fits.";
  return prompt;
}

std::string cut(std::string_view text, std::size_t bytes) { return utf8_excerpt(text, bytes); }

error refused(std::string message) { return make_error(errc::invalid_argument, std::move(message)); }

result<std::string> read_tag(const boost::json::value& v, const std::string& path) {
  if (!v.is_string()) return refused(path + ": expected a string");
  const auto& s = v.get_string();
  if (s.empty()) return refused(path + ": is empty");
  if (s.size() > kMaxAnalysisTagBytes) {
    return refused(path + ": longer than " + std::to_string(kMaxAnalysisTagBytes) + " bytes");
  }
  if (!is_valid_utf8(std::string_view(s))) return refused(path + ": not UTF-8");
  return std::string(s);
}

result<std::vector<std::string>> read_tags(const boost::json::object& obj, std::string_view key) {
  const auto* v = obj.if_contains(key);
  if (v == nullptr) return refused(std::string(key) + ": missing");
  if (!v->is_array()) return refused(std::string(key) + ": expected an array of strings");
  const auto& items = v->get_array();
  if (items.size() > kMaxAnalysisTags) {
    return refused(std::string(key) + ": more than " + std::to_string(kMaxAnalysisTags) + " tags");
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto tag = read_tag(items[i], std::string(key) + "[" + std::to_string(i) + "]");
    if (!tag) return std::move(tag).err();
    out.push_back(std::move(*tag));
  }
  return out;
}

}  // namespace

llm::model_request analysis_request(const config::member_config& analyst, std::string_view text) {
  llm::model_request request;
  request.member_id = analyst.id;
  request.model = analyst.model;
  request.params = analyst.model_params;
  request.system_prompt = system_prompt_for(analyst);
  request.stream = false;
  request.messages.push_back({llm::role::user, "The message:\n" + cut(text, kMaxAnalysedTextBytes)});
  return request;
}

llm::model_request analysis_retry(llm::model_request first, std::string_view answer, std::string_view problem) {
  llm::chat_message said;
  said.role = llm::role::assistant;
  said.content = cut(answer, kMaxAnalysedTextBytes);
  first.messages.push_back(std::move(said));
  first.messages.push_back({llm::role::user, "That reply was refused (" + std::string(problem) +
                                                 "). Reply again with only the JSON object of the shape " +
                                                 std::string(kShape) + "."});
  first.round = 2;
  return first;
}

result<message_analysis> parse_analysis(std::string_view answer) {
  boost::system::error_code ec;
  auto parsed = boost::json::parse(answer, ec);
  if (ec) return refused("the reply is not JSON: " + ec.message());
  if (!parsed.is_object()) return refused("the reply is not a JSON object");
  const auto& obj = parsed.get_object();
  for (const auto& [key, value] : obj) {
    if (key != "intent_tags" && key != "emotion" && key != "topic_tags") {
      return refused(std::string(key) + ": unknown field (expected intent_tags, emotion, topic_tags)");
    }
  }
  message_analysis out;
  auto intents = read_tags(obj, "intent_tags");
  if (!intents) return std::move(intents).err();
  out.intent_tags = std::move(*intents);
  const auto* emotion = obj.if_contains("emotion");
  if (emotion == nullptr) return refused("emotion: missing");
  auto word = read_tag(*emotion, "emotion");
  if (!word) return std::move(word).err();
  out.emotion = std::move(*word);
  auto topics = read_tags(obj, "topic_tags");
  if (!topics) return std::move(topics).err();
  out.topic_tags = std::move(*topics);
  return out;
}

}  // namespace parley::engine
