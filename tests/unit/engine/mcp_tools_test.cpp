// Members with tools from MCP servers, through the whole engine: a scripted model calls a tool of
// the real server-everything (tests/mcp) over stdio, the result is in the log and the model answers
// it; what the model is told lists the server's tools with normalised schemas; a server that dies
// mid-call, a refused or disabled server, and the resources toolset.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <string>

#include "engine_test_support.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/model/event.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using testing::temp_team;

const std::string kModules = std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/node_modules/@modelcontextprotocol/";
const std::string kEverything = kModules + "server-everything/dist/index.js";
const std::string kCrashing = std::string(PARLEY_SOURCE_DIR) + "/tests/mcp/crashing_server.mjs";

std::string team_yaml(const std::string& toolsets, const std::string& servers) {
  return "version: 1\nworkspace: .\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
         "mcp:\n  servers:\n" +
         servers + "members:\n  lead: {persona: p, provider: offline, model: m, toolsets: " + toolsets + "}\n";
}

std::string stdio_server(const std::string& id, const std::string& script, const std::string& extra = "") {
  return "    " + id + ":\n      transport: stdio\n      command: node\n      args: ['" + script + "'" +
         (script == kEverything ? ", stdio" : "") + "]\n" + extra;
}

struct driven {
  std::string dialog_id;
  std::vector<event> events;
  llm::model_request told;  // what the model would be sent next
};

// Runs lead on `message` to the end, then stops the servers (so that the loop runs out).
driven drive(const temp_team& files, const std::string& message = "Go.") {
  auto team = files.load();
  asio::io_context io;
  auto log = make_memory_store();
  auto providers = build_providers(team);
  EXPECT_TRUE(providers) << providers.err().message;
  auto eng = engine::create(io.get_executor(), *log, team, std::move(*providers), build_builtin_tools());
  EXPECT_TRUE(eng) << (eng ? "" : eng.err().message);
  if (!eng) return {};
  driven out;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        spec.first_message = message;
        out.dialog_id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        co_await (*eng)->runs().wait_until_idle(out.dialog_id);
        (*eng)->stop_mcp();
      },
      asio::detached);
  io.run();
  out.events = log->read_events(out.dialog_id, 0).value();
  const auto* dialog = (*eng)->find(out.dialog_id);
  EXPECT_NE(dialog, nullptr);
  if (dialog != nullptr) {
    auto request = (*eng)->members().model_request_for(*dialog);
    EXPECT_TRUE(request) << request.err().message;
    if (request) out.told = std::move(*request);
  }
  return out;
}

std::vector<events::tool_result> tool_results(const std::vector<event>& logged) {
  std::vector<events::tool_result> out;
  for (const auto& ev : logged) {
    if (const auto* result = std::get_if<events::tool_result>(&ev.payload)) out.push_back(*result);
  }
  return out;
}

const llm::tool_spec* told_tool(const llm::model_request& request, std::string_view name) {
  if (!request.tools) return nullptr;
  for (const auto& spec : *request.tools) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string final_saying(const std::vector<event>& logged) {
  std::string said;
  for (const auto& ev : logged) {
    if (const auto* finished = std::get_if<events::generation_finished>(&ev.payload)) said = finished->saying;
  }
  return said;
}

TEST(McpTools, AMemberCallsAToolOfItsServerAndTheResultIsLoggedAndAnswered) {
  temp_team files(team_yaml("[everything]", stdio_server("everything", kEverything)), R"(members:
  lead:
    - when: {round: 1}
      emit: [{tool_call: {name: get-sum, arguments: {a: 20, b: 22}}}]
    - emit: [{saying: "The sum is in."}]
)");
  const auto run = drive(files);
  const auto results = tool_results(run.events);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].name, "get-sum");
  EXPECT_TRUE(results[0].ok) << results[0].content;
  EXPECT_NE(results[0].content.find("42"), std::string::npos) << results[0].content;
  EXPECT_EQ(final_saying(run.events), "The sum is in.");
}

TEST(McpTools, TheModelIsToldTheServersToolsWithNormalisedSchemas) {
  temp_team files(team_yaml("[everything]", stdio_server("everything", kEverything)), R"(members:
  lead:
    - emit: [{saying: "Fine."}]
)");
  const auto run = drive(files);
  const auto* echo = told_tool(run.told, "echo");
  ASSERT_NE(echo, nullptr) << "the tool list sent to the model has the MCP tools";
  EXPECT_EQ(echo->description, "Echoes back the input string");
  EXPECT_EQ(json::serialize(echo->parameters),
            R"({"type":"object","properties":{"message":{"type":"string","description":"Message to echo"}},)"
            R"("required":["message"]})");
  ASSERT_NE(told_tool(run.told, "get-tiny-image"), nullptr);
  EXPECT_EQ(told_tool(run.told, "get-tiny-image")->parameters.at("properties"), json::object{});
  EXPECT_NE(told_tool(run.told, "tellask"), nullptr) << "the dialog tools come after them";
  EXPECT_EQ(told_tool(run.told, "list_resources"), nullptr) << "resources was not asked for";
}

TEST(McpTools, ArgumentsAreCheckedAgainstTheSchemaBeforeTheServerIsCalled) {
  temp_team files(team_yaml("[everything]", stdio_server("everything", kEverything)), R"(members:
  lead:
    - when: {round: 1}
      emit: [{tool_call: {name: get-sum, arguments: {a: 1}}}]
    - emit: [{saying: "Oops."}]
)");
  const auto run = drive(files);
  const auto results = tool_results(run.events);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].ok);
  EXPECT_NE(results[0].content.find("invalid arguments for tool 'get-sum'"), std::string::npos) << results[0].content;
  EXPECT_EQ(final_saying(run.events), "Oops.");
}

TEST(McpTools, AServerDyingMidCallIsAToolErrorAndTheDialogGoesOn) {
  temp_team files(team_yaml("[crashing]", stdio_server("crashing", kCrashing)), R"(members:
  lead:
    - when: {round: 1}
      emit: [{tool_call: {name: crash, arguments: {}}}]
    - emit: [{saying: "It crashed; I carry on."}]
)");
  const auto run = drive(files);
  const auto results = tool_results(run.events);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_FALSE(results[0].ok);
  EXPECT_NE(results[0].content.find("exited with status 3"), std::string::npos) << results[0].content;
  EXPECT_EQ(final_saying(run.events), "It crashed; I carry on.");
}

TEST(McpTools, TheResourcesToolsetListsAndFetchesTheMembersServersResources) {
  temp_team files(team_yaml("[everything, resources]", stdio_server("everything", kEverything)), R"(members:
  lead:
    - when: {round: 1}
      emit: [{tool_call: {name: list_resources, arguments: {query: features}}}]
    - when: {round: 2}
      emit: [{tool_call: {name: fetch_resource, arguments: {resourceId: demo_resource_static_document_features_md}}}]
    - emit: [{saying: "Read."}]
)");
  const auto run = drive(files);
  const auto results = tool_results(run.events);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].ok) << results[0].content;
  EXPECT_NE(results[0].content.find("uri: demo://resource/static/document/features.md"), std::string::npos)
      << results[0].content;
  EXPECT_TRUE(results[1].ok) << results[1].content;
  EXPECT_GT(results[1].content.size(), 100u);
}

TEST(McpTools, AToolsetNamingARefusedServerIsRefusedWithItsProblemAndADisabledOneGivesNoTools) {
  temp_team refused(team_yaml("[broken]", "    broken:\n      transport: stdio\n"),
                    "members:\n  lead:\n    - emit: [{saying: x}]\n");
  auto team = refused.load();
  asio::io_context io;
  auto log = make_memory_store();
  auto providers = build_providers(team);
  ASSERT_TRUE(providers) << providers.err().message;
  auto eng = engine::create(io.get_executor(), *log, team, std::move(*providers), build_builtin_tools());
  ASSERT_FALSE(eng);
  EXPECT_NE(eng.err().message.find("toolset 'broken' is an MCP server whose entry was refused: "), std::string::npos)
      << eng.err().message;
  EXPECT_NE(eng.err().message.find("command"), std::string::npos) << eng.err().message;

  temp_team disabled(team_yaml("[off]", stdio_server("off", kEverything, "      enabled: false\n")), R"(members:
  lead:
    - emit: [{saying: "No tools."}]
)");
  const auto run = drive(disabled);
  EXPECT_EQ(final_saying(run.events), "No tools.");
  EXPECT_EQ(told_tool(run.told, "echo"), nullptr);
}

}  // namespace
}  // namespace parley::engine
