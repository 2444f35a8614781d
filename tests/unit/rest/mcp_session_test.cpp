// The MCP server's protocol core (server/mcp_session.hpp, mcp_protocol.hpp), with no transport:
// what is not one JSON-RPC message, a request before initialize, params read strictly and named
// in errors, an unknown method, tool arguments refused before anything is made, resources that do
// not exist, a cancelled call, and a member's answer with its progress. The engine is real (the
// in-memory store, the scripted model); the transports have tests of their own
// (tests/server/mcp_http_test.cpp, tests/mcp/parley_server_test.mjs).
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/server/answer_relay.hpp"
#include "parley/server/mcp_protocol.hpp"
#include "parley/server/mcp_session.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/server_context.hpp"
#include "parley/store/memory_store.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;

constexpr const char* kMcpTeam = R"yaml(version: 1
default_member: lead
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {name: Lead, persona: "You lead.", provider: offline, model: scripted}
  clerk: {name: Clerk, persona: "You book trips.", gofor: booking trips, provider: offline, model: scripted}
)yaml";
constexpr const char* kMcpScript = R"yaml(chunk_size: 2
delay_ms: 5
members:
  lead:
    - when: {last_user: "delegate"}
      emit:
        - tool_call: {name: tellaskSessionless, arguments: {targetAgentId: clerk, tellaskContent: "Book a trip."}}
    - when: {last_user: "endless"}
      emit: [{saying: "{{last_user}}: this goes on for a long while, two characters at a time, so that it is still being said when the test cancels the call that waits for it. It goes on and on and on, and further still: the test stops it once it has seen that the dialog went on without its caller, and not a moment later; a machine slower than the one it was written on only makes it longer, never shorter, so the test holds however busy the machine is, which is the point of writing it at such length and with such patience, at two characters every five milliseconds, which comes to a few seconds in all before it is done, and done it never is in this test."}]
    - emit: [{saying: "ok: {{last_user}}"}]
  clerk:
    - emit:
        - tool_call: {name: askHuman, arguments: {tellaskContent: "Which day?"}}
)yaml";

// What a request wrote: each message's JSON, in order.
struct recorded_reply final : mcp_reply {
  std::vector<json::value> messages;
  asio::awaitable<bool> notify(std::string message) override {
    messages.push_back(json::parse(message));
    co_return true;
  }
  asio::awaitable<void> respond(std::string message) override {
    messages.push_back(json::parse(message));
    co_return;
  }
};

// A root dialog without a message (nothing drives it); counted in `made` once it is.
asio::awaitable<void> make_root(engine::engine& eng, engine::new_dialog spec, int& made) {
  auto id = co_await eng.create_root_dialog(std::move(spec));
  made += id ? 1 : 0;
}

mcp::rpc_request request_of(const std::string& text) {
  auto incoming = read_incoming(text);
  EXPECT_TRUE(incoming.message.has_value()) << incoming.refusal;
  if (!incoming.message) return {};
  return std::get<mcp::rpc_request>(*incoming.message);
}

class McpSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    dir_ = std::filesystem::temp_directory_path() / ("parley-mcp-session-" + std::to_string(device()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "team.yaml") << kMcpTeam;
    std::ofstream(dir_ / "script.yaml") << kMcpScript;
    auto team = config::load_team_file(dir_ / "team.yaml");
    ASSERT_TRUE(team.has_value()) << team.err().message;
    team_ = std::move(*team);
    auto providers = engine::build_providers(team_);
    ASSERT_TRUE(providers.has_value()) << providers.err().message;
    auto created =
        engine::engine::create(io_.get_executor(), log_, team_, std::move(*providers), engine::build_builtin_tools());
    ASSERT_TRUE(created.has_value()) << created.err().message;
    engine_ = std::move(*created);
    channels_ = std::make_unique<pubchan>(*engine_, log_, options_);
    answers_ = std::make_unique<answer_relay>(*engine_);
    context_ =
        std::make_unique<server_context>(server_context{*engine_, log_, options_, *channels_, users_, true, "test"});
    context_->answers = answers_.get();
    mcp_settings settings;
    settings.server_version = "test";
    session_ = std::make_unique<mcp_session>(*context_, users_.only_user(), settings);
  }
  void TearDown() override {
    session_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // Handles one request to its end; what it wrote.
  std::vector<json::value> handle(const std::string& text) {
    recorded_reply reply;
    bool done = false;
    asio::co_spawn(io_, session_->handle_request(request_of(text), reply), [&](std::exception_ptr) { done = true; });
    run_until([&] { return done; });
    return reply.messages;
  }
  // The one response a request wrote.
  json::value response(const std::string& text) {
    auto written = handle(text);
    EXPECT_FALSE(written.empty()) << text;
    return written.empty() ? json::value() : written.back();
  }
  template <class Done>
  void run_until(Done done) {
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      io_.run_for(5ms);
      if (io_.stopped()) io_.restart();  // out of work for now: more may come (a drive, a timer)
    }
  }
  void initialize() {
    const auto answer = response(
        R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
    ASSERT_TRUE(answer.as_object().contains("result")) << json::serialize(answer);
  }
  std::size_t dialogs() {
    auto rows = log_.list_dialogs(dialog_filter{});
    return rows ? rows->size() : 0;
  }
  static int code_of(const json::value& answer) {
    if (!answer.is_object() || !answer.as_object().contains("error")) return 0;
    return static_cast<int>(answer.at("error").at("code").as_int64());
  }
  static std::string message_of(const json::value& answer) {
    if (!answer.is_object() || !answer.as_object().contains("error"))
      return "(no error: " + json::serialize(answer) + ")";
    return std::string(answer.at("error").at("message").as_string());
  }
  static std::string tool_text(const json::value& answer) {
    return std::string(answer.at("result").at("content").at(0).at("text").as_string());
  }

  std::filesystem::path dir_;
  config::team_config team_;
  asio::io_context io_{1};
  memory_store log_;
  std::unique_ptr<engine::engine> engine_;
  server_options options_;
  user_directory users_;
  std::unique_ptr<pubchan> channels_;
  std::unique_ptr<answer_relay> answers_;
  std::unique_ptr<server_context> context_;
  std::unique_ptr<mcp_session> session_;
};

TEST(McpProtocol, TextThatIsNotOneMessageEarnsTheErrorJsonRpcPrescribes) {
  const auto not_json = read_incoming("{nope");
  EXPECT_FALSE(not_json.message);
  EXPECT_TRUE(not_json.parse_error);
  EXPECT_EQ(json::parse(not_json.refusal).at("error").at("code"), -32700);
  EXPECT_TRUE(json::parse(not_json.refusal).at("id").is_null());

  const auto batch = read_incoming(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_FALSE(batch.parse_error);
  EXPECT_EQ(json::parse(batch.refusal).at("error").at("code"), -32600);
  EXPECT_TRUE(json::parse(batch.refusal).at("id").is_null());

  // A request with a usable id is answered with that id.
  const auto bad_method = read_incoming(R"({"jsonrpc":"2.0","id":3,"method":5})");
  EXPECT_EQ(json::parse(bad_method.refusal).at("error").at("code"), -32600);
  EXPECT_EQ(json::parse(bad_method.refusal).at("id"), 3);
  const auto no_version = read_incoming(R"({"id":"a","method":"ping"})");
  EXPECT_EQ(json::parse(no_version.refusal).at("id"), "a");
  EXPECT_NE(json::parse(no_version.refusal).at("error").at("message").as_string().find("jsonrpc"), json::string::npos);
}

TEST(McpProtocol, TheClientsRevisionIsKeptWhenParleySpeaksItElseTheLatest) {
  for (const char* version : {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}) {
    EXPECT_EQ(negotiate_mcp_version(version), version);
  }
  EXPECT_EQ(negotiate_mcp_version("2024-10-07"), "2025-11-25");
  EXPECT_EQ(negotiate_mcp_version("2099-01-01"), "2025-11-25");
}

TEST_F(McpSessionTest, OnlyPingAndInitializeAreAnsweredBeforeInitialize) {
  EXPECT_EQ(code_of(response(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})")), -32600);
  EXPECT_TRUE(response(R"({"jsonrpc":"2.0","id":2,"method":"ping"})").as_object().contains("result"));
  EXPECT_FALSE(session_->initialized());
}

TEST_F(McpSessionTest, InitializeParamsAreReadStrictlyAndTheErrorNamesTheMember) {
  const struct {
    const char* params;
    const char* named;
  } bad[] = {
      {R"({"capabilities":{},"clientInfo":{"name":"t","version":"1"}})", "params.protocolVersion"},
      {R"({"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"t","version":"1"}})", "params.protocolVersion"},
      {R"({"protocolVersion":"2025-11-25","clientInfo":{"name":"t","version":"1"}})", "params.capabilities"},
      {R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"version":"1"}})", "params.clientInfo.name"},
      {R"({"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"},"extra":1})",
       "params.extra"},
  };
  for (const auto& each : bad) {
    const auto answer =
        response(std::string(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":)") + each.params + "}");
    EXPECT_EQ(code_of(answer), -32602) << each.params;
    EXPECT_NE(message_of(answer).find(each.named), std::string::npos) << message_of(answer);
    EXPECT_FALSE(session_->initialized());
  }
  const auto older = response(
      R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  EXPECT_EQ(older.at("result").at("protocolVersion"), "2024-11-05");
  EXPECT_EQ(older.at("result").at("capabilities").at("tools").at("listChanged"), false);
  EXPECT_EQ(
      code_of(response(
          R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})")),
      -32600);
  // 2024-11-05 knows no output schemas: none is offered.
  const auto tools = response(R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})");
  EXPECT_FALSE(tools.at("result").at("tools").at(0).as_object().contains("outputSchema"));
}

TEST_F(McpSessionTest, AnUnknownMethodIsMethodNotFoundAndAStrayCursorIsRefused) {
  initialize();
  const auto unknown = response(R"({"jsonrpc":"2.0","id":1,"method":"prompts/list"})");
  EXPECT_EQ(code_of(unknown), -32601);
  EXPECT_NE(message_of(unknown).find("prompts/list"), std::string::npos);
  const auto cursor = response(R"({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}})");
  EXPECT_EQ(code_of(cursor), -32602);
  EXPECT_NE(message_of(cursor).find("params.cursor"), std::string::npos);
  const auto token = response(R"({"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"progressToken":1.5}}})");
  EXPECT_EQ(code_of(token), -32602);
  EXPECT_NE(message_of(token).find("params._meta.progressToken"), std::string::npos);
}

TEST_F(McpSessionTest, ToolCallParamsAndArgumentsAreCheckedBeforeAnythingIsMade) {
  initialize();
  const struct {
    const char* params;
    const char* named;
  } protocol_errors[] = {
      {R"({})", "params.name"},
      {R"({"name":7})", "params.name"},
      {R"({"name":"ask_lead","arguments":"hi"})", "params.arguments"},
      {R"({"name":"ask_nobody","arguments":{"message":"hi"}})", "params.name"},
      {R"({"name":"ask_lead","arguments":{"message":"hi"},"task":{}})", "params.task"},
      {R"({"name":"ask_lead","arguments":{"message":"hi"},"other":1})", "params.other"},
  };
  for (const auto& each : protocol_errors) {
    const auto answer =
        response(std::string(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":)") + each.params + "}");
    EXPECT_EQ(code_of(answer), -32602) << each.params;
    EXPECT_NE(message_of(answer).find(each.named), std::string::npos) << message_of(answer);
  }
  const struct {
    const char* params;
    const char* named;
  } tool_errors[] = {
      {R"({"name":"ask_lead"})", "arguments.message"},
      {R"({"name":"ask_lead","arguments":{"message":5}})", "arguments.message"},
      {R"({"name":"ask_lead","arguments":{"message":""}})", "arguments.message"},
      {R"({"name":"ask_lead","arguments":{"message":"hi","dialog_id":3}})", "arguments.dialog_id"},
      {R"({"name":"ask_lead","arguments":{"message":"hi","dialog_id":"ffffffffffffffff"}})", "arguments.dialog_id"},
      {R"({"name":"ask_lead","arguments":{"message":"hi","colour":"red"}})", "arguments.colour"},
      {R"({"name":"answer_question","arguments":{"question_id":"q1","answer":"Friday"}})", "arguments.question_id"},
      {R"({"name":"answer_question","arguments":{"question_id":"q1"}})", "arguments.answer"},
      {R"({"name":"wait_for_answer","arguments":{}})", "arguments.dialog_id"},
  };
  for (const auto& each : tool_errors) {
    const auto answer =
        response(std::string(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":)") + each.params + "}");
    ASSERT_TRUE(answer.as_object().contains("result")) << json::serialize(answer);
    EXPECT_EQ(answer.at("result").at("isError"), true) << each.params;
    EXPECT_NE(tool_text(answer).find(each.named), std::string::npos) << tool_text(answer);
  }
  EXPECT_EQ(dialogs(), 0U);
}

TEST_F(McpSessionTest, ResourcesNameAMissingUriAndDoNotExistForIdsNobodyMade) {
  initialize();
  const auto missing = response(R"({"jsonrpc":"2.0","id":1,"method":"resources/read","params":{}})");
  EXPECT_EQ(code_of(missing), -32602);
  EXPECT_NE(message_of(missing).find("params.uri"), std::string::npos);
  for (const char* uri : {"parley://dialogs/ffffffffffffffff", "parley://questions/nope", "parley://elsewhere/x",
                          "file:///etc/passwd", "parley://dialogs/../../x"}) {
    const auto answer =
        response(std::string(R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":")") + uri + "\"}}");
    EXPECT_EQ(code_of(answer), -32002) << uri;
  }
  const auto cursor = response(R"({"jsonrpc":"2.0","id":3,"method":"resources/list","params":{"cursor":"forged"}})");
  EXPECT_EQ(code_of(cursor), -32602);
  EXPECT_NE(message_of(cursor).find("params.cursor"), std::string::npos);
}

TEST_F(McpSessionTest, ResourcesListPagesThroughTheRootsWithItsCursor) {
  initialize();
  constexpr int kRoots = 53;  // a page is 50
  int made = 0;
  for (int i = 0; i < kRoots; ++i) {
    engine::new_dialog spec{"lead", "root " + std::to_string(i), {}};
    asio::co_spawn(io_, make_root(*engine_, std::move(spec), made), asio::detached);
  }
  run_until([&] { return made == kRoots; });
  ASSERT_EQ(made, kRoots);
  const auto first = response(R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
  const auto& page = first.at("result").as_object();
  EXPECT_EQ(page.at("resources").as_array().size(), 50U);
  ASSERT_TRUE(page.contains("nextCursor")) << json::serialize(first);
  const std::string cursor(page.at("nextCursor").as_string());
  const auto second =
      response(R"({"jsonrpc":"2.0","id":2,"method":"resources/list","params":{"cursor":")" + cursor + "\"}}");
  const auto& rest = second.at("result").as_object();
  EXPECT_EQ(rest.at("resources").as_array().size(), 3U) << json::serialize(second);
  EXPECT_FALSE(rest.contains("nextCursor"));
  std::set<std::string> uris;
  for (const auto* listed : {&page, &rest}) {
    for (const auto& resource : listed->at("resources").as_array()) {
      uris.insert(std::string(resource.at("uri").as_string()));
      EXPECT_EQ(resource.at("mimeType"), "text/markdown");
    }
  }
  EXPECT_EQ(uris.size(), static_cast<std::size_t>(kRoots)) << "every root once, none twice";
}

TEST_F(McpSessionTest, AMemberAnswersAfterProgressThatNamesItsDialog) {
  initialize();
  const auto written = handle(
      R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask_lead","arguments":{"message":"hello"},"_meta":{"progressToken":"t"}}})");
  ASSERT_GE(written.size(), 2U);
  const auto& answer = written.back();
  const auto content = answer.at("result").at("structuredContent");
  EXPECT_EQ(content.at("status"), "answered");
  EXPECT_EQ(content.at("answer"), "ok: hello");
  const std::string id(content.at("dialog_id").as_string());
  std::int64_t last = 0;
  for (std::size_t i = 0; i + 1 < written.size(); ++i) {
    EXPECT_EQ(written[i].at("method"), "notifications/progress");
    EXPECT_EQ(written[i].at("params").at("progressToken"), "t");
    EXPECT_GT(written[i].at("params").at("progress").as_int64(), last);
    last = written[i].at("params").at("progress").as_int64();
  }
  EXPECT_NE(json::serialize(written.front()).find(id), std::string::npos) << json::serialize(written.front());
  EXPECT_NE(tool_text(answer).find(id), std::string::npos);
}

TEST_F(McpSessionTest, AQuestionForTheHumanIsReturnedWithItsId) {
  initialize();
  const auto answer = response(
      R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"ask_lead","arguments":{"message":"delegate"}}})");
  const auto content = answer.at("result").at("structuredContent");
  EXPECT_EQ(content.at("status"), "waiting_for_human") << json::serialize(answer);
  ASSERT_EQ(content.at("questions").as_array().size(), 1U);
  EXPECT_EQ(content.at("questions").at(0).at("question"), "Which day?");
  EXPECT_EQ(content.at("questions").at(0).at("member_id"), "clerk");
}

TEST_F(McpSessionTest, ACancelledCallSendsNothingAndItsDialogGoesOn) {
  initialize();
  recorded_reply reply;
  bool done = false;
  asio::co_spawn(
      io_,
      session_->handle_request(
          request_of(
              R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"ask_lead","arguments":{"message":"endless"}}})"),
          reply),
      [&](std::exception_ptr) { done = true; });
  run_until([&] { return dialogs() == 1; });
  ASSERT_EQ(session_->requests_in_flight(), 1U);
  // The same id again while it runs is refused.
  EXPECT_EQ(code_of(response(R"({"jsonrpc":"2.0","id":"c","method":"ping"})")), -32600);
  session_->handle_notification(mcp::rpc_notification{"notifications/cancelled", json::object{{"requestId", "c"}}});
  run_until([&] { return done; });
  EXPECT_TRUE(done);
  EXPECT_TRUE(reply.messages.empty()) << json::serialize(reply.messages.front());
  EXPECT_EQ(session_->requests_in_flight(), 0U);
  const auto rows = log_.list_dialogs(dialog_filter{});
  ASSERT_TRUE(rows.has_value());
  ASSERT_EQ(rows->size(), 1U);
  const auto* dialog = engine_->find(rows->front().id);
  ASSERT_NE(dialog, nullptr);
  EXPECT_TRUE(dialog->drive_scheduled) << "the dialog goes on without its caller";
  (void)engine_->runs().stop(rows->front().id, "the test is over");
  run_until([&] { return !engine_->find(rows->front().id)->drive_scheduled; });
}

}  // namespace
}  // namespace parley::server
