#include "parley/config/team.hpp"

namespace parley::config {

const member_config* team_config::find_member(std::string_view id) const {
  for (const auto& member : members) {
    if (member.id == id) return &member;
  }
  return nullptr;
}

const provider_config* team_config::find_provider(std::string_view id) const {
  for (const auto& provider : providers) {
    if (provider.id == id) return &provider;
  }
  return nullptr;
}

const model_info* team_config::find_model(const member_config& member) const {
  const auto* provider = find_provider(member.provider);
  if (provider == nullptr) return nullptr;
  for (const auto& model : provider->model_details) {
    if (model.id == member.model) return &model;
  }
  return nullptr;
}

std::vector<std::string> team_config::member_ids() const {
  std::vector<std::string> ids;
  ids.reserve(members.size());
  for (const auto& member : members) ids.push_back(member.id);
  return ids;
}

}  // namespace parley::config
