// The body of POST /v1/chat/completions (server/openai_chat_request.hpp), as any client sends it.
// Invariants:
//  - reading never throws: a refusal is errc::invalid_argument whose message starts with the
//    field's path or "body:", then ": " (what the endpoint turns into OpenAI's `param`);
//  - an accepted request has a model and at least one message, its last the user's, and the
//    first message a new dialog would get holds the last user message's text.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "parley/server/openai_chat_request.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = parley::fuzz::as_text(data, size);
  auto request = parley::server::parse_chat_request(text);
  if (!request) {
    const auto& message = request.err().message;
    FUZZ_CHECK(request.err().code == parley::errc::invalid_argument, message);
    FUZZ_CHECK(message.find(": ") != std::string::npos && message.find(": ") > 0, message);
    return 0;
  }
  FUZZ_CHECK(!request->messages.empty(), std::string(text));
  FUZZ_CHECK(request->messages.back().role == parley::server::chat_role::user, std::string(text));
  const auto& last = parley::server::last_user_text(*request);
  FUZZ_CHECK(parley::server::first_message_of(*request).find(last) != std::string::npos, std::string(text));
  (void)parley::server::member_of_model(request->model);
  return 0;
}
