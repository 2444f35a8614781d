// Black-box: what a web page of another site can do to a server on loopback — nothing. A foreign
// Host (DNS rebinding) is refused on pages, /api and /ws; the JSON routes take application/json
// only; a state-changing request or a WebSocket upgrade from a foreign Origin is refused; /api and
// /ws need the process's secret, which only the server's own index.html carries.
#include <fstream>

#include "rest_fixture.hpp"
#include "ws_client.hpp"

namespace parley::test {
namespace {

class CrossSiteTest : public RestTest {
 protected:
  // Starts the q4h team with a tiny web UI of its own, so "/" is a real page.
  void start_with_page(std::vector<std::string> extra = {}) {
    web_ = root_ / "web";
    std::filesystem::create_directories(web_ / "assets");
    std::ofstream(web_ / "index.html") << "<!doctype html><html><head><title>parley</title></head><body></body></html>";
    std::ofstream(web_ / "assets" / "app.js") << "console.log('parley');";
    extra.insert(extra.end(), {"--web", web_.string()});
    start("q4h", extra);
  }

  std::string port_text() const { return std::to_string(server_->port()); }
  std::string own_origin() const { return "http://127.0.0.1:" + port_text(); }

  http_reply create_with(const std::map<std::string, std::string>& headers,
                         const std::string& body = R"({"content":"hello"})") const {
    return client().request("POST", "/api/dialogs", body, headers);
  }

  std::int64_t dialog_total() const { return client().get("/api/dialogs").json().at("total").as_int64(); }

  std::filesystem::path web_;
};

TEST_F(CrossSiteTest, AForeignHostIsRefusedOnPagesTheApiAndTheWebSocket) {
  start_with_page();
  for (const std::string& host :
       std::vector<std::string>{"evil.example", "evil.example:" + port_text(), "127.0.0.1.nip.io:" + port_text(),
                                "localhost.evil.example"}) {
    for (const char* target : {"/", "/assets/app.js", "/api/status", "/api/dialogs"}) {
      const auto reply = client().request("GET", target, "", {{"Host", host}});
      EXPECT_EQ(reply.status, 403) << host << " " << target;
      EXPECT_EQ(code_of(reply), "bad_host") << host << " " << target;
      EXPECT_EQ(message_of(reply).rfind("Host: '" + host + "'", 0), 0U) << message_of(reply);
      EXPECT_EQ(reply.body.find(server_->token()), std::string::npos) << "the page's secret leaked to " << host;
    }
    ws_client ws;
    EXPECT_FALSE(
        ws.connect_with_headers(server_->port(), ws_client::protocols_with_token(server_->token()), {{"Host", host}}))
        << host;
    EXPECT_EQ(ws.handshake_status(), 403U) << host;
  }
  // A POST under a foreign name is refused before it can create anything.
  EXPECT_EQ(create_with({{"Host", "evil.example:" + port_text()}}).status, 403);
  EXPECT_EQ(dialog_total(), 0);
  // HTTP/1.1 without a Host at all.
  const auto bare = client().raw("GET /api/status HTTP/1.1\r\nAuthorization: Bearer " + server_->token() + "\r\n\r\n");
  EXPECT_EQ(bare.status, 400);
  EXPECT_EQ(message_of(bare), "Host: missing; HTTP/1.1 requires it");
}

TEST_F(CrossSiteTest, TheServersOwnNamesAndAllowedHostsAreServed) {
  start_with_page({"--allowed-host", "parley.lan,Team.Example", "--allowed-host", "10.1.2.3"});
  for (const std::string& host :
       std::vector<std::string>{"127.0.0.1", "127.0.0.1:" + port_text(), "localhost:" + port_text(), "LOCALHOST",
                                "[::1]:" + port_text(), "parley.lan:" + port_text(), "team.example", "10.1.2.3:8080"}) {
    EXPECT_EQ(client().request("GET", "/", "", {{"Host", host}}).status, 200) << host;
    EXPECT_EQ(client().request("GET", "/api/status", "", {{"Host", host}}).status, 200) << host;
  }
  // Listed names are exact: no subdomains, and other addresses are not names of a loopback server.
  for (const char* host : {"sub.parley.lan", "parley.lan.evil.example", "10.1.2.4", "192.168.0.9"}) {
    EXPECT_EQ(client().request("GET", "/api/status", "", {{"Host", host}}).status, 403) << host;
  }
  ws_client ws;
  ASSERT_TRUE(ws.connect_with_headers(server_->port(), ws_client::protocols_with_token(server_->token()),
                                      {{"Host", "localhost:" + port_text()}}));
  const auto welcome = ws.next();
  ASSERT_TRUE(welcome);
  EXPECT_EQ(welcome->at("type"), "welcome");
}

TEST_F(CrossSiteTest, ABadAllowedHostIsAUsageError) {
  server_process refused({"--team",
                          (std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/q4h/team.yaml").string(),
                          "--data", data_dir().string(), "--allowed-host", "http://parley.lan"});
  EXPECT_FALSE(refused.started());
  EXPECT_EQ(refused.exit_status_within(std::chrono::seconds(30)), 2);
  EXPECT_NE(refused.output().find("--allowed-host: 'http://parley.lan' is not a host name"), std::string::npos)
      << refused.output();
}

TEST_F(CrossSiteTest, JsonRoutesRefuseOtherContentTypesAndCreateNothing) {
  start_with_page();
  // What a page of another site can send without a CORS preflight: text/plain, a form, multipart.
  for (const char* type : {"text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
                           "multipart/form-data; boundary=x", "application/jsonp", "text/json"}) {
    const auto reply = create_with({{"Content-Type", type}});
    EXPECT_EQ(reply.status, 415) << type;
    EXPECT_EQ(code_of(reply), "unsupported_media_type") << type;
    EXPECT_EQ(message_of(reply).rfind("Content-Type: expected application/json", 0), 0U) << message_of(reply);
  }
  EXPECT_EQ(dialog_total(), 0);
  EXPECT_TRUE(client().get("/api/dialogs").json().at("dialogs").as_array().empty());

  // application/json with parameters, in any case, is fine.
  const auto created = create_with({{"Content-Type", "Application/JSON; charset=utf-8"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id(created.json().at("dialog").at("id").as_string());
  ASSERT_TRUE(eventually_says(id, "ok: hello"));
  const auto said = client().request("POST", "/api/dialogs/" + id + "/messages", R"({"content":"sneaky"})",
                                     {{"Content-Type", "text/plain"}});
  EXPECT_EQ(said.status, 415);
  EXPECT_EQ(messages(id).size(), 2U);  // the text/plain message was not posted
  EXPECT_EQ(dialog_total(), 1);
}

TEST_F(CrossSiteTest, AStateChangingRequestFromAForeignOriginIsRefusedAndCreatesNothing) {
  start_with_page();
  const std::string other_port = std::to_string(server_->port() == 65535 ? 1 : server_->port() + 1);
  for (const std::string& origin : std::vector<std::string>{
           "http://evil.example", "null", "http://127.0.0.1:" + other_port, "https://127.0.0.1.nip.io", "file://"}) {
    const auto reply = create_with({{"Origin", origin}});
    EXPECT_EQ(reply.status, 403) << origin;
    EXPECT_EQ(code_of(reply), "bad_origin") << origin;
    EXPECT_EQ(message_of(reply).rfind("Origin: '" + origin + "'", 0), 0U) << message_of(reply);
  }
  const auto cross_site = create_with({{"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(cross_site.status, 403);
  EXPECT_EQ(code_of(cross_site), "bad_origin");
  EXPECT_EQ(dialog_total(), 0);

  // Reads from a foreign origin pass this check (the browser keeps the answer from the page, and
  // the secret is needed anyway).
  EXPECT_EQ(client().request("GET", "/api/status", "", {{"Origin", "http://evil.example"}}).status, 200);
  // The server's own page may change things: its origin is the one the request was sent to.
  EXPECT_EQ(create_with({{"Origin", own_origin()}, {"Sec-Fetch-Site", "same-origin"}}).status, 201);
  EXPECT_EQ(create_with({{"Origin", "http://localhost:" + port_text()}, {"Host", "localhost:" + port_text()}}).status,
            201);
  EXPECT_EQ(dialog_total(), 2);
}

TEST_F(CrossSiteTest, TheCorsOriginMayChangeThings) {
  start_with_page({"--cors-origin", "http://localhost:5173"});
  const auto reply = create_with({{"Origin", "http://localhost:5173"}, {"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(reply.status, 201) << reply.body;
  EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "http://localhost:5173");
  EXPECT_EQ(create_with({{"Origin", "http://localhost:5174"}}).status, 403);
  EXPECT_EQ(dialog_total(), 1);
}

TEST_F(CrossSiteTest, AWebSocketUpgradeFromAForeignOriginIsRefused) {
  start_with_page();
  for (const char* origin : {"http://evil.example", "null"}) {
    ws_client foreign;
    EXPECT_FALSE(foreign.connect_with_headers(server_->port(), ws_client::protocols_with_token(server_->token()),
                                              {{"Origin", origin}}))
        << origin;
    EXPECT_EQ(foreign.handshake_status(), 403U) << origin;
  }
  ws_client cross_site;
  EXPECT_FALSE(cross_site.connect_with_headers(server_->port(), ws_client::protocols_with_token(server_->token()),
                                               {{"Sec-Fetch-Site", "cross-site"}}));
  EXPECT_EQ(cross_site.handshake_status(), 403U);

  ws_client own;
  ASSERT_TRUE(own.connect_with_headers(server_->port(), ws_client::protocols_with_token(server_->token()),
                                       {{"Origin", own_origin()}}));
  const auto welcome = own.next();
  ASSERT_TRUE(welcome);
  EXPECT_EQ(welcome->at("type"), "welcome");
}

TEST_F(CrossSiteTest, LoopbackWithoutATokenFlagStillNeedsTheProcessSecret) {
  start_with_page();
  ASSERT_EQ(server_->token().size(), 32U) << server_->output();  // printed as #token=
  const rest_client anonymous(server_->port());
  for (const char* target : {"/api/status", "/api/dialogs", "/api/questions"}) {
    const auto reply = anonymous.get(target);
    EXPECT_EQ(reply.status, 401) << target;
    EXPECT_EQ(code_of(reply), "unauthorized") << target;
  }
  EXPECT_EQ(anonymous.post("/api/dialogs", boost::json::value{{"content", "hello"}}).status, 401);
  EXPECT_EQ(rest_client(server_->port(), "0123456789abcdef0123456789abcdef").get("/api/dialogs").status, 401);
  EXPECT_EQ(dialog_total(), 0);

  ws_client no_secret;
  ASSERT_TRUE(no_secret.connect(server_->port(), "parley.v1"));
  EXPECT_EQ(no_secret.wait_closed(), 4401);
}

TEST_F(CrossSiteTest, TheServedPageCarriesTheSecretAndIsNeverStored) {
  start_with_page();
  const auto page = client().get("/");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.body, "<!doctype html><html><head><title>parley</title><meta name=\"parley-token\" content=\"" +
                           server_->token() + "\"></head><body></body></html>");
  EXPECT_EQ(page.header("Cache-Control"), "no-store");
  EXPECT_EQ(page.header("X-Frame-Options"), "DENY");
  EXPECT_EQ(page.header("Content-Security-Policy"), "frame-ancestors 'none'");
  EXPECT_EQ(page.header("Access-Control-Allow-Origin"), "");  // no other origin may read it
  // The single-page app's routes get the same page; the assets do not carry the secret.
  EXPECT_EQ(client().get("/dialogs/abc").body, page.body);
  const auto asset = client().get("/assets/app.js");
  EXPECT_EQ(asset.body.find(server_->token()), std::string::npos);
  EXPECT_EQ(asset.header("Cache-Control"), "public, max-age=3600");
}

TEST_F(CrossSiteTest, AGivenTokenIsNeverPutInThePage) {
  // --token is the operator's: whoever can load the page must not learn it from the page.
  start_with_page({"--token", "sesame-sesame-sesame"});
  const auto page = rest_client(server_->port()).get("/");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.body.find("sesame"), std::string::npos);
  EXPECT_EQ(page.body.find("parley-token"), std::string::npos);
  EXPECT_EQ(page.header("Cache-Control"), "no-cache");
}

}  // namespace
}  // namespace parley::test
