// Dominds' write_picture: an image given as strict base64 (or a base64 data URL) written to a
// workspace path under the member's write rules. The bytes are decoded strictly (padded base64;
// whitespace between is dropped, anything else refused), bounded (kMaxImageBytes, what read_picture
// takes back), and must carry the signature of the type the path's extension names (and
// `mime_type` or the data URL, when given). An existing file is replaced only with overwrite.
// The written image goes back to a member whose model takes images, as read_picture gives it.
#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <cctype>

#include "parley/core/base64.hpp"
#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/image_read.hpp"
#include "parley/tools/workspace_access.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

struct picture_type {
  std::string_view mime;
  std::string_view format;
  std::array<std::string_view, 2> extensions;
};

constexpr std::array<picture_type, 4> kPictureTypes{{
    {"image/png", "png", {".png", ".png"}},
    {"image/jpeg", "jpeg", {".jpg", ".jpeg"}},
    {"image/webp", "webp", {".webp", ".webp"}},
    {"image/gif", "gif", {".gif", ".gif"}},
}};

const picture_type* picture_by_mime(std::string_view mime) {
  const auto found = std::find_if(kPictureTypes.begin(), kPictureTypes.end(),
                                  [&](const picture_type& type) { return type.mime == mime; });
  return found == kPictureTypes.end() ? nullptr : &*found;
}

const picture_type* picture_by_path(std::string_view path) {
  std::string extension = fs::path(std::string(path)).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const auto found = std::find_if(kPictureTypes.begin(), kPictureTypes.end(), [&](const picture_type& type) {
    return type.extensions[0] == extension || type.extensions[1] == extension;
  });
  return found == kPictureTypes.end() ? nullptr : &*found;
}

// The type the bytes' first bytes say, as Dominds tells them apart.
const picture_type* picture_by_signature(std::string_view bytes) {
  if (bytes.starts_with(std::string_view("\x89PNG\r\n\x1a\n", 8))) return picture_by_mime("image/png");
  if (bytes.starts_with("\xff\xd8\xff")) return picture_by_mime("image/jpeg");
  if (bytes.size() >= 12 && bytes.starts_with("RIFF") && bytes.substr(8, 4) == "WEBP")
    return picture_by_mime("image/webp");
  if (bytes.starts_with("GIF87a") || bytes.starts_with("GIF89a")) return picture_by_mime("image/gif");
  return nullptr;
}

struct picture_request {
  std::string path;
  std::string payload;  // base64, whitespace dropped
  const picture_type* type = nullptr;
  bool overwrite = false;
};

// The payload of a data URL ('data:image/png;base64,...', its type checked) or the text itself.
result<std::string_view> strip_data_url(std::string_view text, const picture_type*& declared) {
  if (!text.starts_with("data:")) return text;
  const auto comma = text.find(',');
  const auto header = text.substr(5, comma == std::string_view::npos ? 0 : comma - 5);
  if (comma == std::string_view::npos || !header.ends_with(";base64")) {
    return make_error(errc::invalid_argument, "data_base64: a data URL must be 'data:<image type>;base64,<data>'");
  }
  const auto* type = picture_by_mime(header.substr(0, header.size() - 7));
  if (type == nullptr) {
    return make_error(errc::invalid_argument, "data_base64: the data URL's type '" +
                                                  std::string(header.substr(0, header.size() - 7)) +
                                                  "' is not image/png, image/jpeg, image/webp or image/gif");
  }
  if (declared != nullptr && declared != type) {
    return make_error(errc::invalid_argument, "data_base64: the data URL says " + std::string(type->mime) +
                                                  ", mime_type says " + std::string(declared->mime));
  }
  declared = type;
  return text.substr(comma + 1);
}

result<picture_request> read_picture_request(const json::object& args) {
  json_fields in(args);
  picture_request req;
  req.path = in.string("path");
  const std::string data = in.string("data_base64");
  const auto mime = in.optional_string("mime_type");
  req.overwrite = in.optional_boolean("overwrite").value_or(false);
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  if (req.path.empty()) return make_error(errc::invalid_argument, "path: must not be empty");
  req.type = picture_by_path(req.path);
  if (req.type == nullptr)
    return make_error(errc::invalid_argument, "path: the extension must be .png, .jpg, .jpeg, .webp or .gif");
  const picture_type* declared = nullptr;
  if (mime) {
    declared = picture_by_mime(*mime);
    if (declared == nullptr)
      return make_error(errc::invalid_argument, "mime_type: must be image/png, image/jpeg, image/webp or image/gif");
  }
  std::string_view payload;
  PARLEY_TRY_ASSIGN(payload, strip_data_url(data, declared));
  if (declared != nullptr && declared != req.type) {
    return make_error(errc::invalid_argument, "mime_type: " + std::string(declared->mime) +
                                                  " does not match the extension of '" + req.path + "'");
  }
  // The encoded size is bounded before anything is decoded.
  if (payload.size() > (detail::kMaxImageBytes / 3 + 1) * 4 + 1024 * 1024) {
    return make_error(errc::limit_exceeded,
                      "data_base64: the image is larger than " + std::to_string(detail::kMaxImageBytes) + " bytes");
  }
  for (const char c : payload) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) req.payload += c;
  }
  if (req.payload.empty()) return make_error(errc::invalid_argument, "data_base64: must not be empty");
  return req;
}

tool_outcome write_picture(const json::object& args, const tool_context& ctx) {
  auto req = read_picture_request(args);
  if (!req) return tool_outcome{false, "Invalid arguments: " + req.err().message};
  const auto bytes = base64_decode(req->payload);
  if (!bytes) return tool_outcome{false, "data_base64: not strict base64 (or a base64 data URL)"};
  if (bytes->empty() || bytes->size() > detail::kMaxImageBytes) {
    return tool_outcome{false, "data_base64: the image must be between 1 byte and " +
                                   std::to_string(detail::kMaxImageBytes) + " bytes"};
  }
  const auto* found = picture_by_signature(*bytes);
  if (found == nullptr) return tool_outcome{false, "data_base64: the bytes are not a PNG, JPEG, WebP or GIF image"};
  if (found != req->type) {
    return tool_outcome{false, "data_base64: the bytes are " + std::string(found->mime) + ", but the path says " +
                                   std::string(req->type->mime)};
  }
  auto where = resolve_for(ctx, req->path, file_access::write, access::path_kind::file);
  if (!where) return tool_outcome{false, where.err().message};
  std::error_code ec;
  const auto existing = fs::symlink_status(where->absolute, ec).type();
  if (existing != fs::file_type::not_found && !req->overwrite)
    return tool_outcome{false, "File already exists: " + req->path + ". Pass overwrite=true to replace it."};
  if (existing != fs::file_type::not_found && existing != fs::file_type::regular)
    return tool_outcome{false, "'" + req->path + "' is not a regular file"};
  fs::create_directories(where->absolute.parent_path(), ec);
  if (ec) return tool_outcome{false, "cannot create the folder: " + ec.message()};
  if (auto written = write_file_atomically(where->absolute, *bytes); !written)
    return tool_outcome{false, written.err().message};
  // Parley's models are given PNG and JPEG images (image_read.hpp).
  const bool attached = ctx.takes_images && (found->format == "png" || found->format == "jpeg");
  tool_outcome out{true, "```yaml\nstatus: ok\naction: write_picture\npath: " + yaml_quote(req->path) +
                             "\nmime_type: " + yaml_quote(found->mime) +
                             "\nbyte_length: " + std::to_string(bytes->size()) +
                             "\nllm_context: " + (attached ? "image_attached" : "not_attached") + "\n```"};
  if (attached)
    out.media.push_back(
        media_part{media_kind::image, std::string(found->mime), std::string(found->format), req->payload});
  return out;
}

}  // namespace

void register_picture_write_tool(tool_registry& registry) {
  registry.add(std::make_unique<function_tool>(dominds_spec_or_note("write_picture"), write_picture));
}

}  // namespace parley::tools::dominds_detail
