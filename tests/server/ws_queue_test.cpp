// The outbound queue of a WebSocket connection: bounds, chunk coalescing, overflow.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "parley/server/wire_packet.hpp"
#include "parley/server/ws_outbound_queue.hpp"

namespace parley::server {
namespace {

packet_ptr chunk(std::string_view dialog, std::int64_t seq, std::string_view text,
                 chunk_segment segment = chunk_segment::saying, std::int64_t genseq = 1) {
  const event_head head{dialog, "root", 1, genseq, seq, 0};
  return encode_dialog_event(segment == chunk_segment::saying ? "saying_chunk_evt" : "thinking_chunk_evt", head,
                             boost::json::object{{"content", text}}, segment);
}

packet_ptr edge(std::string_view dialog, std::int64_t seq, std::string_view type = "saying_finish_evt") {
  const event_head head{dialog, "root", 1, 1, seq, 0};
  return encode_dialog_event(type, head, {});
}

boost::json::object parsed(const packet_ptr& packet) { return boost::json::parse(packet->json).as_object(); }

TEST(WsOutboundQueue, QueuesInOrderUnderTheBounds) {
  outbound_queue queue(8, 1 << 20);
  for (int i = 1; i <= 8; ++i) EXPECT_EQ(queue.push(chunk("d", i, "x")), outbound_queue::push_result::queued);
  EXPECT_EQ(queue.size(), 8u);
  for (int i = 1; i <= 8; ++i) EXPECT_EQ(queue.pop()->seq, i);
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.bytes(), 0u);
  EXPECT_EQ(queue.pop(), nullptr);
}

TEST(WsOutboundQueue, FullQueueMergesAdjacentChunksOfOneSegmentKeepingAllText) {
  outbound_queue queue(4, 1 << 20);
  queue.push(edge("d", 1, "saying_start_evt"));
  queue.push(chunk("d", 2, "ab"));
  queue.push(chunk("d", 3, "cd"));
  queue.push(chunk("d", 4, "ef"));
  EXPECT_EQ(queue.push(chunk("d", 5, "gh")), outbound_queue::push_result::coalesced);
  ASSERT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue.pop()->seq, 1);
  const auto merged = queue.pop();
  const auto object = parsed(merged);
  EXPECT_EQ(object.at("content").as_string(), "abcdefgh");
  EXPECT_EQ(object.at("seq").as_int64(), 5);
  EXPECT_EQ(object.at("firstSeq").as_int64(), 2);
  EXPECT_EQ(object.at("type").as_string(), "saying_chunk_evt");
  EXPECT_EQ(merged->seq, 5);
}

TEST(WsOutboundQueue, OtherEventsOfTheSameDialogBreakARunButOtherDialogsDoNot) {
  outbound_queue queue(6, 1 << 20);
  queue.push(chunk("a", 1, "1"));
  queue.push(chunk("b", 1, "x"));  // another dialog between: a's run continues
  queue.push(chunk("a", 2, "2"));
  queue.push(edge("a", 3));  // a's segment ends: the run ends
  queue.push(chunk("a", 4, "3", chunk_segment::thinking, 2));
  queue.push(chunk("a", 5, "4", chunk_segment::thinking, 2));
  EXPECT_EQ(queue.push(chunk("b", 2, "y")), outbound_queue::push_result::coalesced);
  std::vector<std::string> seen;
  while (auto packet = queue.pop()) {
    const auto object = parsed(packet);
    seen.push_back(std::string(object.at("dialog").at("selfId").as_string()) + ":" + std::to_string(packet->seq) + ":" +
                   (object.contains("content") ? std::string(object.at("content").as_string()) : "-"));
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"a:2:12", "b:2:xy", "a:3:-", "a:5:34"}));
}

TEST(WsOutboundQueue, DifferentSegmentsAreNeverMerged) {
  outbound_queue queue(2, 1 << 20);
  queue.push(chunk("d", 1, "t", chunk_segment::thinking));
  queue.push(chunk("d", 2, "s", chunk_segment::saying));
  EXPECT_EQ(queue.push(chunk("d", 3, "s", chunk_segment::saying)), outbound_queue::push_result::coalesced);
  EXPECT_EQ(queue.size(), 2u);
}

TEST(WsOutboundQueue, OverflowsWhenNothingCanBeMerged) {
  outbound_queue queue(3, 1 << 20);
  for (int i = 1; i <= 3; ++i) EXPECT_EQ(queue.push(edge("d", i)), outbound_queue::push_result::queued);
  EXPECT_EQ(queue.push(edge("d", 4)), outbound_queue::push_result::overflow);
}

TEST(WsOutboundQueue, TheByteBoundCountsToo) {
  const auto size = edge("d", 1)->json.size();
  outbound_queue queue(1000, 2 * size + 1);
  EXPECT_EQ(queue.push(edge("d", 1)), outbound_queue::push_result::queued);
  EXPECT_EQ(queue.push(edge("d", 2)), outbound_queue::push_result::queued);
  EXPECT_EQ(queue.push(edge("d", 3)), outbound_queue::push_result::overflow);
}

}  // namespace
}  // namespace parley::server
