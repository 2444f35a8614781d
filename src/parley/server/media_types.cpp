#include "parley/server/media_types.hpp"
#include "parley/core/text.hpp"

#include <array>
#include <cctype>

namespace parley::server {
namespace {

struct known_type {
  std::string_view mime;
  media_kind kind;
  std::string_view format;
};

constexpr auto image = media_kind::image;
constexpr auto audio = media_kind::audio;
constexpr std::array kKnown{
    known_type{"image/png", image, "png"},   known_type{"image/jpeg", image, "jpeg"},
    known_type{"image/gif", image, "gif"},   known_type{"image/webp", image, "webp"},
    known_type{"audio/mpeg", audio, "mp3"},  known_type{"audio/wav", audio, "wav"},
    known_type{"audio/x-wav", audio, "wav"}, known_type{"audio/ogg", audio, "ogg"},
};

bool starts_with(std::string_view bytes, std::string_view prefix) { return bytes.substr(0, prefix.size()) == prefix; }

// RIFF containers (WebP, WAV) name their form at offset 8.
bool riff_of(std::string_view bytes, std::string_view form) {
  return bytes.size() >= 12 && starts_with(bytes, "RIFF") && bytes.substr(8, 4) == form;
}

bool looks_like(std::string_view format, std::string_view bytes) {
  if (format == "png") return starts_with(bytes, std::string_view("\x89PNG\r\n\x1a\n", 8));
  if (format == "jpeg") return starts_with(bytes, "\xFF\xD8\xFF");
  if (format == "gif") return starts_with(bytes, "GIF87a") || starts_with(bytes, "GIF89a");
  if (format == "webp") return riff_of(bytes, "WEBP");
  if (format == "wav") return riff_of(bytes, "WAVE");
  if (format == "ogg") return starts_with(bytes, "OggS");
  if (format == "mp3") {
    // An ID3 tag, or an MPEG audio frame's sync word (11 set bits).
    return starts_with(bytes, "ID3") || (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0xFF &&
                                         (static_cast<unsigned char>(bytes[1]) & 0xE0) == 0xE0);
  }
  return false;
}

std::string lowercase_media_type(std::string_view header) {
  const auto semicolon = header.find(';');
  return ascii_lowercase(trim(header.substr(0, semicolon), " \t"));
}

}  // namespace

bool is_json_media_type(std::string_view content_type) {
  return lowercase_media_type(content_type) == "application/json";
}

result<checked_media> check_media(std::string_view declared_content_type, std::string_view bytes) {
  const std::string mime = lowercase_media_type(declared_content_type);
  const known_type* known = nullptr;
  for (const auto& candidate : kKnown) {
    if (candidate.mime == mime) known = &candidate;
  }
  if (known == nullptr) {
    std::string accepted;
    for (const auto& candidate : kKnown) accepted += (accepted.empty() ? "" : ", ") + std::string(candidate.mime);
    return make_error(errc::invalid_argument, "Content-Type: expected one of " + accepted + ", got '" +
                                                  std::string(declared_content_type) + "'");
  }
  if (bytes.empty()) return make_error(errc::invalid_argument, "body: empty; expected a " + mime + " file");
  if (!looks_like(known->format, bytes)) {
    return make_error(errc::invalid_argument, "body: not a " + std::string(known->format) +
                                                  " file (its first bytes do not match " + mime + ")");
  }
  return checked_media{known->kind, std::string(known->format),
                       known->format == "wav" ? std::string("audio/wav") : mime};
}

}  // namespace parley::server
