// Internal: the reasoning items of a Responses API turn, kept with the assistant message it
// produced. They travel in the neutral `thinking_signature` (the provider's opaque proof of its
// thinking, which the engine logs and hands back untouched) as JSON text that names itself:
//   {"openaiReasoning":[{"id":"rs_1","encryptedContent":"gAAA...","summary":["..."]}]}
// Anthropic's signatures are base64 and never start with '{', so neither adapter sends the other's.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace parley::llm::responses {

struct reasoning_item {
  std::string id;
  std::string encrypted_content;  // empty when the server did not send it
  std::vector<std::string> summary;

  bool operator==(const reasoning_item&) const = default;
};

std::string encode_reasoning_items(const std::vector<reasoning_item>& items);

// The items of a signature made by encode_reasoning_items; nullopt for any other text (another
// provider's signature, a damaged one): such thinking is not sent back.
std::optional<std::vector<reasoning_item>> decode_reasoning_items(std::string_view signature);

}  // namespace parley::llm::responses
