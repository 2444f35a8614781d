// The version of a model request's prompt, seed 002's "每次 prompt 的内容与版本号": a hash of the
// system prompt and the tool specs, so two calls share a version exactly when their model was told
// the same rules and offered the same tools (the context messages are the dialog's own events).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include "parley/llm/provider.hpp"

namespace parley::engine {

class prompt_versions {
 public:
  // "pv-" and 16 hex digits of SHA-256 over the system prompt and the tools' names, descriptions
  // and parameter schemas. Hashed again only when a prompt not seen lately comes: the same
  // prompt and tool list are looked up by a quick hash.
  std::string version_of(const llm::model_request& request);

 private:
  const std::string& tools_digest(const llm::tool_list& tools);

  // Keyed by the list itself, which it keeps alive, so that a key is never reused by another list.
  std::map<llm::tool_list, std::string> tool_digests_;
  struct seen_key {
    std::size_t prompt_hash;
    std::size_t prompt_size;
    const void* tools;
    bool operator==(const seen_key&) const = default;
  };
  struct seen_key_hash {
    std::size_t operator()(const seen_key& key) const noexcept;
  };
  std::unordered_map<seen_key, std::string, seen_key_hash> seen_;
};

}  // namespace parley::engine
