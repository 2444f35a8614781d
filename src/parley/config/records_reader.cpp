#include "parley/config/records_reader.hpp"

#include "parley/config/team_rules.hpp"

namespace parley::config::detail {
namespace {

const std::vector<std::string> kRecordsKeys{"analyst", "embeddings"};
const std::vector<std::string> kEmbeddingsKeys{"provider", "model", "dimensions"};
constexpr std::int64_t kMaxDimensions = 8192;  // model/embedding_vector.hpp's bound

// The analyst is a member the engine drives with a model (not a flow).
result<void> read_analyst(const map_reader& records, team_config& team) {
  const map_reader::entry* item = records.find("analyst");
  if (item == nullptr) return ok();
  std::string id;
  PARLEY_TRY(records.read_nonempty("analyst", id));
  const member_config* member = team.find_member(id);
  if (member == nullptr) return records.fail_at_value(*item, unknown_name_problem("member", id, team.member_ids()));
  if (member->kind != member_kind::llm) {
    return records.fail_at_value(*item, "member '" + id + "' is a flow; the analyst must be a model member");
  }
  team.records.analyst = std::move(id);
  return ok();
}

result<void> read_embeddings(const map_reader& records, team_config& team) {
  auto map = records.child("embeddings");
  if (!map) return std::move(map).err();
  if (!map->has_value()) return ok();
  const map_reader& embeddings = **map;
  PARLEY_TRY(embeddings.check_keys(kEmbeddingsKeys));
  embeddings_config out;
  auto provider = embeddings.require_nonempty("provider", "a provider of kind openai");
  if (!provider) return std::move(provider).err();
  out.provider = std::move(*provider);
  const map_reader::entry* provider_item = embeddings.find("provider");
  const provider_config* spec = team.find_provider(out.provider);
  std::vector<std::string> provider_ids;
  for (const auto& p : team.providers) provider_ids.push_back(p.id);
  if (spec == nullptr) {
    return embeddings.fail_at_value(*provider_item, unknown_name_problem("provider", out.provider, provider_ids));
  }
  if (spec->kind != provider_kind::openai) {
    return embeddings.fail_at_value(*provider_item, "provider '" + out.provider + "' is of kind '" +
                                                        std::string(to_name(spec->kind)) +
                                                        "'; embeddings need an OpenAI-compatible one (kind openai)");
  }
  auto model = embeddings.require_nonempty("model", "the embedding model's name");
  if (!model) return std::move(model).err();
  out.model = std::move(*model);
  if (!embeddings.has("dimensions")) return embeddings.missing("dimensions", "the length of every vector");
  PARLEY_TRY(embeddings.read_positive("dimensions", out.dimensions));
  if (out.dimensions > kMaxDimensions) {
    return embeddings.fail_at_value(
        *embeddings.find("dimensions"),
        "got " + std::to_string(out.dimensions) + " (expected at most " + std::to_string(kMaxDimensions) + ")");
  }
  team.records.embeddings = std::move(out);
  return ok();
}

}  // namespace

result<void> read_records(const map_reader& root, team_config& team) {
  auto map = root.child("records");
  if (!map) return std::move(map).err();
  if (!map->has_value()) return ok();
  PARLEY_TRY((*map)->check_keys(kRecordsKeys));
  PARLEY_TRY(read_analyst(**map, team));
  return read_embeddings(**map, team);
}

}  // namespace parley::config::detail
