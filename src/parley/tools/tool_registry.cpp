#include <algorithm>
#include <set>

#include "parley/core/text.hpp"
#include "parley/tools/schema_check.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools {

void tool_registry::add(std::unique_ptr<tool> t) {
  std::string name = t->spec().name;
  tools_[std::move(name)] = std::move(t);
}

result<void> tool_registry::add_checked(std::unique_ptr<tool> t) {
  PARLEY_TRY(check_tool_schema(t->spec().parameters, t->spec().name));
  add(std::move(t));
  return ok();
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

std::unique_ptr<tool> tool_registry::release(std::string_view name) {
  const auto it = tools_.find(name);
  if (it == tools_.end()) return nullptr;
  auto taken = std::move(it->second);
  tools_.erase(it);
  return taken;
}

void tool_registry::add_toolset(std::string name, std::vector<std::string> tool_names, bool in_wildcard) {
  unavailable_toolsets_.erase(name);
  toolsets_[std::move(name)] = toolset_entry{std::move(tool_names), in_wildcard};
}

const std::vector<std::string>* tool_registry::toolset(std::string_view name) const {
  const auto it = toolsets_.find(name);
  return it == toolsets_.end() ? nullptr : &it->second.tool_names;
}

std::vector<std::string> tool_registry::toolset_names() const {
  std::vector<std::string> out;
  for (const auto& [name, unused] : toolsets_) out.push_back(name);
  return out;
}

void tool_registry::add_unavailable_toolset(std::string name, std::string missing) {
  toolsets_.erase(name);
  unavailable_toolsets_[std::move(name)] = std::move(missing);
}

const std::string* tool_registry::unavailable_toolset(std::string_view name) const {
  const auto it = unavailable_toolsets_.find(name);
  return it == unavailable_toolsets_.end() ? nullptr : &it->second;
}

result<std::vector<std::string>> tool_registry::resolve_toolsets(const std::vector<std::string>& names) const {
  std::set<std::string, std::less<>> excluded;
  for (const auto& name : names) {
    if (name.size() > 1 && name.front() == '!') excluded.insert(name.substr(1));
  }
  std::vector<std::string> tool_names;
  std::set<std::string, std::less<>> taken;
  auto take = [&](const toolset_entry& set) {
    for (const auto& tool_name : set.tool_names) {
      if (taken.insert(tool_name).second) tool_names.push_back(tool_name);
    }
  };
  for (const auto& name : names) {
    if (name.starts_with('!')) {
      const std::string_view left_out = std::string_view(name).substr(1);
      if (!toolsets_.contains(left_out) && !unavailable_toolsets_.contains(left_out)) {
        return make_error(errc::config_error, "unknown toolset '" + std::string(left_out) + "' after '!'" +
                                                  did_you_mean(left_out, toolset_names()));
      }
      continue;
    }
    if (name == "*") {
      // Like Dominds' `*`: every toolset a team may be given by name, less the excluded ones;
      // those Parley has no tools for are simply not among them.
      for (const auto& [set_name, set] : toolsets_) {
        if (set.in_wildcard && !excluded.contains(set_name)) take(set);
      }
      continue;
    }
    if (excluded.contains(name)) continue;
    if (const auto* missing = unavailable_toolset(name)) {
      return make_error(errc::config_error,
                        "toolset '" + name + "' (Dominds) has no equivalent in Parley: " + *missing);
    }
    const auto it = toolsets_.find(name);
    if (it == toolsets_.end()) {
      return make_error(errc::config_error, "unknown toolset '" + name + "'" + did_you_mean(name, toolset_names()));
    }
    take(it->second);
  }
  return tool_names;
}

}  // namespace parley::tools
