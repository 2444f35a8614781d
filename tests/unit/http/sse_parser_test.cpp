#include <gtest/gtest.h>

#include "parley/http/sse_parser.hpp"

namespace parley::http {
namespace {

std::vector<sse_event> parse_all(std::string_view text, std::size_t piece_size = 0) {
  sse_parser parser;
  std::vector<sse_event> events;
  if (piece_size == 0) piece_size = text.size() == 0 ? 1 : text.size();
  for (std::size_t at = 0; at < text.size(); at += piece_size) {
    auto fed = parser.feed(text.substr(at, piece_size), events);
    EXPECT_TRUE(fed) << fed.err().message;
  }
  return events;
}

TEST(sse_parser, parses_events_with_lf) {
  const auto events = parse_all("data: one\n\ndata: two\n\n");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].event, "message");
  EXPECT_EQ(events[0].data, "one");
  EXPECT_EQ(events[1].data, "two");
}

TEST(sse_parser, accepts_crlf_and_lone_cr_line_ends) {
  const auto crlf = parse_all("event: ping\r\ndata: a\r\n\r\n");
  ASSERT_EQ(crlf.size(), 1u);
  EXPECT_EQ(crlf[0].event, "ping");
  EXPECT_EQ(crlf[0].data, "a");
  const auto cr = parse_all("data: b\r\rdata: c\r\r");
  ASSERT_EQ(cr.size(), 2u);
  EXPECT_EQ(cr[1].data, "c");
}

TEST(sse_parser, crlf_split_between_chunks_is_one_line_end) {
  sse_parser parser;
  std::vector<sse_event> events;
  ASSERT_TRUE(parser.feed("data: a\r", events));
  ASSERT_TRUE(parser.feed("\ndata: b\r", events));
  ASSERT_TRUE(parser.feed("\n", events));
  EXPECT_TRUE(events.empty());  // a spurious empty line would have ended the event early
  ASSERT_TRUE(parser.feed("\r\n", events));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "a\nb");
}

TEST(sse_parser, any_split_gives_the_same_events) {
  const std::string stream =
      ": keep-alive\r\nevent: content_block_delta\r\ndata: {\"x\":1}\r\n\r\nid: 7\ndata:first\ndata: second\n\n";
  const auto whole = parse_all(stream);
  for (std::size_t piece = 1; piece <= 7; ++piece) {
    const auto split = parse_all(stream, piece);
    ASSERT_EQ(split.size(), whole.size()) << "piece size " << piece;
    for (std::size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(split[i].event, whole[i].event);
      EXPECT_EQ(split[i].data, whole[i].data);
      EXPECT_EQ(split[i].id, whole[i].id);
    }
  }
  ASSERT_EQ(whole.size(), 2u);
  EXPECT_EQ(whole[0].event, "content_block_delta");
  EXPECT_EQ(whole[1].data, "first\nsecond");
  EXPECT_EQ(whole[1].id, "7");
}

TEST(sse_parser, comments_are_skipped_and_value_space_is_optional) {
  const auto events = parse_all(":comment\ndata:tight\n\n: another\ndata:  two spaces\n\n");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].data, "tight");
  EXPECT_EQ(events[1].data, " two spaces");  // only the first space after the colon goes
}

TEST(sse_parser, events_without_data_are_not_dispatched) {
  const auto events = parse_all("event: lonely\n\nid: 3\n\ndata: real\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].event, "message");  // the event name was reset with the empty event
  EXPECT_EQ(events[0].id, "3");           // but the id persists
}

TEST(sse_parser, field_without_colon_and_empty_data_lines) {
  const auto events = parse_all("data\ndata\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "\n");
}

TEST(sse_parser, unknown_fields_are_ignored_and_retry_is_read) {
  const auto events = parse_all("foo: bar\nretry: 1500\ndata: x\n\n");
  ASSERT_EQ(events.size(), 1u);
  ASSERT_TRUE(events[0].retry_ms.has_value());
  EXPECT_EQ(*events[0].retry_ms, 1500);
}

TEST(sse_parser, leading_bom_is_stripped) {
  const auto events = parse_all(
      "\xEF\xBB\xBF"
      "data: a\n\n");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "a");
}

TEST(sse_parser, finish_delivers_an_unterminated_last_event) {
  sse_parser parser;
  std::vector<sse_event> events;
  ASSERT_TRUE(parser.feed("data: [DONE]", events));
  EXPECT_TRUE(events.empty());
  ASSERT_TRUE(parser.finish(events));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].data, "[DONE]");
}

TEST(sse_parser, overlong_line_is_an_error_and_stops_the_parser) {
  sse_parser parser(sse_limits{16, 1024});
  std::vector<sse_event> events;
  ASSERT_TRUE(parser.feed("data: 0123456789", events));  // 16 bytes: at the limit
  auto fed = parser.feed("x", events);
  ASSERT_FALSE(fed);
  EXPECT_EQ(fed.err().code, errc::limit_exceeded);
  EXPECT_EQ(fed.err().message, "SSE line longer than 16 bytes");
  EXPECT_FALSE(parser.feed("\n\n", events));
  EXPECT_TRUE(events.empty());
}

TEST(sse_parser, overlong_line_within_one_chunk_is_an_error) {
  sse_parser parser(sse_limits{8, 1024});
  std::vector<sse_event> events;
  auto fed = parser.feed("data: 0123456789\n\n", events);
  ASSERT_FALSE(fed);
  EXPECT_EQ(fed.err().code, errc::limit_exceeded);
}

TEST(sse_parser, oversize_event_is_an_error) {
  sse_parser parser(sse_limits{64, 20});
  std::vector<sse_event> events;
  auto fed = parser.feed("data: 0123456789\ndata: 0123456789\n\n", events);
  ASSERT_FALSE(fed);
  EXPECT_NE(fed.err().message.find("SSE event larger than 20 bytes"), std::string::npos);
}

}  // namespace
}  // namespace parley::http
