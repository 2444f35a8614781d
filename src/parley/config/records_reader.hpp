// team.yaml `records`: who analyses human messages and where embeddings come from (seed 002's
// intent_tags, emotion, topic_tags and embedding_vector; docs/team-yaml.md "Records"). Read after
// the members and providers, which it names.
#pragma once

#include "parley/config/team.hpp"
#include "parley/config/yaml_reader.hpp"

namespace parley::config::detail {

result<void> read_records(const map_reader& root, team_config& team);

}  // namespace parley::config::detail
