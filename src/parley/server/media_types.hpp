// The media an upload may be (seed 002's image and audio messages): its declared Content-Type must
// be one Parley accepts, and its first bytes must be that format's signature, so a renamed
// executable or an HTML page cannot pass as a picture.
#pragma once

#include <string>
#include <string_view>

#include "parley/core/media_kind.hpp"
#include "parley/core/result.hpp"

namespace parley::server {

// What check_media found an upload to be.
struct checked_media {
  media_kind kind = media_kind::image;
  std::string format;  // "png" | "jpeg" | "gif" | "webp" | "mp3" | "wav" | "ogg"
  std::string mime;    // the canonical Content-Type
};

// invalid_argument for a type Parley does not take or bytes that are not that type (the server
// answers 415); the message names `Content-Type` or `body`.
result<checked_media> check_media(std::string_view declared_content_type, std::string_view bytes);

// True for "application/json", with parameters ("; charset=utf-8") and in any case. The JSON routes
// take nothing else: a page of another site can send text/plain, a form or multipart without asking
// (no CORS preflight), but never application/json.
bool is_json_media_type(std::string_view content_type);

}  // namespace parley::server
