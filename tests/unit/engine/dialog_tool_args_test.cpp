// The dialog tools' arguments decoded into typed structs: what each tool's schema requires is
// required, and a field of the wrong type is an error naming it (it used to read as "" or 0).
#include <gtest/gtest.h>

#include "parley/core/json.hpp"
#include "parley/engine/dialog_tool_args.hpp"
#include "parley/engine/dialog_tools.hpp"

namespace parley::engine {
namespace {

json::object object_of(std::string_view text) { return parse_json(text).value().as_object(); }

TEST(DialogToolArgs, ATellaskReadsItsTargetSlugAndContent) {
  auto args = read_teammate_call_args(dialog_tool::tellask,
                                      object_of(R"({"targetAgentId":"dev","sessionSlug":"s1","tellaskContent":"hi"})"));
  ASSERT_TRUE(args) << args.err().message;
  EXPECT_EQ(args->target_agent_id, "dev");
  EXPECT_EQ(args->session_slug, "s1");
  EXPECT_EQ(args->tellask_content, "hi");
  // tellaskBack has no target: its schema names only the content.
  auto back = read_teammate_call_args(dialog_tool::tellask_back, object_of(R"({"tellaskContent":"why?"})"));
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(back->target_agent_id, "");
}

TEST(DialogToolArgs, AWrongTypedFieldIsANamedErrorNotAnEmptyString) {
  auto slug = read_teammate_call_args(dialog_tool::tellask,
                                      object_of(R"({"targetAgentId":"dev","sessionSlug":5,"tellaskContent":"hi"})"));
  ASSERT_FALSE(slug);
  EXPECT_EQ(slug.err().message, "field 'sessionSlug': expected a string, got an integer");
  auto missing = read_teammate_call_args(dialog_tool::tellask_sessionless, object_of(R"({"tellaskContent":"hi"})"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().message, "field 'targetAgentId': missing (expected a string)");
  auto number = read_reminder_args(dialog_tool::delete_reminder, object_of(R"({"reminder_no":"2"})"));
  ASSERT_FALSE(number);
  EXPECT_EQ(number.err().message, "field 'reminder_no': expected an integer, got a string");
  auto mood = read_self_reflect_args(object_of(R"({"goal":"review","moodState":false})"));
  ASSERT_FALSE(mood);
  EXPECT_EQ(mood.err().message, "field 'moodState': expected a string, got a boolean");
}

TEST(DialogToolArgs, OptionalFieldsTakeTheSchemasAbsence) {
  auto change = read_change_mind_args(object_of(R"({"selector":"goals","content":"ship"})"));
  ASSERT_TRUE(change) << change.err().message;
  EXPECT_EQ(change->expected_hash, "");
  auto clear = read_clear_mind_args(object_of("{}"));
  ASSERT_TRUE(clear);
  EXPECT_EQ(clear->reminder_content, "");
  auto hash = read_change_mind_args(object_of(R"({"selector":"goals","content":"ship","expectedHash":1})"));
  ASSERT_FALSE(hash);
  EXPECT_EQ(hash.err().message, "field 'expectedHash': expected a string, got an integer");
  auto add = read_reminder_args(dialog_tool::add_reminder, object_of(R"({"content":"remember"})"));
  ASSERT_TRUE(add);
  EXPECT_EQ(add->content, "remember");
}

}  // namespace
}  // namespace parley::engine
