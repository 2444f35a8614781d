// json_merge_patch (core/json_merge_patch.hpp) gives the text SQLite's json_patch gives for the
// same target and patch, as Boost.JSON writes them: the PostgreSQL store patches records metadata with it where the
// SQLite store patches in SQL, and both must read back the same.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "parley/core/json_merge_patch.hpp"

namespace parley {
namespace {

// SQLite's json_patch of the two texts, on an in-memory database.
std::string sqlite_json_patch(const std::string& target, const std::string& patch) {
  sqlite3* raw = nullptr;
  EXPECT_EQ(sqlite3_open(":memory:", &raw), SQLITE_OK);
  const std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(raw, "SELECT json_patch(?1, ?2)", -1, &stmt, nullptr), SQLITE_OK);
  const std::unique_ptr<sqlite3_stmt, decltype(&sqlite3_finalize)> owned(stmt, &sqlite3_finalize);
  sqlite3_bind_text(stmt, 1, target.c_str(), -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(stmt, 2, patch.c_str(), -1, SQLITE_TRANSIENT);
  EXPECT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  return reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
}

TEST(JsonMergePatch, GivesTheTextSqlitesJsonPatchGives) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"a":1,"b":2})", R"({"b":3,"c":4})"},
      {R"({"a":1,"b":2,"c":3})", R"({"a":null})"},  // a removed member: the others keep their order
      {R"({"a":{"x":1,"y":2},"b":[1,2]})", R"({"a":{"x":null,"z":3},"b":[3]})"},
      {R"({"a":1})", R"({"n":{"deep":{"gone":null,"kept":true}}})"},  // nulls of a new object dropped
      {R"({"a":1})", R"([1,2])"},                                     // not an object: the patch itself
      {R"([1,2])", R"({"a":1})"},
      {R"({"course":1,"analysis":{"status":"failed","attempts":1}})",
       R"({"intent_tags":["ask"],"analysis":{"status":"ok","attempts":2,"error":null}})"},
      // As Boost.JSON writes text, numbers and escapes (the records' metadata always is): SQLite keeps
      // a number's or an escape's own spelling, this writes Boost's.
      {R"({"text":"é \"q\"\n","n":-5E-1})", R"({"more":"中文","n":2.5E10,"k":true})"},
      {R"({})", R"({})"},
  };
  for (const auto& [target, patch] : cases) {
    auto patched = json_merge_patch_text(target, patch);
    ASSERT_TRUE(patched) << patched.err().message;
    EXPECT_EQ(*patched, sqlite_json_patch(target, patch)) << target << " + " << patch;
  }
}

TEST(JsonMergePatch, TextThatDoesNotParseIsRefusedNamingWhich) {
  auto bad_target = json_merge_patch_text("{", "{}");
  ASSERT_FALSE(bad_target);
  EXPECT_NE(bad_target.err().message.find("the JSON to patch"), std::string::npos) << bad_target.err().message;
  auto bad_patch = json_merge_patch_text("{}", "{");
  ASSERT_FALSE(bad_patch);
  EXPECT_NE(bad_patch.err().message.find("merge patch"), std::string::npos) << bad_patch.err().message;
}

}  // namespace
}  // namespace parley
