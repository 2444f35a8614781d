// Uploaded media (seed 002's image and audio messages), kept as files in the data directory:
// `uploads/<id>` holds the bytes and `uploads/<id>.json` what is known of them. An upload is
// durable (written, flushed, renamed into place, folder flushed) before its id is handed out.
//
// Who may read one: its owner, and whoever may see a dialog a message of which carries it (the
// roots it was shared with). Ids are 128 random bits, never derived from the content.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/server/media_types.hpp"

namespace parley::server {

struct upload_info {
  std::string id;
  checked_media media;
  std::int64_t size_bytes = 0;
  std::string owner;  // the user who uploaded it
  std::int64_t created_at_ms = 0;
  std::vector<std::string> roots;  // root dialogs a message carrying it was posted to
};

class upload_store {
 public:
  explicit upload_store(std::filesystem::path folder) : folder_(std::move(folder)) {}

  result<upload_info> save(std::string_view bytes, const checked_media& media, const std::string& owner);
  // not_found for an id that is not one (also for anything that is not 32 hex digits).
  result<upload_info> find(std::string_view id) const;
  result<std::string> read_bytes(std::string_view id) const;
  // Records that a message carrying the upload went to `root_id` (once per root).
  result<void> share_with_root(std::string_view id, const std::string& root_id);

 private:
  result<void> write_info(const upload_info& info) const;

  std::filesystem::path folder_;
};

// The URL an upload is read from (GET, with the reader's token).
std::string upload_url(std::string_view id);

}  // namespace parley::server
