// Seed 004 §3: every rule of sub-thread paths — the string form (preferred), the object form
// {messageIndex, metaPath}, nesting to any depth, and errors that name the bad segment.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "parley/flow/sub_thread_path.hpp"

namespace parley::flow {
namespace {

thread_message msg(std::string id, std::string sender, std::unique_ptr<flow_thread> sub = nullptr) {
  thread_message m;
  m.id = std::move(id);
  m.sender = std::move(sender);
  m.sub_thread = std::move(sub);
  return m;
}

// main: [u0, b1{_thread: sub: [u0, b1{_thread: nested: [u0]}]}]
flow_thread two_levels() {
  auto nested = std::make_unique<flow_thread>();
  nested->id = "nested";
  nested->messages.push_back(msg("n0", "user"));
  auto sub = std::make_unique<flow_thread>();
  sub->id = "sub";
  sub->messages.push_back(msg("s0", "user"));
  sub->messages.push_back(msg("s1", "bot", std::move(nested)));
  flow_thread main;
  main.id = "main";
  main.messages.push_back(msg("m0", "user"));
  main.messages.push_back(msg("m1", "bot", std::move(sub)));
  return main;
}

struct sub_thread_path_fixture : ::testing::Test {};
using SubThreadPath = sub_thread_path_fixture;

TEST_F(SubThreadPath, TheStringFormAddressesTheThreadInAMessagesMeta) {
  auto main = two_levels();
  auto sub = get_sub_thread_by_path(main, "messages.1.meta._thread");
  ASSERT_TRUE(sub) << sub.err().message;
  EXPECT_EQ((*sub)->id, "sub");
}

TEST_F(SubThreadPath, PathsChainToAnyDepth) {
  auto main = two_levels();
  auto nested = get_sub_thread_by_path(main, "messages.1.meta._thread.messages.1.meta._thread");
  ASSERT_TRUE(nested) << nested.err().message;
  EXPECT_EQ((*nested)->id, "nested");
  auto parsed = parse_sub_thread_path("messages.1.meta._thread.messages.1.meta._thread");
  EXPECT_EQ(parsed->message_indices(), (std::vector<std::size_t>{1, 1}));
}

TEST_F(SubThreadPath, TheEmptyPathIsTheMainThreadItself) {
  auto main = two_levels();
  auto self = get_sub_thread_by_path(main, "");
  ASSERT_TRUE(self);
  EXPECT_EQ(*self, &main);
}

TEST_F(SubThreadPath, TheObjectFormWithADefaultMetaPathIsTheSameAddress) {
  auto object = parse_sub_thread_path_value(boost::json::parse(R"({"messageIndex": 1})"));
  ASSERT_TRUE(object) << object.err().message;
  EXPECT_EQ(object->text(), "messages.1.meta._thread");
  auto explicit_meta =
      parse_sub_thread_path_value(boost::json::parse(R"({"messageIndex": 1, "metaPath": "meta._thread"})"));
  EXPECT_EQ(*explicit_meta, *object);
}

TEST_F(SubThreadPath, TheObjectFormsMetaPathMayContinueIntoNestedThreads) {
  auto object = parse_sub_thread_path_value(
      boost::json::parse(R"({"messageIndex": 1, "metaPath": "meta._thread.messages.1.meta._thread"})"));
  ASSERT_TRUE(object) << object.err().message;
  EXPECT_EQ(object->text(), "messages.1.meta._thread.messages.1.meta._thread");
}

TEST_F(SubThreadPath, TheStringFormRoundTripsThroughText) {
  const auto path = sub_thread_path().child(3).child(0).child(7);
  EXPECT_EQ(path.text(), "messages.3.meta._thread.messages.0.meta._thread.messages.7.meta._thread");
  EXPECT_EQ(*parse_sub_thread_path(path.text()), path);
  EXPECT_EQ(path.parent().text(), "messages.3.meta._thread.messages.0.meta._thread");
}

TEST_F(SubThreadPath, ANonNumericIndexNamesItsSegment) {
  auto bad = parse_sub_thread_path("messages.x.meta._thread");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().code, errc::invalid_argument);
  EXPECT_NE(bad.err().message.find("segment 2 \"x\" is not a message index"), std::string::npos) << bad.err().message;
  EXPECT_FALSE(parse_sub_thread_path("messages.-1.meta._thread"));
  EXPECT_FALSE(parse_sub_thread_path("messages.1e2.meta._thread"));
}

TEST_F(SubThreadPath, AWrongKeywordNamesItsSegmentAndWhatWasExpected) {
  auto bad = parse_sub_thread_path("messages.1.meta._thread.msgs.0.meta._thread");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.err().message.find("segment 5 \"msgs\" should be \"messages\""), std::string::npos)
      << bad.err().message;
  auto other_meta = parse_sub_thread_path("messages.1.meta.notes");
  ASSERT_FALSE(other_meta);
  EXPECT_NE(other_meta.err().message.find("segment 4 \"notes\" should be \"_thread\""), std::string::npos);
}

TEST_F(SubThreadPath, APathCutShortIsRefused) {
  auto bad = parse_sub_thread_path("messages.1");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.err().message.find("ends with \"meta._thread\""), std::string::npos) << bad.err().message;
}

TEST_F(SubThreadPath, AnIndexOutOfRangeNamesTheSegmentAndTheThreadsSize) {
  auto main = two_levels();
  auto bad = get_sub_thread_by_path(main, "messages.1.meta._thread.messages.5.meta._thread");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.err().message.find("\"messages.1.meta._thread.messages.5.meta._thread\": message index 5 is out of "
                                   "range (the thread has 2 messages)"),
            std::string::npos)
      << bad.err().message;
}

TEST_F(SubThreadPath, AMessageWithoutAThreadIsNamed) {
  auto main = two_levels();
  auto bad = get_sub_thread_by_path(main, "messages.0.meta._thread");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.err().message.find("message 0 (m0) has no sub-thread in meta._thread"), std::string::npos)
      << bad.err().message;
}

TEST_F(SubThreadPath, TheObjectFormRefusesBadFieldsByName) {
  auto missing = parse_sub_thread_path_value(boost::json::parse(R"({"metaPath": "meta._thread"})"));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.err().message.find("subThreadPath.messageIndex: missing"), std::string::npos);
  auto negative = parse_sub_thread_path_value(boost::json::parse(R"({"messageIndex": -2})"));
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.err().message.find("messageIndex"), std::string::npos);
  auto wrong_meta = parse_sub_thread_path_value(boost::json::parse(R"({"messageIndex": 1, "metaPath": "meta.other"})"));
  ASSERT_FALSE(wrong_meta);
  EXPECT_NE(wrong_meta.err().message.find("must start with \"meta._thread\""), std::string::npos);
  auto not_a_path = parse_sub_thread_path_value(boost::json::parse("42"));
  ASSERT_FALSE(not_a_path);
  EXPECT_NE(not_a_path.err().message.find("got integer"), std::string::npos);
}

}  // namespace
}  // namespace parley::flow
