#include "parley/tools/image_read.hpp"

#include "parley/core/base64.hpp"
#include "parley/core/file_io.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools::detail {

std::optional<image_kind> sniff_image(std::string_view first_bytes) {
  if (first_bytes.starts_with("\x89PNG\r\n\x1a\n")) return image_kind{"PNG", "image/png", "png"};
  if (first_bytes.starts_with("\xFF\xD8\xFF")) return image_kind{"JPEG", "image/jpeg", "jpeg"};
  return std::nullopt;
}

tool_outcome read_image(const tool_context& ctx, const std::string& shown, const std::filesystem::path& file,
                        std::uintmax_t size, const image_kind& kind) {
  const std::string what =
      quote_path(shown) + " is a " + std::string(kind.name) + " image of " + std::to_string(size) + " bytes";
  if (!ctx.takes_images) {
    return failed(what +
                  "; your model does not take images, so read_file cannot show it to you (ask a teammate "
                  "whose model sees images to describe it)");
  }
  if (size > kMaxImageBytes) {
    return failed(what + ", over the " + std::to_string(kMaxImageBytes) + " bytes an image read can be");
  }
  auto bytes = read_file_prefix(file, kMaxImageBytes);
  if (!bytes) return failed(quote_path(shown) + ": " + bytes.err().message);
  if (bytes->bytes.size() < bytes->size) {
    return failed(what + ", over the " + std::to_string(kMaxImageBytes) + " bytes an image read can be");
  }
  tool_outcome outcome{true, quote_path(shown) + ": a " + std::string(kind.name) + " image of " +
                                 std::to_string(bytes->bytes.size()) + " bytes, given to you as an image"};
  outcome.media.push_back(
      media_part{media_kind::image, std::string(kind.mime), std::string(kind.format), base64_encode(bytes->bytes)});
  return outcome;
}

}  // namespace parley::tools::detail
