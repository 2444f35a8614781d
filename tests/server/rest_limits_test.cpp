// What an unauthenticated or greedy client can make the server hold: the token is checked on the
// header, before any body is read, and open connections are capped in all and per address.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

namespace asio = boost::asio;

// An open, idle connection to the server (it holds one of the server's connection slots).
asio::ip::tcp::socket idle_connection(asio::io_context& io, std::uint16_t port) {
  asio::ip::tcp::socket socket(io);
  socket.connect({asio::ip::make_address("127.0.0.1"), port});
  return socket;
}

TEST_F(RestTest, AMissingTokenIsRefusedOnTheHeaderBeforeAnyBodyIsRead) {
  start("q4h");
  // Announces 10 MiB and sends none of it: a server that read bodies before checking the token
  // would sit waiting for them instead of answering.
  const auto reply = client().raw(
      "POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\n"
      "Content-Length: 10485760\r\n\r\n");
  EXPECT_EQ(reply.status, 401) << reply.body;
  EXPECT_NE(reply.body.find("unauthorized"), std::string::npos) << reply.body;
  const auto json = client().raw(
      "POST /api/dialogs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Authorization: Bearer wrong-token\r\nContent-Length: 1000000\r\n\r\n");
  EXPECT_EQ(json.status, 401) << json.body;
  EXPECT_EQ(client().get("/api/dialogs").json().at("total"), 0);
}

// An upload over its limit is refused naming the upload limit (10 MiB by default), not the 1 MiB
// of JSON bodies, also when the declared length is past both.
TEST_F(RestTest, AnOversizedUploadIsRefusedNamingTheUploadLimit) {
  start("q4h");
  const auto reply = client().raw(
      "POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: image/png\r\n"
      "Authorization: Bearer " +
      server_->token() + "\r\nContent-Length: 20000000\r\n\r\n");
  EXPECT_EQ(reply.status, 413) << reply.body;
  EXPECT_NE(reply.body.find("body: larger than 10485760 bytes"), std::string::npos) << reply.body;
}

TEST_F(RestTest, ConnectionsPastThePerClientLimitAreClosedAndSlotsComeBack) {
  start("q4h", {"--max-connections-per-client", "3"});
  asio::io_context io;
  std::vector<asio::ip::tcp::socket> held;
  held.reserve(3);
  for (int i = 0; i < 3; ++i) held.push_back(idle_connection(io, server_->port()));
  // The server counts a connection once it has accepted it; give it the moment that takes.
  EXPECT_TRUE(eventually([&] { return client().get("/api/status").status == 0; }));
  held.pop_back();  // one slot comes back when a connection ends
  EXPECT_TRUE(eventually([&] { return client().get("/api/status").status == 200; }));
}

TEST_F(RestTest, ConnectionLimitsThatAreNotCountsAreRefusedAtStart) {
  server_process bad({"--team",
                      (std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/server/teams/q4h/team.yaml").string(),
                      "--data", data_dir().string(), "--max-connections", "0"});
  EXPECT_FALSE(bad.started());
  EXPECT_NE(bad.output().find("--max-connections"), std::string::npos) << bad.output();
}

}  // namespace
}  // namespace parley::test
