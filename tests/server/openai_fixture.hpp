// The fixture of the OpenAI-compatible endpoint's tests (openai_*_test.cpp): `parley serve` on a
// test team, a chat completion in one call, and the Server-Sent Events of a streamed one read
// back into their JSON payloads.
#pragma once

#include <boost/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "rest_fixture.hpp"

namespace parley::test {

// The events of an SSE body: each `data:` payload, "[DONE]" as it is.
inline std::vector<std::string> sse_payloads(const std::string& body) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < body.size()) {
    auto end = body.find("\n\n", at);
    if (end == std::string::npos) end = body.size();
    const std::string event = body.substr(at, end - at);
    if (event.rfind("data: ", 0) == 0) out.push_back(event.substr(6));
    at = end + 2;
  }
  return out;
}

class OpenAiTest : public RestTest {
 protected:
  // POST /v1/chat/completions with `body` as it is (a JSON text, or anything else).
  http_reply chat_text(const std::string& body, const std::map<std::string, std::string>& headers = {}) const {
    return client().request("POST", "/v1/chat/completions", body, headers);
  }
  http_reply chat(const boost::json::value& body, const std::map<std::string, std::string>& headers = {}) const {
    return chat_text(boost::json::serialize(body), headers);
  }
  // A request to `member` with one user message.
  static boost::json::object ask(const std::string& member, const std::string& text) {
    boost::json::array messages{boost::json::object{{"role", "user"}, {"content", text}}};
    return boost::json::object{{"model", "parley/" + member}, {"messages", std::move(messages)}};
  }
  static std::string content_of(const http_reply& reply) {
    const auto body = reply.json();
    if (!body.is_object() || !body.as_object().contains("choices")) return "(no choices: " + reply.body + ")";
    return std::string(body.at("choices").at(0).at("message").at("content").as_string());
  }
  // The `error` object of an OpenAI-shaped refusal; null when the reply has none.
  static boost::json::value error_of(const http_reply& reply) {
    const auto body = reply.json();
    if (!body.is_object() || !body.as_object().contains("error")) return nullptr;
    return body.at("error");
  }
  std::int64_t root_dialogs() const {
    const auto body = client().get("/api/dialogs").json();
    return body.is_object() ? body.at("total").as_int64() : -1;
  }
};

}  // namespace parley::test
