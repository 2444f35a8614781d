#include "parley/server/prompt_log.hpp"

#include <map>
#include <string>

namespace parley::server {

result<std::vector<logged_prompt>> read_logged_prompts(store& log, std::string_view dialog_id) {
  auto events = log.read_events(dialog_id);
  if (!events) return std::move(events).err();
  std::vector<logged_prompt> prompts;
  std::map<std::string, std::size_t, std::less<>> latest_of_version;
  for (auto& ev : *events) {
    if (auto* logged = std::get_if<events::prompt_logged>(&ev.payload)) {
      latest_of_version[logged->version] = prompts.size();
      prompts.push_back(logged_prompt{std::move(*logged), ev.seq, ev.ts_ms, {}});
    } else if (const auto* finished = ev.as<events::generation_finished>()) {
      if (!finished->prompt_version) continue;
      const auto found = latest_of_version.find(*finished->prompt_version);
      if (found != latest_of_version.end()) prompts[found->second].genseqs.push_back(finished->genseq);
    }
  }
  return prompts;
}

}  // namespace parley::server
