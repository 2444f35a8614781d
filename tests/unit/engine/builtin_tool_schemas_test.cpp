// Every built-in tool's JSON Schema is one the argument checks enforce whole (tools/schema_check.hpp):
// the check a tool from outside must pass to be registered holds for Parley's own.
#include <gtest/gtest.h>

#include "parley/engine/assembly.hpp"
#include "parley/tools/schema_check.hpp"

namespace parley::engine {
namespace {

TEST(BuiltinToolSchemas, EveryBuiltInToolsSchemaPassesTheRegistrationCheck) {
  const auto tools = build_builtin_tools();
  ASSERT_FALSE(tools.names().empty());
  for (const auto& name : tools.names()) {
    auto checked = tools::check_tool_schema(tools.find(name)->spec().parameters, name);
    EXPECT_TRUE(checked) << checked.err().message;
  }
}

}  // namespace
}  // namespace parley::engine
