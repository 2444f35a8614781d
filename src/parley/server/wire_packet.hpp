// One server → client packet, serialized once and shared by every subscriber and the replay ring
// (shared_ptr<const wire_packet>): 1,000 subscribers cost 1,000 pointers, not 1,000 strings.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace parley::server {

// Chunk packets remember their segment so a full outbound queue can merge adjacent ones.
enum class chunk_segment : std::uint8_t { none, thinking, saying };

struct wire_packet {
  std::string json;         // the frame's text
  std::string dialog_id;    // empty for global and control packets
  std::int64_t seq = 0;     // dialog events: the per-dialog wire seq
  std::int64_t genseq = 0;  // chunk packets: the generation they belong to
  chunk_segment chunk = chunk_segment::none;
};

using packet_ptr = std::shared_ptr<const wire_packet>;

// Where a dialog event belongs and its place in the dialog's stream.
struct event_head {
  std::string_view self_id;
  std::string_view root_id;
  std::int64_t course = 0;
  std::int64_t genseq = 0;
  std::int64_t seq = 0;
  std::int64_t log_seq = 0;  // 0: not from the log (stream events, drive end)
};

// `{type, dialog: {selfId, rootId}, course, genseq, seq, logSeq?, ...extra}`; checked against the
// protocol table in debug builds.
packet_ptr encode_dialog_event(std::string_view type, const event_head& head, boost::json::object extra,
                               chunk_segment chunk = chunk_segment::none);
// Global and control packets: `{type, ...fields}`.
packet_ptr encode_packet(std::string_view type, boost::json::object fields);
// One chunk packet holding the content of `run` (adjacent chunks of one segment, in order): the
// seq of the last, `firstSeq` of the first, so a client sees which seqs it covers.
packet_ptr merge_chunks(std::span<const packet_ptr> run);

}  // namespace parley::server
