#include "parley/server/flow_progress_relay.hpp"

#include <string>

#include "parley/core/utf8.hpp"

namespace parley::server {

void flow_progress_relay::on_thread_changed(std::string_view dialog_id, bool working) {
  channels_.publish_to_root(dialog_id, "flow_thread_evt", {{"working", working}});
}

void flow_progress_relay::on_saying_chunk(std::string_view dialog_id, std::string_view text) {
  if (text.empty()) return;
  // Model output: a packet carries valid UTF-8 only (a bad byte is shown replaced, as in the log).
  const std::string content = is_valid_utf8(text) ? std::string(text) : repair_utf8(text).text;
  channels_.publish_to_root(dialog_id, "flow_chunk_evt", {{"content", content}});
}

}  // namespace parley::server
