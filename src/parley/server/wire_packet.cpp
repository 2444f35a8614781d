#include "parley/server/wire_packet.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cassert>

#include "parley/server/wire_schema.hpp"

namespace parley::server {
namespace {

packet_ptr finish(boost::json::object object, std::string_view dialog_id, std::int64_t seq, std::int64_t genseq,
                  chunk_segment chunk) {
#ifndef NDEBUG
  const auto* spec = find_packet(packet_direction::server, object.at("type").as_string());
  assert(spec != nullptr && "packet type missing from the protocol table");
  assert(validate_packet(object, *spec) && "packet does not match the protocol table");
#endif
  auto packet = std::make_shared<wire_packet>();
  packet->json = boost::json::serialize(object);
  packet->dialog_id = dialog_id;
  packet->seq = seq;
  packet->genseq = genseq;
  packet->chunk = chunk;
  return packet;
}

}  // namespace

packet_ptr encode_dialog_event(std::string_view type, const event_head& head, boost::json::object extra,
                               chunk_segment chunk) {
  boost::json::object object(extra.size() + 7);
  object["type"] = type;
  object["dialog"] = boost::json::object{{"selfId", head.self_id}, {"rootId", head.root_id}};
  object["course"] = head.course;
  object["genseq"] = head.genseq;
  object["seq"] = head.seq;
  if (head.log_seq > 0) object["logSeq"] = head.log_seq;
  for (auto& field : extra) object[field.key()] = std::move(field.value());
  return finish(std::move(object), head.self_id, head.seq, head.genseq, chunk);
}

packet_ptr encode_packet(std::string_view type, boost::json::object fields) {
  boost::json::object object(fields.size() + 1);
  object["type"] = type;
  for (auto& field : fields) object[field.key()] = std::move(field.value());
  return finish(std::move(object), {}, 0, 0, chunk_segment::none);
}

packet_ptr merge_chunks(std::span<const packet_ptr> run) {
  assert(!run.empty());
  if (run.size() == 1) return run.front();
  // Merging happens only when a client falls behind, so parsing our own output again is cheap enough
  // and spares every packet a second copy of its text.
  auto first = boost::json::parse(run.front()->json).as_object();
  std::string content(first.at("content").as_string());
  for (std::size_t i = 1; i < run.size(); ++i) {
    const auto next = boost::json::parse(run[i]->json);
    content += next.at("content").as_string();
  }
  if (!first.contains("firstSeq")) first["firstSeq"] = run.front()->seq;
  first["seq"] = run.back()->seq;
  first["content"] = content;
  return finish(std::move(first), run.front()->dialog_id, run.back()->seq, run.front()->genseq, run.front()->chunk);
}

}  // namespace parley::server
