// What a real model is told, read off the wire: a two-member team (`lead`, and `researcher` with
// `gofor: finding facts on the web`) talks to an OpenAI-compatible fake server that records every
// request. The lead's request names the researcher and what to go to it for, and its Tellask
// tools list the member ids as targetAgentId's enum — so a model can delegate without guessing.
// The researcher's request says it is a subdialog and who asked. (Issue 27, item 1.)
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>

#include "fake_model_engine.hpp"
#include "support/fake_http_server.hpp"
#include "support/openai_stream.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
using parley::testing::fake_response;
using parley::testing::openai_chunk;

constexpr const char* kMembers =
    "  lead: {name: Lead, persona: You lead the research., provider: fake, model: m}\n"
    "  researcher:\n"
    "    name: Researcher\n"
    "    persona: You research.\n"
    "    gofor: finding facts on the web\n"
    "    nogo: [writing code]\n"
    "    provider: fake\n"
    "    model: m\n";

fake_response saying(std::string_view text) {
  return fake_response::sse(
      {openai_chunk(R"({"content":)" + boost::json::serialize(boost::json::string(text)) + "}", "null"),
       openai_chunk("{}", R"("stop")"), "data: [DONE]\n\n"});
}

fake_response tool_call(std::string_view name, std::string_view arguments) {
  const std::string call = R"({"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":")" +
                           std::string(name) + R"(","arguments":)" +
                           boost::json::serialize(boost::json::string(arguments)) + "}}]}";
  return fake_response::sse({openai_chunk(call, "null"), openai_chunk("{}", R"("tool_calls")"), "data: [DONE]\n\n"});
}

asio::awaitable<void> ask(engine::engine& eng, std::string& id, std::string text) {
  engine::new_dialog spec{"lead", "t", ""};
  auto created = co_await eng.create_root_dialog(std::move(spec));
  if (!created) co_return;
  id = *created;
  auto posted = co_await eng.post_user_message(id, std::move(text));
  EXPECT_TRUE(posted);
  co_await eng.runs().wait_until_settled(id);
}

struct told {
  std::string system;
  boost::json::array tools;
};

told what_was_sent(const parley::testing::received_request& request) {
  const auto body = boost::json::parse(request.body).as_object();
  told out;
  const auto& messages = body.at("messages").as_array();
  if (!messages.empty() && messages[0].as_object().at("role") == "system") {
    out.system = std::string(messages[0].as_object().at("content").as_string());
  }
  if (const auto* tools = body.if_contains("tools")) out.tools = tools->as_array();
  return out;
}

// The `targetAgentId` schema of the tool `name`, or null.
const boost::json::object* target_schema(const told& sent, std::string_view name) {
  for (const auto& tool : sent.tools) {
    const auto& function = tool.as_object().at("function").as_object();
    if (function.at("name").as_string() != name) continue;
    const auto& properties = function.at("parameters").as_object().at("properties").as_object();
    if (const auto* target = properties.if_contains("targetAgentId")) return &target->as_object();
  }
  return nullptr;
}

bool has(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(ModelTold, TheLeadIsToldItsTeammatesAndTheTellaskToolsListTheirIds) {
  parley::testing::fake_http_server model;
  model.push(tool_call("tellaskSessionless",
                       R"({"targetAgentId":"researcher","tellaskContent":"Who wrote Dune? Answer with a name."})"));
  model.push(saying("【最终完成】\nFrank Herbert"));
  model.push(saying("Frank Herbert wrote Dune."));

  parley::testing::fake_model_engine setup(model.base_url(), kMembers);
  ASSERT_NE(setup.engine, nullptr);
  std::string id;
  asio::co_spawn(setup.io, ask(*setup.engine, id, "Who wrote Dune?"), asio::detached);
  setup.io.run();
  ASSERT_FALSE(id.empty());
  EXPECT_EQ(setup.engine->find(id)->messages().back().content, "Frank Herbert wrote Dune.");

  const auto requests = model.requests();
  ASSERT_EQ(requests.size(), 3u);

  // The lead, in its root dialog.
  const told lead = what_was_sent(requests[0]);
  EXPECT_TRUE(has(lead.system, "You are Lead (@lead), a member of an agent team.")) << lead.system;
  EXPECT_TRUE(has(lead.system,
                  "Members you can Tellask (targetAgentId):\n- @lead (Lead): you\n"
                  "- @researcher (Researcher)\n"
                  "  - go to them for: finding facts on the web\n"
                  "  - not for: writing code\n"))
      << lead.system;
  EXPECT_TRUE(has(lead.system, "A root dialog: you work for the human who writes here")) << lead.system;
  EXPECT_TRUE(has(lead.system, "- tellaskSessionless: Type C, a one-off task")) << lead.system;
  EXPECT_FALSE(has(lead.system, "tellaskBack")) << lead.system;  // a root has no tellasker
  const boost::json::array ids{"lead", "researcher"};
  for (const auto name : {"tellask", "tellaskSessionless"}) {
    const auto* target = target_schema(lead, name);
    ASSERT_NE(target, nullptr) << name;
    EXPECT_EQ(target->at("type"), "string") << name;
    EXPECT_EQ(target->at("enum"), ids) << name;
  }

  // The researcher, in the subdialog the lead's call created.
  const told researcher = what_was_sent(requests[1]);
  EXPECT_TRUE(has(researcher.system, "You are Researcher (@researcher)")) << researcher.system;
  EXPECT_TRUE(has(researcher.system, "- @researcher (Researcher): you\n")) << researcher.system;
  EXPECT_TRUE(has(researcher.system, "A subdialog: @lead tellasked you once (tellaskSessionless, Type C)"))
      << researcher.system;
  EXPECT_TRUE(has(researcher.system, "- tellaskBack: Type A, ask @lead, your tellasker")) << researcher.system;
  // Seed 001's flowchart: a tellaskSessionless aimed at the tellasker is Type A, and the model is told.
  EXPECT_TRUE(has(researcher.system, "A tellaskSessionless to @lead is taken as a tellaskBack too."))
      << researcher.system;
  const auto* researcher_target = target_schema(researcher, "tellaskSessionless");
  ASSERT_NE(researcher_target, nullptr);
  EXPECT_EQ(researcher_target->at("enum"), ids);
}

TEST(ModelTold, AnIdOutsideTheEnumIsRefusedNamingItAndTheNearestMember) {
  parley::testing::fake_http_server model;
  model.push(tool_call("tellask", R"({"targetAgentId":"reseacher","sessionSlug":"dune","tellaskContent":"?"})"));
  model.push(saying("I will do it myself."));

  parley::testing::fake_model_engine setup(model.base_url(), kMembers);
  ASSERT_NE(setup.engine, nullptr);
  std::string id;
  asio::co_spawn(setup.io, ask(*setup.engine, id, "Who wrote Dune?"), asio::detached);
  setup.io.run();
  ASSERT_FALSE(id.empty());
  const auto& messages = setup.engine->find(id)->messages();
  ASSERT_EQ(messages.size(), 4u);
  EXPECT_EQ(messages[2].role, parley::events::message_role::tool);
  EXPECT_EQ(messages[2].content,
            "invalid arguments for tellask: arguments.targetAgentId: 'reseacher' is not one of "
            "[\"lead\",\"researcher\"] (did you mean 'researcher'?). Fix them and call again.");
  EXPECT_EQ(model.requests().size(), 2u);  // nothing was created for the refused call
}

}  // namespace
}  // namespace parley::server
