// The run file's owner and comparison (run_store.hpp): written and read back, absent in the files of
// runs made before runs had owners, and refused, naming the field, when it is not a user id.
#include <gtest/gtest.h>

#include <filesystem>

#include "parley/core/json.hpp"
#include "parley/eval/run_store.hpp"

namespace parley::eval {
namespace {

eval_run owned_run(std::string owner) {
  eval_run run;
  run.id = "run-1";
  run.suite = "s.yaml";
  run.owner = std::move(owner);
  run.cases.push_back({"c", "s.yaml:2:5", {case_attempt{}}});
  return run;
}

TEST(RunStore, TheOwnerAndTheComparedRunAreWrittenAndReadBack) {
  auto run = owned_run("ann");
  run.compared_with = "run-0";
  const auto back = run_from_json(run_to_json(run));
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(back->owner, "ann");
  EXPECT_EQ(back->compared_with, "run-0");
  EXPECT_FALSE(run_to_json(owned_run("ann")).contains("comparedWith"));
}

TEST(RunStore, ARunFileWithoutAnOwnerIsNoOnesRun) {
  auto object = run_to_json(owned_run("ann"));
  object.erase("owner");
  const auto back = run_from_json(object);
  ASSERT_TRUE(back) << back.err().message;
  EXPECT_EQ(back->owner, "");
}

TEST(RunStore, AnOwnerThatIsNotAUserIdIsRefusedNamingTheField) {
  for (const char* bad : {"ann\x1b[31m", "1ann", "a b"}) {
    const auto back = run_from_json(run_to_json(owned_run(bad)));
    ASSERT_FALSE(back) << bad;
    EXPECT_NE(back.err().message.find("field 'owner'"), std::string::npos) << back.err().message;
  }
  auto object = run_to_json(owned_run("ann"));
  object["comparedWith"] = "../x";
  const auto back = run_from_json(object);
  ASSERT_FALSE(back);
  EXPECT_NE(back.err().message.find("field 'comparedWith'"), std::string::npos) << back.err().message;
  EXPECT_TRUE(valid_run_owner("ann_2-b"));
  EXPECT_FALSE(valid_run_owner(""));
  EXPECT_FALSE(valid_run_owner(std::string(65, 'a')));
}

}  // namespace
}  // namespace parley::eval
