// Black-box: the web UI's static files — MIME types, the single-page-app fallback, and every way
// out of the web root refused (.., encoded .., absolute paths, symlinks).
#include <fstream>

#include "rest_fixture.hpp"

namespace parley::test {
namespace {

class StaticTest : public RestTest {
 protected:
  void SetUp() override {
    RestTest::SetUp();
    web_ = root_ / "web";
    std::filesystem::create_directories(web_ / "assets");
    std::ofstream(web_ / "index.html") << "<!doctype html><title>parley</title>";
    std::ofstream(web_ / "assets" / "app.js") << "console.log('parley');";
    std::ofstream(web_ / "assets" / "app.css") << "body{}";
    std::ofstream(web_ / "icon.svg") << "<svg/>";
    std::ofstream(root_ / "secret.txt") << "TOP SECRET";
    std::filesystem::create_symlink(root_ / "secret.txt", web_ / "leak.txt");
    std::filesystem::create_directory_symlink(root_, web_ / "up");
    start("q4h", {"--web", web_.string()});
  }
  // index.html as served on loopback without --token: the process's secret in the head.
  std::string index_with_secret() const {
    return "<!doctype html><meta name=\"parley-token\" content=\"" + server_->token() + "\"><title>parley</title>";
  }
  std::filesystem::path web_;
};

TEST_F(StaticTest, ServesFilesWithTheirTypes) {
  auto reply = client().get("/");
  ASSERT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("Content-Type"), "text/html; charset=utf-8");
  EXPECT_EQ(reply.body, index_with_secret());
  reply = client().get("/assets/app.js?v=3");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("Content-Type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(reply.body, "console.log('parley');");
  EXPECT_EQ(client().get("/assets/app.css").header("Content-Type"), "text/css; charset=utf-8");
  EXPECT_EQ(client().get("/icon.svg").header("Content-Type"), "image/svg+xml");
  const auto head = client().request("HEAD", "/assets/app.js", "");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("Content-Length"), "22");
}

TEST_F(StaticTest, UnknownRoutesGetIndexButMissingAssetsAre404) {
  auto reply = client().get("/dialogs/abc123");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, index_with_secret());
  EXPECT_EQ(client().get("/assets/missing.js").status, 404);
  EXPECT_EQ(client().post("/index.html", std::string("{}")).status, 405);
}

TEST_F(StaticTest, NothingOutsideTheWebRoot) {
  for (const char* target :
       {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt", "/leak.txt", "/up/secret.txt", "/..%5csecret.txt", "/%00", "/%zz"}) {
    const auto reply = client().raw(std::string("GET ") + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    EXPECT_NE(reply.status, 200) << target;
    EXPECT_NE(reply.status, 0) << target;  // answered, not dropped
    EXPECT_EQ(reply.body.find("TOP SECRET"), std::string::npos) << target;
  }
  // A doubled slash stays inside the root (here: the app's fallback page), never the system's /etc.
  EXPECT_EQ(client().get("//etc/passwd").body.find("root:"), std::string::npos);
  // (Host: 127.0.0.1, so the path is what these reach, not the Host check.)
  const auto absolute = client().raw("GET " + (root_ / "secret.txt").string() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_NE(absolute.status, 0);
  EXPECT_EQ(absolute.body.find("TOP SECRET"), std::string::npos);
  const auto absolute_form = client().raw("GET http://127.0.0.1/../secret.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_NE(absolute_form.status, 0);
  EXPECT_EQ(absolute_form.body.find("TOP SECRET"), std::string::npos);
}

}  // namespace
}  // namespace parley::test
