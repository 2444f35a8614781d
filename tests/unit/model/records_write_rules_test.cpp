// Seed 002's write rules (model/records_write_rules.hpp) on their own: what the records as they are
// allow a write to do, and how the seed's request words map to the records' values.
#include <gtest/gtest.h>

#include "parley/model/records_write_rules.hpp"

namespace parley::records_rules {
namespace {

using events::session_type;
using events::turn_status;

record_session session(std::int64_t end_at = 0, session_type type = session_type::dialogue) {
  record_session s;
  s.id = "s1";
  s.end_at = end_at;
  s.session_type = type;
  return s;
}

record_turn turn(turn_status status = turn_status::pending) {
  record_turn t;
  t.id = "t1";
  t.status = status;
  return t;
}

using RecordsWriteRules = ::testing::Test;

TEST_F(RecordsWriteRules, APendingTurnBlocksEverySessionChangeAndASecondTurn) {
  const std::optional<open_turn> pending = open_turn{"t1", 100};
  EXPECT_TRUE(may_open_session(std::nullopt));
  EXPECT_EQ(may_open_session(pending).err().code, errc::conflict);
  EXPECT_EQ(may_close_session(session(), pending).err().code, errc::conflict);
  EXPECT_EQ(may_open_turn(session(), pending).err().code, errc::conflict);
  EXPECT_TRUE(may_open_turn(session(), std::nullopt));
}

TEST_F(RecordsWriteRules, AClosedSessionTakesNoTurnAndClosesOnce) {
  EXPECT_EQ(may_open_turn(session(5), std::nullopt).err().message, "session s1 is closed; open a new one");
  EXPECT_EQ(may_close_session(session(5), std::nullopt).err().message, "session s1 is already closed");
  EXPECT_EQ(may_record_introspection(session(0, session_type::dialogue)).err().code, errc::conflict);
  EXPECT_EQ(may_record_introspection(session(5, session_type::self_reflection)).err().code, errc::conflict);
  EXPECT_TRUE(may_record_introspection(session(0, session_type::self_reflection)));
}

TEST_F(RecordsWriteRules, OnlyTheOpenTurnInItsWindowTakesWrites) {
  const std::optional<open_turn> pending = open_turn{"t1", 100};
  EXPECT_TRUE(may_write_to_turn(turn(), pending, 100));
  EXPECT_EQ(may_write_to_turn(turn(), pending, 101).err().message, "turn t1 passed its response window");
  EXPECT_EQ(may_write_to_turn(turn(turn_status::responded), pending, 50).err().message,
            "turn t1 is already closed (responded)");
  EXPECT_EQ(may_write_to_turn(turn(), std::nullopt, 50).err().message, "turn t1 is not the dialogue's open turn");
}

TEST_F(RecordsWriteRules, TheSeedsWordsMapToTheRecordsValues) {
  using events::requested_session_type;
  using events::triggered_by;
  using events::turn_close;
  EXPECT_EQ(session_type_of(requested_session_type::interaction), session_type::dialogue);
  EXPECT_EQ(session_type_of(requested_session_type::reflection), session_type::self_reflection);
  EXPECT_EQ(session_type_of(requested_session_type::self_reflection), session_type::self_reflection);
  EXPECT_EQ(turn_status_of(turn_close::expired), turn_status::unresponded);
  EXPECT_EQ(turn_status_of(turn_close::ignored), turn_status::unresponded);
  EXPECT_EQ(turn_status_of(turn_close::responded), turn_status::responded);
  EXPECT_EQ(trigger_source_of(triggered_by::schedule), events::trigger_source::schedule);
  EXPECT_EQ(trigger_source_of(triggered_by::human), events::trigger_source::human_guidance);
  EXPECT_EQ(created_by_of(triggered_by::schedule), events::record_role::system);
  EXPECT_EQ(events::turn_type_opened_by(events::record_role::system), events::turn_type::system_prompt);
  auto closed = turn(turn_status::unresponded);
  closed.metadata = R"({"openedAs":"human_query","closedBy":"system","outcome":"ignored"})";
  EXPECT_EQ(seed_turn_status(closed), "ignored");
  EXPECT_EQ(seed_turn_status(turn()), "open");
}

}  // namespace
}  // namespace parley::records_rules
