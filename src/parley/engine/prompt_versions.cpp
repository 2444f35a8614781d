#include "parley/engine/prompt_versions.hpp"

#include <boost/json/serialize.hpp>

#include <functional>

#include "parley/engine/taskdoc.hpp"

namespace parley::engine {
namespace {

// Enough for every dialog of a busy server to keep its version warm; past it the cache starts over
// (a miss costs one SHA-256 of the prompt).
constexpr std::size_t kSeenLimit = 4096;

}  // namespace

std::size_t prompt_versions::seen_key_hash::operator()(const seen_key& key) const noexcept {
  return key.prompt_hash ^ (std::hash<const void*>{}(key.tools) * 31U) ^ key.prompt_size;
}

const std::string& prompt_versions::tools_digest(const llm::tool_list& tools) {
  static const std::string no_tools;
  if (!tools) return no_tools;
  auto found = tool_digests_.find(tools);
  if (found != tool_digests_.end()) return found->second;
  std::string described;
  for (const auto& spec : *tools) {
    described += spec.name;
    described += '\0';
    described += spec.description;
    described += '\0';
    described += boost::json::serialize(spec.parameters);
    described += '\n';
  }
  // An empty list tells the model what no list does.
  return tool_digests_.emplace(tools, described.empty() ? std::string() : content_hash(described)).first->second;
}

std::string prompt_versions::version_of(const llm::model_request& request) {
  const seen_key key{std::hash<std::string_view>{}(request.system_prompt), request.system_prompt.size(),
                     request.tools.get()};
  if (auto found = seen_.find(key); found != seen_.end()) return found->second;
  std::string hashed = request.system_prompt;
  hashed += '\0';
  hashed += tools_digest(request.tools);
  std::string version = "pv-" + content_hash(hashed);
  if (seen_.size() >= kSeenLimit) seen_.clear();
  seen_.emplace(key, version);
  return version;
}

}  // namespace parley::engine
