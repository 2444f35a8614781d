// The body of `POST /v1/chat/completions`, read strictly into a typed request (docs/server.md,
// "OpenAI-compatible endpoint"). A field Parley reads and finds of the wrong type is refused naming
// it, never taken as its default; fields Parley does not use (temperature, tools, ...) are accepted
// and ignored, as OpenAI clients send them freely. `null` counts as absent for the optional
// fields, as in OpenAI's API.
//
// Problems are invalid_argument errors whose message starts with the field's path and a colon
// ("messages[2].role: expected one of ..."), like every request the server reads; the endpoint
// turns that path into the `param` of OpenAI's error object (openai_wire.hpp). A problem with the
// body as a whole starts with "body:".
#pragma once

#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"

namespace parley::server {

enum class chat_role { system, developer, user, assistant, tool };

struct chat_message {
  chat_role role = chat_role::user;
  // A string as sent, or the text parts joined with "\n"; empty for an assistant message whose
  // content is null (one that only called tools).
  std::string content;
};

struct chat_request {
  std::string model;                   // as sent: "parley/<member id>"
  std::vector<chat_message> messages;  // at least one, the last the user's with some text
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
  // OpenAI's end-user label: checked to be a string, not used (docs/server.md says why).
  std::optional<std::string> user;
};

// The body as JSON, then read_chat_request.
result<chat_request> parse_chat_request(std::string_view body);
result<chat_request> read_chat_request(const boost::json::object& body);

// The member a model name picks: "parley/lead" → "lead"; nullopt for a name of another shape.
std::optional<std::string_view> member_of_model(std::string_view model);

// The text a new root dialog gets as its first user message: the last user message alone, or,
// when `messages` holds more, the earlier ones as a transcript above it (docs/server.md).
std::string first_message_of(const chat_request& request);
// The text posted to a dialog that goes on: the last user message only (the earlier ones are in
// the dialog already).
const std::string& last_user_text(const chat_request& request);

std::string_view role_name(chat_role role);

}  // namespace parley::server
