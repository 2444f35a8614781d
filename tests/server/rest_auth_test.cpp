// Black-box: tokens and CORS. A token given on loopback is enforced; static files stay public.
#include "rest_fixture.hpp"

namespace parley::test {
namespace {

TEST_F(RestTest, ATokenOnLoopbackIsEnforced) {
  start("q4h", {"--host", "127.0.0.1", "--token", "sesame"});
  EXPECT_EQ(server_->token(), "sesame");  // printed in the URL
  const rest_client anonymous(server_->port());
  auto reply = anonymous.get("/api/status");
  EXPECT_EQ(reply.status, 401);
  EXPECT_EQ(reply.json().at("error").at("code"), "unauthorized");
  reply = rest_client(server_->port(), "wrong").get("/api/dialogs");
  EXPECT_EQ(reply.status, 401);
  reply = rest_client(server_->port(), "sesam").get("/api/dialogs");
  EXPECT_EQ(reply.status, 401);
  reply = anonymous.request("GET", "/api/status", "", {{"Authorization", "Basic c2VzYW1l"}});
  EXPECT_EQ(reply.status, 401);
  EXPECT_EQ(anonymous.post("/api/dialogs", boost::json::value{{"content", "sneak in"}}).status, 401);

  reply = client().get("/api/status");
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.json().at("authRequired"), true);
  reply = anonymous.request("GET", "/api/status", "", {{"Authorization", "bearer sesame"}});
  EXPECT_EQ(reply.status, 200);                                   // the scheme is case-insensitive
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 0);  // the anonymous POST stored nothing
  // Static files carry no data and need no token.
  EXPECT_NE(anonymous.get("/").status, 401);
  // No CORS headers unless asked for.
  EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "");
}

TEST_F(RestTest, CorsHeadersAndPreflightOnlyWithAnOrigin) {
  start("q4h", {"--cors-origin", "http://localhost:5173"});
  const auto reply = client().get("/api/status");
  EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "http://localhost:5173");
  const auto preflight = client().request(
      "OPTIONS", "/api/dialogs", "", {{"Origin", "http://localhost:5173"}, {"Access-Control-Request-Method", "POST"}});
  EXPECT_EQ(preflight.status, 204);
  EXPECT_EQ(preflight.header("Access-Control-Allow-Origin"), "http://localhost:5173");
  EXPECT_NE(preflight.header("Access-Control-Allow-Methods").find("POST"), std::string::npos);
  EXPECT_NE(preflight.header("Access-Control-Allow-Headers").find("Authorization"), std::string::npos);
}

}  // namespace
}  // namespace parley::test
