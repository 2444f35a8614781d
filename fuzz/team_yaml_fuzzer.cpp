// Team and workspace YAML (config/team.hpp): an input is a team.yaml; the part after a line
// `### llm.yaml` is also a Dominds `.minds/llm.yaml`. The input is loaded three ways: as Parley's
// team.yaml, as a Dominds workspace (`.minds/team.yaml` + `.minds/llm.yaml`), and as a YAML tree
// converted to JSON (yaml_to_json).
//  - Nothing throws (yaml-cpp does; the loaders must catch it).
//  - An error names the file it is about and is UTF-8 text.
//  - A loaded team holds together: valid, distinct member ids; each member's provider exists;
//    the default member and the media members exist; known kinds and syntaxes; positive limits;
//    a workspace that is a folder; every text and parameter is UTF-8 JSON can carry (they go into
//    the log and to every model).
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_support.hpp"
#include "parley/config/team.hpp"
#include "parley/config/yaml_value.hpp"
#include "parley/core/json_check.hpp"
#include "parley/core/utf8.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

bool is_id(std::string_view s) {
  const auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (s.empty() || !alpha(s.front())) return false;
  return std::all_of(s.begin(), s.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-'; });
}

void check_text(std::string_view text, const std::string& what) {
  FUZZ_CHECK(is_valid_utf8(text), what + " is not UTF-8");
}

void check_team(const config::team_config& team) {
  FUZZ_CHECK(std::filesystem::is_directory(team.workspace), "the workspace is not a folder");
  FUZZ_CHECK(team.language == "en" || team.language == "zh", "language " + team.language);
  FUZZ_CHECK(team.limits.max_message_bytes > 0, "max_message_bytes <= 0");
  FUZZ_CHECK(team.limits.critical_context_rounds > 0, "critical_context_rounds <= 0");
  std::set<std::string> provider_ids;
  for (const auto& provider : team.providers) {
    FUZZ_CHECK(provider_ids.insert(provider.id).second, "two providers named " + provider.id);
    // Its kind is an enum; only a provider Parley cannot use is none, and then it says why (a
    // Dominds workspace keeps it as a problem of the members that name it: docs/team-yaml.md).
    FUZZ_CHECK(provider.kind != config::provider_kind::none || (team.lenient && !provider.unavailable.empty()),
               "a provider of kind none that does not say why it cannot be used");
    if (provider.kind == config::provider_kind::scripted) {
      FUZZ_CHECK(std::filesystem::is_regular_file(provider.script), "a scripted provider without a script file");
    }
    for (const auto& model : provider.model_details) {
      FUZZ_CHECK(model.context_window >= 0, "a negative context window");
      check_text(model.id, "a model id");
    }
    for (const auto& model : provider.models) check_text(model, "a model name");
  }
  std::set<std::string> member_ids;
  for (const auto& member : team.members) {
    FUZZ_CHECK(is_id(member.id), "invalid member id '" + member.id + "'");
    FUZZ_CHECK(member_ids.insert(member.id).second, "two members named " + member.id);
    FUZZ_CHECK(team.find_provider(member.provider) != nullptr,
               "member " + member.id + " talks to unknown provider '" + member.provider + "'");
    FUZZ_CHECK(member.max_tool_rounds > 0, "max_tool_rounds <= 0");
    FUZZ_CHECK(member.max_tellask_depth > 0, "max_tellask_depth <= 0");
    check_text(member.name, "a member name");
    check_text(member.persona, "a persona");
    check_text(member.model, "a model");
    for (const auto& tool : member.tools) check_text(tool, "a tool name");
    for (const auto& set : member.toolsets) check_text(set, "a toolset name");
    if (auto problem = find_unwritable_json(member.model_params, "model_params")) {
      FUZZ_CHECK(false, "member " + member.id + " has model_params JSON cannot carry: " + problem->message());
    }
  }
  if (!team.default_member.empty()) {
    FUZZ_CHECK(team.find_member(team.default_member) != nullptr, "unknown default member " + team.default_member);
  }
  if (!team.media.captioner.empty()) {
    const auto* captioner = team.find_member(team.media.captioner);
    FUZZ_CHECK(captioner != nullptr && captioner->vision, "a captioner that does not see");
  }
  if (!team.media.transcriber.empty()) {
    const auto* transcriber = team.find_member(team.media.transcriber);
    FUZZ_CHECK(transcriber != nullptr && transcriber->audio, "a transcriber that does not hear");
  }
}

void check_loaded(const result<config::team_config>& loaded, const std::filesystem::path& about) {
  if (!loaded) {
    const std::string& message = loaded.err().message;
    FUZZ_CHECK(!message.empty(), "an error without a message");
    FUZZ_CHECK(is_valid_utf8(message), "the error message is not UTF-8: " + message);
    FUZZ_CHECK(message.find(about.parent_path().string()) != std::string::npos,
               "the error does not name the file: " + message);
    return;
  }
  check_team(*loaded);
}

// The folder every input is loaded in, with the files a team may refer to.
struct workspace {
  fuzz::temp_dir dir{"parley-fuzz-team"};
  workspace() {
    fuzz::write_file(dir.path() / "script.yaml", "members:\n  \"*\":\n    - emit: [{saying: ok}]\n");
    fuzz::write_file(dir.path() / "persona.md", "You review code.\n");
    std::filesystem::create_directories(dir.path() / "work");
    fuzz::write_file(dir.path() / ".minds" / "team" / "alice" / "persona.md", "I am Alice.\n");
    fuzz::write_file(dir.path() / ".minds" / "team" / "bob" / "persona.zh.md", "我是 Bob。\n");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static workspace world;
  const std::filesystem::path& root = world.dir.path();
  const std::string_view input = as_text(data, size);
  const auto parts = fuzz::split_parts(input, "\n### llm.yaml\n");

  const auto team_file = root / "team.yaml";
  fuzz::write_file(team_file, input);
  check_loaded(config::load_team_file(team_file), team_file);

  const auto minds = root / ".minds";
  fuzz::write_file(minds / "team.yaml", parts[0]);
  if (parts.size() > 1) {
    fuzz::write_file(minds / "llm.yaml", parts[1]);
  } else {
    std::filesystem::remove(minds / "llm.yaml");
  }
  check_loaded(config::load_dominds_workspace(root), minds / "team.yaml");

  // The YAML tree as JSON. yaml-cpp throws on syntax errors; yaml_to_json itself must not.
  YAML::Node node;
  try {
    node = YAML::Load(std::string(parts[0]));
  } catch (const YAML::Exception&) {
    return 0;
  }
  auto converted = config::detail::yaml_to_json("fuzz.yaml", node, "");
  if (!converted) FUZZ_CHECK(!converted.err().message.empty(), "an error without a message");
  return 0;
}
