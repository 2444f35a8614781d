// Base64 (RFC 4648, with padding), for media sent to model APIs as data.
#pragma once

#include <string>
#include <string_view>

namespace parley {

std::string base64_encode(std::string_view bytes);

}  // namespace parley
