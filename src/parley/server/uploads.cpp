#include "parley/server/uploads.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/time.hpp"
#include "parley/server/auth.hpp"

namespace parley::server {
namespace {

bool is_upload_id(std::string_view id) {
  return id.size() == 32 &&
         std::all_of(id.begin(), id.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

error unknown_upload(std::string_view id) {
  return make_error(errc::not_found, "no upload with id '" + std::string(id) + "'");
}

}  // namespace

std::string upload_url(std::string_view id) { return "/api/uploads/" + std::string(id); }

result<upload_info> upload_store::save(std::string_view bytes, const checked_media& media, const std::string& owner) {
  std::error_code ec;
  std::filesystem::create_directories(folder_, ec);
  if (ec) return make_error(errc::io_error, folder_.string() + ": cannot create the uploads folder: " + ec.message());
  upload_info info{generate_token(), media, static_cast<std::int64_t>(bytes.size()), owner, now_ms(), {}};
  // The bytes first: an info file never names content that is not on disk.
  if (auto written = write_file_atomically(folder_ / info.id, bytes); !written) return std::move(written).err();
  PARLEY_TRY(write_info(info));
  return info;
}

result<void> upload_store::write_info(const upload_info& info) const {
  boost::json::object doc{{"id", info.id},
                          {"kind", to_name(info.media.kind)},
                          {"format", info.media.format},
                          {"mime", info.media.mime},
                          {"size", info.size_bytes},
                          {"owner", info.owner},
                          {"createdAtMs", info.created_at_ms},
                          {"roots", boost::json::array(info.roots.begin(), info.roots.end())}};
  return write_file_atomically(folder_ / (info.id + ".json"), boost::json::serialize(doc));
}

result<upload_info> upload_store::find(std::string_view id) const {
  if (!is_upload_id(id)) return unknown_upload(id);
  auto text = read_file_prefix(folder_ / (std::string(id) + ".json"), 1 << 20);
  if (!text) return unknown_upload(id);
  auto parsed = parse_json(text->bytes);
  if (!parsed || !parsed->is_object()) {
    return make_error(errc::corrupt, "upload " + std::string(id) + ": its info file is not a JSON object");
  }
  // Every field is written by save() since uploads exist, so each is required.
  json_fields in(parsed->get_object(), "upload " + std::string(id));
  upload_info info;
  info.id = std::string(id);
  const std::string kind = in.string("kind");
  const auto medium = from_name<media_kind>(kind);
  if (!medium) in.fail("kind", "expected image or audio, got '" + kind + "'");
  info.media = checked_media{medium.value_or(media_kind::image), in.string("format"), in.string("mime")};
  info.size_bytes = in.integer("size");
  info.owner = in.string("owner");
  info.created_at_ms = in.integer("createdAtMs");
  info.roots = in.strings("roots");
  if (!in.ok()) return make_error(errc::corrupt, in.message());
  return info;
}

result<std::string> upload_store::read_bytes(std::string_view id) const {
  auto info = find(id);
  if (!info) return std::move(info).err();
  auto text = read_file_prefix(folder_ / info->id, static_cast<std::uintmax_t>(info->size_bytes));
  if (!text) return make_error(errc::io_error, "upload " + info->id + ": " + text.err().message);
  return std::move(text->bytes);
}

result<void> upload_store::share_with_root(std::string_view id, const std::string& root_id) {
  auto info = find(id);
  if (!info) return std::move(info).err();
  if (std::find(info->roots.begin(), info->roots.end(), root_id) != info->roots.end()) return ok();
  info->roots.push_back(root_id);
  return write_info(*info);
}

}  // namespace parley::server
