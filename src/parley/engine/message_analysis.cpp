#include "parley/engine/message_analysis.hpp"

#include <boost/json/parse.hpp>

#include <cctype>

#include "parley/core/utf8.hpp"

namespace parley::engine {
namespace {

// What precedes the message in the analyst's user turn; the retry finds the language by it.
constexpr std::string_view kLeadZh = "消息：\n";
constexpr std::string_view kLeadEn = "The message:\n";
constexpr std::string_view kShape = R"({"intent_tags": ["..."], "emotion": "...", "topic_tags": ["..."]})";

std::string system_prompt_for(const config::member_config& analyst, std::string_view language) {
  std::string prompt = analyst.persona.empty() ? std::string{} : analyst.persona + "\n\n";
  const std::string tags = std::to_string(kMaxAnalysisTags);
  const std::string bytes = std::to_string(kMaxAnalysisTagBytes);
  if (language == "zh") {
    prompt +=
        "你要分析人类在与一个 AI 团队的对话中写下的一条消息。只回复一个 JSON 对象，不要其他任何内容（不要说明，"
        "不要代码块），形如：\n";
    prompt += kShape;
    prompt += "\n- intent_tags：人类想要什么，用简短的小写英文标签（如 \"travel\"、\"weather\"），最多 " + tags +
              " 个；\n- emotion：用一个英文词表示消息流露的情绪（如 \"neutral\"、\"curious\"、\"worried\"）；\n"
              "- topic_tags：消息谈的是什么，用消息本身的语言（中文），最多 " +
              tags + " 个。\n每个标签最多 " + bytes + " 字节。没有合适的就给空列表。";
    return prompt;
  }
  prompt +=
      "You analyse one message a human wrote in a conversation with an AI team. Reply with exactly one JSON "
      "object and nothing else (no prose, no code fence), of this shape:\n";
  prompt += kShape;
  prompt += "\n- intent_tags: what the human wants, as short lowercase tags (e.g. \"travel\", \"weather\"), at most " +
            tags +
            ";\n- emotion: one word for the emotion the message shows (e.g. \"neutral\", \"curious\", \"worried\");\n"
            "- topic_tags: what the message is about, in the message's own language, at most " +
            tags + ".\nEach tag is at most " + bytes + " bytes. Use empty lists when nothing fits.";
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

std::string_view analysis_language(std::string_view text) {
  std::size_t han = 0;
  std::size_t latin = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    if (b0 < 0x80) {
      latin += std::isalpha(b0) != 0 ? 1 : 0;
    } else if ((b0 & 0xF0) == 0xE0 && i + 2 < text.size()) {
      const auto cp = ((b0 & 0x0FU) << 12) | ((static_cast<unsigned char>(text[i + 1]) & 0x3FU) << 6) |
                      (static_cast<unsigned char>(text[i + 2]) & 0x3FU);
      // CJK ideographs (extension A and the unified block), CJK punctuation, full-width forms.
      if ((cp >= 0x3400 && cp <= 0x9FFF) || (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFFEF)) ++han;
      i += 2;
    }
  }
  // A Chinese character says about as much as an English word of a few letters.
  return han > 0 && han * 3 >= latin ? "zh" : "en";
}

llm::model_request analysis_request(const config::member_config& analyst, std::string_view text) {
  const std::string_view language = analysis_language(text);
  llm::model_request request;
  request.member_id = analyst.id;
  request.model = analyst.model;
  request.params = analyst.model_params;
  request.system_prompt = system_prompt_for(analyst, language);
  request.stream = false;
  const std::string_view lead = language == "zh" ? kLeadZh : kLeadEn;
  request.messages.push_back({llm::role::user, std::string(lead) + cut(text, kMaxAnalysedTextBytes)});
  return request;
}

llm::model_request analysis_retry(llm::model_request first, std::string_view answer, std::string_view problem) {
  const bool zh = !first.messages.empty() && first.messages.front().content.starts_with(kLeadZh);
  llm::chat_message said;
  said.role = llm::role::assistant;
  said.content = cut(answer, kMaxAnalysedTextBytes);
  first.messages.push_back(std::move(said));
  // The problem is quoted as the parser wrote it (field names are the JSON's own).
  std::string again = zh ? "这个回复被拒绝了（" + std::string(problem) + "）。请只回复这个形状的 JSON 对象：" +
                               std::string(kShape) + "。"
                         : "That reply was refused (" + std::string(problem) +
                               "). Reply again with only the JSON object of the shape " + std::string(kShape) + ".";
  first.messages.push_back({llm::role::user, std::move(again)});
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
