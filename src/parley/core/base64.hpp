// Base64 (RFC 4648, with padding), for media sent to model APIs as data.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace parley {

std::string base64_encode(std::string_view bytes);
// The bytes of padded base64 text; nullopt for anything else (a stray character, a bad length).
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace parley
