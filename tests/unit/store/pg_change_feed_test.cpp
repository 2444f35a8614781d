// The hints the nodes of one PostgreSQL send each other (pg_change_feed.hpp): what a payload
// carries, that it stays under PostgreSQL's limit, and that whatever another process sends is
// read strictly — a line that does not parse is dropped, never half-taken.
#include <gtest/gtest.h>

#include "parley/store/postgres/pg_change_feed.hpp"

namespace parley::pg {
namespace {

TEST(ChangeHints, RoundTripBetweenTwoNodes) {
  change_hints sent;
  sent.appended.push_back(appended_hint{"d1", "r1", 7, false, false});
  sent.appended.push_back(appended_hint{"r2", "r2", 1, true, true});
  sent.inputs_for = {"r3"};
  const auto payloads = encode_hints("node-a", sent);
  ASSERT_EQ(payloads.size(), 1U);
  const auto got = decode_hints(payloads[0], "node-b");
  ASSERT_EQ(got.appended.size(), 2U);
  EXPECT_EQ(got.appended[0].dialog_id, "d1");
  EXPECT_EQ(got.appended[0].root_id, "r1");
  EXPECT_EQ(got.appended[0].seq, 7);
  EXPECT_FALSE(got.appended[0].created);
  EXPECT_TRUE(got.appended[1].created);
  EXPECT_TRUE(got.appended[1].list_changed);
  EXPECT_EQ(got.inputs_for, std::vector<std::string>{"r3"});
  EXPECT_FALSE(got.missed);
}

TEST(ChangeHints, ANodeIgnoresWhatItSentItself) {
  change_hints sent;
  sent.appended.push_back(appended_hint{"d1", "r1", 2});
  const auto payloads = encode_hints("node-a", sent);
  ASSERT_EQ(payloads.size(), 1U);
  EXPECT_TRUE(decode_hints(payloads[0], "node-a").appended.empty());
}

TEST(ChangeHints, ManyHintsAreSplitUnderPostgresPayloadLimit) {
  change_hints sent;
  for (int i = 0; i < 2000; ++i) sent.appended.push_back(appended_hint{"dialog-" + std::to_string(i), "root", i + 1});
  const auto payloads = encode_hints("node-a", sent);
  ASSERT_GT(payloads.size(), 1U);
  std::size_t received = 0;
  for (const auto& payload : payloads) {
    EXPECT_LT(payload.size(), 8000U);
    received += decode_hints(payload, "node-b").appended.size();
  }
  EXPECT_EQ(received, sent.appended.size());
}

TEST(ChangeHints, MalformedLinesFromAnotherProcessAreDroppedAndTheRestKept) {
  const std::string payload =
      "parley 1 node-a\n"
      "a\td1\tr1\t5\t-\n"    // good
      "a\td2\tr1\t-3\t-\n"   // a negative seq
      "a\td3\tr1\t12x\t-\n"  // not a number
      "a\td4\tr1\t4\tz\n"    // an unknown flag
      "a\t\tr1\t4\t-\n"      // no dialog id
      "a\td5\tr1\t4\n"       // a field missing
      "x\tr1\n"              // an unknown kind
      "i\tr9\textra\n"       // a field too many
      "i\tr8\n"              // good
      "\n";
  const auto got = decode_hints(payload, "node-b");
  ASSERT_EQ(got.appended.size(), 1U);
  EXPECT_EQ(got.appended[0].dialog_id, "d1");
  EXPECT_EQ(got.inputs_for, std::vector<std::string>{"r8"});
  EXPECT_TRUE(decode_hints("not parley at all\na\td1\tr1\t5\t-\n", "node-b").appended.empty());
  EXPECT_TRUE(decode_hints("", "node-b").appended.empty());
}

TEST(ChangeHints, IdsThatCouldNotBeReadBackAreNotSent) {
  change_hints sent;
  sent.appended.push_back(appended_hint{"bad\tid", "r1", 3});
  sent.appended.push_back(appended_hint{"ok", "r1", 3});
  sent.inputs_for = {"bad\nroot"};
  const auto payloads = encode_hints("node\nwith newline", sent);
  ASSERT_EQ(payloads.size(), 1U);
  const auto got = decode_hints(payloads[0], "other");
  ASSERT_EQ(got.appended.size(), 1U);
  EXPECT_EQ(got.appended[0].dialog_id, "ok");
  EXPECT_TRUE(got.inputs_for.empty());
}

}  // namespace
}  // namespace parley::pg
