// Black-box: `parley serve --mcp`, MCP's streamable HTTP at /mcp (docs/mcp.md, "Parley as an MCP
// server") — its sessions, its headers and what it refuses, at the HTTP level the official SDK's
// own test (tests/mcp/parley_server_test.mjs) does not reach: the same token, Host and Origin
// checks as the API, one user never reaching another's session or dialogs, a cancelled call that
// answers nothing while its dialog goes on, and `parley mcp` refused beside a running server.
#include <sys/stat.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fstream>
#include <future>
#include <thread>

#include "rest_fixture.hpp"
#include "support/cli_runner.hpp"
#include "test_users.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

constexpr const char* kAcceptBoth = "application/json, text/event-stream";

json::value rpc(std::int64_t id, const std::string& method, json::object params = {}) {
  json::object out{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.empty()) out["params"] = std::move(params);
  return out;
}

json::value notification(const std::string& method, json::object params = {}) {
  json::object out{{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.empty()) out["params"] = std::move(params);
  return out;
}

json::object initialize_params(const std::string& version = "2025-11-25") {
  return json::object{{"protocolVersion", version},
                      {"capabilities", json::object{}},
                      {"clientInfo", json::object{{"name", "mcp-http-test"}, {"version", "1"}}}};
}

json::object ask(const std::string& tool, json::object arguments) {
  return json::object{{"name", tool}, {"arguments", std::move(arguments)}};
}

class McpHttpTest : public RestTest {
 protected:
  // POST /mcp with `body` as it is; `session` and more headers as given.
  http_reply post_text(const rest_client& as, const std::string& body, const std::string& session = {},
                       std::map<std::string, std::string> headers = {}) const {
    if (headers.count("Accept") == 0) headers["Accept"] = kAcceptBoth;
    if (!session.empty()) headers["Mcp-Session-Id"] = session;
    return as.request("POST", "/mcp", body, headers);
  }
  http_reply post(const rest_client& as, const json::value& body, const std::string& session = {},
                  std::map<std::string, std::string> headers = {}) const {
    return post_text(as, json::serialize(body), session, std::move(headers));
  }
  // A new session of `as`; its id (empty when initialize failed).
  std::string open_session(const rest_client& as) const {
    const auto reply = post(as, rpc(1, "initialize", initialize_params()));
    EXPECT_EQ(reply.status, 200) << reply.body;
    return reply.header("Mcp-Session-Id");
  }
  static json::value result_of(const http_reply& reply) {
    const auto body = reply.json();
    if (!body.is_object() || !body.as_object().contains("result")) return nullptr;
    return body.at("result");
  }
  static json::value error_of(const http_reply& reply) {
    const auto body = reply.json();
    if (!body.is_object() || !body.as_object().contains("error")) return nullptr;
    return body.at("error");
  }
  std::int64_t root_dialogs(const rest_client& as) const {
    return as.get("/api/dialogs").json().at("total").as_int64();
  }
};

TEST_F(McpHttpTest, InitializeIssuesASessionThatEveryLaterRequestMustCarry) {
  start("q4h", {"--mcp"});
  const auto initialized = post(client(), rpc(1, "initialize", initialize_params("2025-06-18")));
  ASSERT_EQ(initialized.status, 200) << initialized.body;
  EXPECT_EQ(result_of(initialized).at("protocolVersion"), "2025-06-18");
  EXPECT_EQ(result_of(initialized).at("serverInfo").at("name"), "parley");
  const std::string session = initialized.header("Mcp-Session-Id");
  ASSERT_EQ(session.size(), 32U) << initialized.body;

  EXPECT_EQ(post(client(), notification("notifications/initialized"), session).status, 202);
  const auto ping = post(client(), rpc(2, "ping"), session);
  EXPECT_EQ(ping.status, 200) << ping.body;
  EXPECT_EQ(result_of(ping), json::value(json::object{}));

  const auto without = post(client(), rpc(3, "ping"));
  EXPECT_EQ(without.status, 400) << without.body;
  EXPECT_NE(error_of(without).at("message").as_string().find("Mcp-Session-Id"), json::string::npos);
  const auto unknown = post(client(), rpc(4, "ping"), std::string(32, 'f'));
  EXPECT_EQ(unknown.status, 404) << unknown.body;
  // A second initialize inside a session is refused; it does not start another.
  EXPECT_EQ(post(client(), rpc(5, "initialize", initialize_params()), session).status, 400);
}

TEST_F(McpHttpTest, TheTokenHostAndOriginAreCheckedAsForTheRestOfTheApi) {
  start("q4h", {"--mcp"});
  const rest_client stranger(server_->port());
  const auto no_token = post(stranger, rpc(1, "initialize", initialize_params()));
  EXPECT_EQ(no_token.status, 401) << no_token.body;
  EXPECT_EQ(error_of(no_token).at("code"), -32600) << no_token.body;
  const rest_client wrong(server_->port(), "not-the-token");
  EXPECT_EQ(post(wrong, rpc(1, "initialize", initialize_params())).status, 401);
  const auto foreign_origin =
      post(client(), rpc(1, "initialize", initialize_params()), {}, {{"Origin", "http://evil.example"}});
  EXPECT_EQ(foreign_origin.status, 403) << foreign_origin.body;
  const auto foreign_host = post(client(), rpc(1, "initialize", initialize_params()), {},
                                 {{"Host", "evil.example:" + std::to_string(server_->port())}});
  EXPECT_EQ(foreign_host.status, 403) << foreign_host.body;
  EXPECT_TRUE(foreign_origin.header("Mcp-Session-Id").empty());
}

TEST_F(McpHttpTest, TheProtocolVersionHeaderMustBeTheSessionsRevision) {
  start("q4h", {"--mcp"});
  const std::string session = open_session(client());
  EXPECT_EQ(post(client(), rpc(2, "ping"), session, {{"MCP-Protocol-Version", "2025-11-25"}}).status, 200);
  const auto older = post(client(), rpc(3, "ping"), session, {{"MCP-Protocol-Version", "2025-03-26"}});
  EXPECT_EQ(older.status, 400) << older.body;
  EXPECT_NE(error_of(older).at("message").as_string().find("MCP-Protocol-Version"), json::string::npos);
  EXPECT_EQ(post(client(), rpc(4, "ping"), session, {{"MCP-Protocol-Version", "1999-01-01"}}).status, 400);
}

TEST_F(McpHttpTest, WhatIsNotOneJsonRpcMessageIsRefusedWithTheErrorJsonRpcPrescribes) {
  start("q4h", {"--mcp"});
  const std::string session = open_session(client());
  const auto not_json = post_text(client(), "{not json", session);
  EXPECT_EQ(not_json.status, 400) << not_json.body;
  EXPECT_EQ(error_of(not_json).at("code"), -32700);
  EXPECT_TRUE(not_json.json().at("id").is_null());
  const auto batch = post_text(client(), R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", session);
  EXPECT_EQ(batch.status, 400) << batch.body;
  EXPECT_EQ(error_of(batch).at("code"), -32600);
  const auto bad_version = post_text(client(), R"({"jsonrpc":"1.0","id":7,"method":"ping"})", session);
  EXPECT_EQ(bad_version.status, 400) << bad_version.body;
  EXPECT_EQ(bad_version.json().at("id"), 7);
  const auto text = post_text(client(), json::serialize(rpc(2, "ping")), session, {{"Content-Type", "text/plain"}});
  EXPECT_EQ(text.status, 415) << text.body;
  const auto html_only = post(client(), rpc(3, "ping"), session, {{"Accept", "text/html"}});
  EXPECT_EQ(html_only.status, 406) << html_only.body;
  const auto large = post_text(client(), std::string(2 * 1024 * 1024, ' '), session);
  EXPECT_EQ(large.status, 413) << large.body;
  // A request's own errors are JSON-RPC responses (200): an unknown method, params that name a
  // member wrongly.
  const auto unknown = post(client(), rpc(4, "tools/nothing"), session);
  EXPECT_EQ(unknown.status, 200);
  EXPECT_EQ(error_of(unknown).at("code"), -32601);
  const auto no_name = post(client(), rpc(5, "tools/call", json::object{{"arguments", json::object{}}}), session);
  EXPECT_EQ(error_of(no_name).at("code"), -32602);
  EXPECT_NE(error_of(no_name).at("message").as_string().find("params.name"), json::string::npos) << no_name.body;
  EXPECT_EQ(root_dialogs(client()), 0);
}

TEST_F(McpHttpTest, GetIsNotAllowedAndDeleteEndsTheSession) {
  start("q4h", {"--mcp"});
  const std::string session = open_session(client());
  const auto get = client().request("GET", "/mcp", "", {{"Mcp-Session-Id", session}, {"Accept", "text/event-stream"}});
  EXPECT_EQ(get.status, 405) << get.body;
  EXPECT_EQ(get.header("Allow"), "POST, DELETE");
  EXPECT_EQ(client().request("DELETE", "/mcp", "", {{"Mcp-Session-Id", session}}).status, 200);
  EXPECT_EQ(post(client(), rpc(2, "ping"), session).status, 404);
  EXPECT_EQ(client().request("DELETE", "/mcp", "", {{"Mcp-Session-Id", session}}).status, 404);
}

TEST_F(McpHttpTest, AClientThatTakesOnlyJsonGetsItsAnswerAsJson) {
  start("q4h", {"--mcp"});
  const std::string session = open_session(client());
  json::object params = ask("ask_lead", json::object{{"message", "hello"}});
  params["_meta"] = json::object{{"progressToken", "p"}};
  const auto reply = post(client(), rpc(2, "tools/call", params), session, {{"Accept", "application/json"}});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("Content-Type"), "application/json");
  EXPECT_EQ(result_of(reply).at("structuredContent").at("answer"), "ok: hello") << reply.body;
}

TEST_F(McpHttpTest, ACancelledCallAnswersNothingAndItsDialogGoesOn) {
  start("slow", {"--mcp"});
  const std::string session = open_session(client());
  auto waiting = std::async(std::launch::async, [&] {
    return post(client(), rpc(7, "tools/call", ask("ask_lead", json::object{{"message", "go"}})), session,
                {{"Accept", "application/json"}});
  });
  // The call has made its dialog once the dialog is listed.
  ASSERT_TRUE(eventually([&] { return root_dialogs(client()) == 1; }));
  const auto cancelled = post(
      client(), notification("notifications/cancelled", json::object{{"requestId", 7}, {"reason", "enough"}}), session);
  EXPECT_EQ(cancelled.status, 202);
  const auto answered = waiting.get();
  EXPECT_EQ(answered.status, 202) << answered.body;  // no response for a cancelled request
  EXPECT_TRUE(answered.body.empty()) << answered.body;
  const auto listed = client().get("/api/dialogs").json().at("dialogs").at(0);
  const std::string id(listed.at("id").as_string());
  // The dialog went on: it is still generating, or has said something already.
  EXPECT_TRUE(eventually([&] {
    const auto list = messages(id);
    return dialog(id).at("dialog").at("generating").as_bool() || list.size() > 1;
  }));
  // And the server stops promptly with the generation under way.
  EXPECT_EQ(server_->terminate(), 0) << server_->output();
}

TEST_F(McpHttpTest, ACallPastTheTimeoutReturnsWorkingWithTheDialogId) {
  start("slow", {"--mcp", "--mcp-call-timeout", "1"});
  const std::string session = open_session(client());
  const auto reply = post(client(), rpc(2, "tools/call", ask("ask_lead", json::object{{"message", "go"}})), session);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const auto content = result_of(reply).at("structuredContent");
  EXPECT_EQ(content.at("status"), "working") << reply.body;
  const std::string id(content.at("dialog_id").as_string());
  EXPECT_EQ(dialog(id).at("dialog").at("memberId"), "lead");
  EXPECT_EQ(server_->terminate(), 0) << server_->output();
}

TEST_F(McpHttpTest, OneUserNeverReachesAnothersSessionOrDialogs) {
  const auto users_file = (root_ / "users.yaml").string();
  std::ofstream(users_file) << "users:\n  - {id: ann, token: " << kAnn << "}\n  - {id: ben, token: " << kBen << "}\n";
  ::chmod(users_file.c_str(), 0600);
  start("q4h", {"--mcp", "--users", users_file});
  const rest_client ann(server_->port(), kAnn);
  const rest_client ben(server_->port(), kBen);
  const std::string anns = open_session(ann);
  const std::string bens = open_session(ben);
  EXPECT_EQ(post(ben, rpc(2, "ping"), anns).status, 404);  // Ann's session is unknown to Ben
  const auto asked = post(ann, rpc(3, "tools/call", ask("ask_lead", json::object{{"message", "mine"}})), anns);
  const auto content = result_of(asked).at("structuredContent");
  ASSERT_EQ(content.at("answer"), "ok: mine") << asked.body;
  const std::string id(content.at("dialog_id").as_string());

  const auto read = post(ben, rpc(4, "resources/read", json::object{{"uri", "parley://dialogs/" + id}}), bens);
  EXPECT_EQ(error_of(read).at("code"), -32002) << read.body;
  const auto listed = post(ben, rpc(5, "resources/list"), bens);
  EXPECT_EQ(result_of(listed).at("resources").as_array().size(), 0U) << listed.body;
  const auto stolen =
      post(ben, rpc(6, "tools/call", ask("ask_lead", json::object{{"message", "x"}, {"dialog_id", id}})), bens);
  EXPECT_EQ(result_of(stolen).at("isError"), true) << stolen.body;
  EXPECT_NE(json::serialize(result_of(stolen)).find("arguments.dialog_id"), std::string::npos) << stolen.body;
  // Ben's message never reached Ann's dialog.
  const auto transcript = ann.get("/api/dialogs/" + id + "/transcript").json();
  EXPECT_EQ(user_messages(transcript.at("messages").as_array()), 1) << json::serialize(transcript);
}

TEST_F(McpHttpTest, WithoutTheMcpFlagThereIsNoEndpoint) {
  start("q4h");
  const auto reply = post(client(), rpc(1, "initialize", initialize_params()));
  EXPECT_EQ(reply.status, 404) << reply.body;
}

TEST_F(McpHttpTest, ParleyMcpBesideARunningServerIsRefusedNamingTheServer) {
  start("q4h", {"--mcp"});
  const auto refused = parley::testing::run_cli("mcp --team " + (team_dir_ / "team.yaml").string() + " --data " +
                                                data_dir().string() + " < /dev/null");
  EXPECT_EQ(refused.status, 1) << refused.output;
  EXPECT_NE(refused.output.find("is in use by pid " + std::to_string(server_->pid()) + " (parley serve at http://"),
            std::string::npos)
      << refused.output;
  EXPECT_NE(refused.output.find("/mcp"), std::string::npos) << refused.output;
}

}  // namespace
}  // namespace parley::test
