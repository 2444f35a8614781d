#include "parley/store/records_search.hpp"

#include <algorithm>

#include "parley/core/json.hpp"
#include "parley/model/multimodal.hpp"

namespace parley {

std::size_t trigram_character_at(std::string_view text, std::size_t at) {
  std::size_t end = at + 1;
  if (static_cast<unsigned char>(text[at]) >= 0xC0U) {
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0U) == 0x80U) ++end;
  }
  return end - at;
}

std::size_t trigram_characters(std::string_view text) {
  std::size_t count = 0;
  for (std::size_t at = 0; at < text.size(); at += trigram_character_at(text, at)) ++count;
  return count;
}

result<std::vector<std::string>> phrases_of(std::string_view match) {
  std::vector<std::string> phrases;
  std::size_t at = 0;
  while (at < match.size()) {
    if (!phrases.empty()) {
      if (match[at] != ' ') return make_error(errc::invalid_argument, "match: phrases are separated by one space");
      ++at;
    }
    if (at >= match.size() || match[at] != '"') {
      return make_error(errc::invalid_argument, "match: expected a phrase in double quotes");
    }
    std::string phrase;
    for (++at;; ++at) {
      if (at >= match.size()) return make_error(errc::invalid_argument, "match: a phrase has no closing quote");
      if (match[at] != '"') {
        phrase += match[at];
      } else if (at + 1 < match.size() && match[at + 1] == '"') {
        phrase += '"';
        ++at;
      } else {
        ++at;
        break;
      }
    }
    phrases.push_back(std::move(phrase));
  }
  if (phrases.empty()) return make_error(errc::invalid_argument, "match: required, one or more quoted phrases");
  return phrases;
}

result<std::vector<std::string>> search_conditions(std::string_view match) {
  auto phrases = phrases_of(match);
  if (!phrases) return std::move(phrases).err();
  std::erase_if(*phrases, [](const std::string& phrase) { return trigram_characters(phrase) < 3; });
  return std::move(*phrases);
}

std::string indexed_text_of(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '\0', ' ');
  return out;
}

std::string message_search_text(const record_message& m) {
  if (m.content_meta.empty()) return indexed_text_of(m.content);
  // content_meta is checked before it is stored (server/records_requests.cpp); one that does not
  // read (stored before that check) adds no words to the search text.
  media_meta fields;
  if (auto meta = parse_json(m.content_meta); meta && meta->is_object()) {
    if (auto read = read_media_meta(meta->get_object())) fields = std::move(*read);
  }
  return indexed_text_of(m.content + "\n" + fields.caption + "\n" + fields.transcription + "\n" + fields.text);
}

}  // namespace parley
