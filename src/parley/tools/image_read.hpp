// read_file of an image (Dominds' read_picture, issue 27 item 3): a PNG or JPEG, recognised by its
// first bytes, goes to the model as an image part when the member's model takes images, and is a
// clear refusal otherwise; an image over kMaxImageBytes is refused before it is read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "parley/tools/tool.hpp"

namespace parley::tools::detail {

// What Anthropic takes per image; OpenAI takes more. The log keeps the image, so it is bounded.
inline constexpr std::uintmax_t kMaxImageBytes = std::uintmax_t{5} * 1024 * 1024;

struct image_kind {
  std::string_view name;  // "PNG"
  std::string_view mime;  // "image/png"
  std::string_view format;
};

// A PNG or JPEG by its signature; other bytes (text, other images) are nullopt.
std::optional<image_kind> sniff_image(std::string_view first_bytes);

tool_outcome read_image(const tool_context& ctx, const std::string& shown, const std::filesystem::path& file,
                        std::uintmax_t size, const image_kind& kind);

}  // namespace parley::tools::detail
