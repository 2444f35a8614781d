// Black-box: what the OpenAI-compatible endpoint refuses, in OpenAI's error shape, and that a
// refused request changes nothing (docs/server.md, "OpenAI-compatible endpoint").
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>

#include "openai_fixture.hpp"
#include "test_users.hpp"

namespace parley::test {
namespace {

namespace json = boost::json;

struct bad_body {
  const char* body;
  const char* param;  // nullptr: the error names no field
};

// Each body is wrong in one way; the error's `param` names where.
const bad_body kBadBodies[] = {
    {"not json", nullptr},
    {"[1, 2]", nullptr},
    {R"({"messages": [{"role": "user", "content": "hi"}]})", "model"},
    {R"({"model": 5, "messages": [{"role": "user", "content": "hi"}]})", "model"},
    {R"({"model": "parley/lead"})", "messages"},
    {R"({"model": "parley/lead", "messages": "hi"})", "messages"},
    {R"({"model": "parley/lead", "messages": []})", "messages"},
    {R"({"model": "parley/lead", "messages": [5]})", "messages[0]"},
    {R"({"model": "parley/lead", "messages": [{"content": "hi"}]})", "messages[0].role"},
    {R"({"model": "parley/lead", "messages": [{"role": "robot", "content": "hi"}]})", "messages[0].role"},
    {R"({"model": "parley/lead", "messages": [{"role": 1, "content": "hi"}]})", "messages[0].role"},
    {R"({"model": "parley/lead", "messages": [{"role": "user"}]})", "messages[0].content"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": 7}]})", "messages[0].content"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": null}]})", "messages[0].content"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": ""}]})", "messages[0].content"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": [{"type": "image_url",
       "image_url": {"url": "https://example.com/a.png"}}]}]})",
     "messages[0].content[0].type"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": [{"type": "text"}]}]})",
     "messages[0].content[0].text"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": ["hi"]}]})", "messages[0].content[0]"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": "hi", "name": 3}]})", "messages[0].name"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": "hi"},
       {"role": "assistant", "content": "yo"}]})",
     "messages[1].role"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": "hi"}], "stream": "yes"})", "stream"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": "hi"}],
       "stream_options": {"include_usage": true}})",
     "stream_options"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": "hi"}], "stream": true,
       "stream_options": {"include_usage": 1}})",
     "stream_options.include_usage"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": "hi"}], "user": 5})", "user"},
    {R"({"model": "parley/lead", "messages": [{"role": "user", "content": "hi"}], "n": 2})", "n"},
};

TEST_F(OpenAiTest, ABadFieldIsRefusedNamingItAndNothingIsMade) {
  start("q4h");
  for (const auto& bad : kBadBodies) {
    SCOPED_TRACE(bad.body);
    const auto reply = chat_text(bad.body);
    EXPECT_EQ(reply.status, 400) << reply.body;
    const auto error = error_of(reply);
    ASSERT_TRUE(error.is_object()) << reply.body;
    EXPECT_EQ(error.at("type"), "invalid_request_error");
    EXPECT_FALSE(error.at("message").as_string().empty());
    if (bad.param == nullptr) {
      EXPECT_TRUE(error.at("param").is_null()) << reply.body;
    } else {
      EXPECT_EQ(error.at("param"), bad.param) << reply.body;
    }
  }
  EXPECT_EQ(root_dialogs(), 0);
}

TEST_F(OpenAiTest, FieldsParleyDoesNotUseAreIgnored) {
  start("q4h");
  auto request = ask("lead", "hi");
  request["temperature"] = 0.2;
  request["top_p"] = 1;
  request["max_tokens"] = 64;
  request["tools"] = json::array{json::object{{"type", "function"}}};
  request["stream"] = nullptr;  // null is absent, as in OpenAI's API
  request["user"] = "someone@example.com";
  request["n"] = 1;
  const auto reply = chat(request);
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(content_of(reply), "ok: hi");
}

TEST_F(OpenAiTest, AnUnknownModelOrDialogIsNotFound) {
  start("q4h");
  for (const char* model : {"parley/nobody", "gpt-4o", "parley/"}) {
    auto request = ask("lead", "hi");
    request["model"] = model;
    const auto reply = chat(request);
    EXPECT_EQ(reply.status, 404) << reply.body;
    EXPECT_EQ(error_of(reply).at("code"), "model_not_found");
    EXPECT_EQ(error_of(reply).at("param"), "model");
  }
  const auto reply = chat(ask("lead", "hi"), {{"X-Parley-Dialog-Id", "0123456789abcdef"}});
  EXPECT_EQ(reply.status, 404) << reply.body;
  EXPECT_EQ(error_of(reply).at("code"), "dialog_not_found");
  EXPECT_EQ(client().post("/v1/completions", std::string("{}")).status, 404);
  EXPECT_EQ(client().get("/v1/chat/completions").status, 405);
  EXPECT_EQ(root_dialogs(), 0);
}

TEST_F(OpenAiTest, TheTokenIsRequiredLikeForTheApi) {
  start("q4h", {"--token", "sesame-sesame-sesame"});
  const rest_client anonymous(server_->port());
  for (const auto& reply : {anonymous.get("/v1/models"), anonymous.post("/v1/chat/completions", ask("lead", "hi")),
                            rest_client(server_->port(), "wrong").get("/v1/models")}) {
    EXPECT_EQ(reply.status, 401) << reply.body;
    EXPECT_EQ(error_of(reply).at("code"), "invalid_api_key") << reply.body;
  }
  // Refused on the header: the body it announces (within what a header may announce) is never read.
  const auto big = anonymous.raw(
      "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Content-Length: 1000000\r\n\r\n{");
  EXPECT_EQ(big.status, 401) << big.body;
  EXPECT_EQ(client().get("/v1/models").status, 200);
  EXPECT_EQ(root_dialogs(), 0);
}

TEST_F(OpenAiTest, ACrossSitePageIsRefused) {
  start("q4h");
  const auto reply = chat(ask("lead", "hi"), {{"Origin", "http://evil.example"}});
  EXPECT_EQ(reply.status, 403) << reply.body;
  EXPECT_EQ(error_of(reply).at("code"), "bad_origin");
  const auto rebound = client().request("GET", "/v1/models", "", {{"Host", "evil.example"}});
  EXPECT_EQ(rebound.status, 403) << rebound.body;
  EXPECT_EQ(root_dialogs(), 0);
}

TEST_F(OpenAiTest, TheCorsOriginMayCallAndReadTheDialogId) {
  start("q4h", {"--cors-origin", "http://localhost:5173"});
  const auto preflight =
      client().request("OPTIONS", "/v1/chat/completions", "",
                       {{"Origin", "http://localhost:5173"}, {"Access-Control-Request-Method", "POST"}});
  EXPECT_EQ(preflight.status, 204);
  EXPECT_NE(preflight.header("Access-Control-Allow-Headers").find("X-Parley-Dialog-Id"), std::string::npos);
  const auto reply = chat(ask("lead", "hi"), {{"Origin", "http://localhost:5173"}});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "http://localhost:5173");
  EXPECT_EQ(reply.header("Access-Control-Expose-Headers"), "X-Parley-Dialog-Id");
}

TEST_F(OpenAiTest, OnlyJsonOfBoundedSize) {
  start("q4h");
  const auto typed = chat(ask("lead", "hi"), {{"Content-Type", "text/plain"}});
  EXPECT_EQ(typed.status, 415) << typed.body;
  EXPECT_EQ(error_of(typed).at("code"), "unsupported_media_type");
  const auto large = chat(ask("lead", std::string(2 * 1024 * 1024, 'x')));
  EXPECT_EQ(large.status, 413) << large.body;
  EXPECT_TRUE(error_of(large).is_object()) << large.body;
  EXPECT_EQ(root_dialogs(), 0);
}

TEST_F(OpenAiTest, AUserGoesOnOnlyWithTheirOwnDialogs) {
  const auto users_file = (root_ / "users.yaml").string();
  std::ofstream(users_file) << "users:\n  - {id: ann, token: " << kAnn << "}\n  - {id: ben, token: " << kBen << "}\n";
  ::chmod(users_file.c_str(), 0600);
  start("q4h", {"--users", users_file});
  const rest_client ann(server_->port(), kAnn);
  const rest_client ben(server_->port(), kBen);
  const auto first = ann.post("/v1/chat/completions", ask("lead", "mine"));
  ASSERT_EQ(first.status, 200) << first.body;
  const auto id = first.header("X-Parley-Dialog-Id");
  const std::string next = json::serialize(ask("lead", "also mine"));
  const auto stolen = ben.request("POST", "/v1/chat/completions", next, {{"X-Parley-Dialog-Id", id}});
  EXPECT_EQ(stolen.status, 404) << stolen.body;
  EXPECT_EQ(error_of(stolen).at("code"), "dialog_not_found");
  const auto own = ann.request("POST", "/v1/chat/completions", next, {{"X-Parley-Dialog-Id", id}});
  ASSERT_EQ(own.status, 200) << own.body;
  EXPECT_EQ(content_of(own), "ok: also mine");
  EXPECT_EQ(ben.get("/api/dialogs/" + id).status, 404);  // the dialog is Ann's
}

}  // namespace
}  // namespace parley::test
