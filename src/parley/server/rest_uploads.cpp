// Media uploads for seed 002's image and audio messages: POST /api/uploads takes the raw bytes with
// their Content-Type (checked against the bytes), GET /api/uploads/{id} gives them back to whoever
// may see them (uploads.hpp).
#include <boost/json/object.hpp>

#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/server/uploads.hpp"

namespace parley::server::rest {
namespace {

rest_response no_uploads() { return error_response(500, "internal", "this server keeps no uploads"); }

bool may_read(server_context& context, const rest_request& request, const upload_info& info) {
  if (!context.users.multi_user() || info.owner == request.who->id) return true;
  for (const auto& root : info.roots) {
    if (may_see_dialog_id(context, request, root)) return true;
  }
  return false;
}

}  // namespace

boost::json::object upload_json(const upload_info& info) {
  return boost::json::object{
      {"id", info.id},           {"url", upload_url(info.id)},  {"content_type", to_name(info.media.kind)},
      {"mime", info.media.mime}, {"format", info.media.format}, {"size_kb", (info.size_bytes + 1023) / 1024}};
}

handler_result post_upload(server_context& context, const rest_request& request, std::string /*id*/) {
  if (context.uploads == nullptr) co_return no_uploads();
  auto media = check_media(request.content_type, request.body);
  if (!media) co_return error_response(415, "unsupported_media_type", media.err().message);
  auto saved = context.uploads->save(request.body, *media, request.who->id);
  if (!saved) co_return error_response(saved.err());
  co_return json_response(201, boost::json::object{{"upload", upload_json(*saved)}});
}

handler_result get_upload(server_context& context, const rest_request& request, std::string id) {
  if (context.uploads == nullptr) co_return no_uploads();
  auto info = context.uploads->find(id);
  if (!info) co_return error_response(info.err());
  // Another user's upload is theirs to read if they see one of its roots: a read of the store.
  auto check = [&context, &request, &info = *info] { return may_read(context, request, info); };
  if (!co_await read_store(context, std::move(check))) {
    co_return error_response(404, "not_found", "no upload with id '" + id + "'");
  }
  auto bytes = context.uploads->read_bytes(id);
  if (!bytes) co_return error_response(bytes.err());
  rest_response out;
  out.raw_content_type = info->media.mime;
  out.raw_body = std::move(*bytes);
  co_return out;
}

}  // namespace parley::server::rest
