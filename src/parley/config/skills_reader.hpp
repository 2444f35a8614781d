// Dominds' skills (dominds@1.29.0 dist/skills/load.js) read from a workspace's `.minds/skills/`:
// `team_shared/` for every member and `individual/<member>/` for one. A skill is a Markdown file
// `<id>.md`, `<id>.en.md`, `<id>.cn.md`, or a folder `<id>/` with `SKILL.md`, `SKILL.en.md` or
// `SKILL.cn.md`; the work language picks the variant (zh: cn, then plain; else en, then plain),
// and a skill without one is not listed. Its YAML frontmatter needs `name` and `description` and
// may have `allowed-tools` (a string of comma-separated names or a list), `user-invocable` and
// `disable-model-invocation` (booleans); any other key, a missing body, two files of one variant
// or a file over 256 KiB is an error naming the file and the key, as Dominds refuses them.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"

namespace parley::config::detail {

constexpr std::size_t kMaxSkillFileBytes = std::size_t{256} * 1024;

// Team-shared skills first, then each member's in `member_ids` order; each group sorted by id.
result<std::vector<skill_config>> read_dominds_skills(const std::filesystem::path& workspace,
                                                      const std::vector<std::string>& member_ids,
                                                      std::string_view language);

}  // namespace parley::config::detail
