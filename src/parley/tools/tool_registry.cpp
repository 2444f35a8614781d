#include "parley/tools/tool.hpp"

namespace parley::tools {

void tool_registry::add(std::unique_ptr<tool> t) {
  std::string name = t->spec().name;
  tools_[std::move(name)] = std::move(t);
}

tool* tool_registry::find(std::string_view name) const {
  const auto it = tools_.find(name);
  return it == tools_.end() ? nullptr : it->second.get();
}

std::vector<std::string> tool_registry::names() const {
  std::vector<std::string> out;
  out.reserve(tools_.size());
  for (const auto& [name, unused] : tools_) out.push_back(name);
  return out;
}

void tool_registry::add_toolset(std::string name, std::vector<std::string> tool_names) {
  toolsets_[std::move(name)] = std::move(tool_names);
}

const std::vector<std::string>* tool_registry::toolset(std::string_view name) const {
  const auto it = toolsets_.find(name);
  return it == toolsets_.end() ? nullptr : &it->second;
}

std::vector<std::string> tool_registry::toolset_names() const {
  std::vector<std::string> out;
  for (const auto& [name, unused] : toolsets_) out.push_back(name);
  return out;
}

}  // namespace parley::tools
