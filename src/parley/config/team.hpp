// Team configuration: providers and members, loaded from Parley's `team.yaml` or from a Dominds
// workspace (`.minds/team.yaml`, `.minds/llm.yaml`, `.minds/team/<id>/persona.md`).
// Loading errors name the file, line, column, key and what was expected.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/access/access_rules.hpp"
#include "parley/access/shell_policy.hpp"
#include "parley/config/mcp_config.hpp"
#include "parley/config/problem.hpp"
#include "parley/core/result.hpp"
#include "parley/core/vocabulary.hpp"

namespace parley::config {

// The wire protocol Parley speaks to a provider. `none`: a provider_entry whose apiType Parley does
// not speak (it has no name, so a team file cannot write it).
// openai: Chat Completions; openai_responses: the Responses API with an API key; codex: the
// Responses API of chatgpt.com with Codex CLI's ChatGPT login; mock: Dominds' mock databases (a
// folder of <model>.yaml) read as scripted models (docs/team-yaml.md, "Providers").
enum class provider_kind { none, scripted, openai, anthropic, openai_responses, codex, mock };
// "llm": a dialog member driven by the engine; "flow": a phase-driven agent of seed 004.
enum class member_kind { llm, flow };
// "function": Tellasks are function tools; "text": the model writes seed 000's `!?@member` text
// syntax, for models without function calling.
enum class tellask_syntax { function, text };
// Who titles a root after its first answer (issue 43): "model", the root's member's model in one
// short call off the dialog's path (a member on a scripted or mock provider keeps the rule-made
// title); "rule", the first line of the first message only, never an extra model call.
enum class title_mode { model, rule };

}  // namespace parley::config

namespace parley {

// Their names in team files (and in what `parley providers` and /api/overview show).
template <>
struct vocabulary<config::provider_kind> {
  static constexpr std::array<std::pair<config::provider_kind, std::string_view>, 6> values{
      {{config::provider_kind::scripted, "scripted"},
       {config::provider_kind::openai, "openai"},
       {config::provider_kind::anthropic, "anthropic"},
       {config::provider_kind::openai_responses, "openai-responses"},
       {config::provider_kind::codex, "codex"},
       {config::provider_kind::mock, "mock"}}};
};

template <>
struct vocabulary<config::member_kind> {
  static constexpr std::array<std::pair<config::member_kind, std::string_view>, 2> values{
      {{config::member_kind::llm, "llm"}, {config::member_kind::flow, "flow"}}};
};

template <>
struct vocabulary<config::tellask_syntax> {
  static constexpr std::array<std::pair<config::tellask_syntax, std::string_view>, 2> values{
      {{config::tellask_syntax::function, "function"}, {config::tellask_syntax::text, "text"}}};
};

template <>
struct vocabulary<config::title_mode> {
  static constexpr std::array<std::pair<config::title_mode, std::string_view>, 2> values{
      {{config::title_mode::model, "model"}, {config::title_mode::rule, "rule"}}};
};

}  // namespace parley

namespace parley::config {

// What Parley knows of one model beyond its name: the context window that context health is
// measured against, and prices that turn usage into cost. Declared with `models` as a mapping.
struct model_info {
  std::string id;
  std::int64_t context_window = 0;  // tokens; 0: unknown, no context-health checks
  double caution_ratio = 0.6;       // prompt tokens / window at or above which health is "caution"
  double critical_ratio = 0.85;     // ... "critical"
  bool priced = false;
  double input_usd_per_mtok = 0.0;  // USD per million tokens
  double output_usd_per_mtok = 0.0;
  double cached_input_usd_per_mtok = 0.0;  // cache reads; defaults to the input price
};

struct provider_config {
  std::string id;
  provider_kind kind = provider_kind::none;
  std::string base_url;
  std::string api_key_env;
  std::string base_url_env;  // when this variable is set, its value replaces base_url
  // HTTP kinds: the provider used instead when neither api_key_env nor base_url_env is set, so
  // a team works offline out of the box (the demo falls back to its scripted model).
  std::string fallback;
  // scripted: the script file; mock: the folder of <model>.yaml databases. Resolved against the team
  // file's folder (a Dominds workspace's: against the workspace, as Dominds resolves baseUrl).
  std::filesystem::path script;
  std::vector<std::string> models;
  std::vector<model_info> model_details;  // the models declared with properties
  // kind none, in a Dominds workspace only: a provider a member names that Parley cannot use, and
  // why. The member is loaded and fails with this when it is driven (the problem says it at start).
  std::string unavailable;
};

// A provider a Dominds workspace can name, from Parley's built-in catalogue or `.minds/llm.yaml`,
// with where it was defined: what `parley providers` lists.
struct provider_entry {
  provider_config config;   // config.kind is none when Parley does not speak its API
  std::string name;         // display name
  std::string api_type;     // Dominds' apiType as written
  std::string origin;       // "built-in" or "FILE:LINE:COLUMN" of its key in llm.yaml
  std::string unsupported;  // why Parley cannot use it; empty when it can
};

struct member_config {
  std::string id;
  // A flow member's definition is the folder `flow` (a [Business]Agent.yaml with its prompt/ and
  // sub-thread folders).
  member_kind kind = member_kind::llm;
  std::filesystem::path flow;  // kind flow: resolved against the team file's folder
  std::string name;            // display name
  std::string persona;         // text (inline or read from persona_file)
  // Dominds' other minds files (`.minds/team/<id>/knowhow*.md`, `pitfalls*.md`): lasting knowledge
  // and lessons, put in the system prompt after the persona. Empty: no section.
  std::string knowhow;
  std::string pitfalls;
  // Dominds' routing cards, shown to every teammate in the team section of its system prompt: what
  // to go to this member for, and what not (one item per line; "label: text" from a mapping).
  std::vector<std::string> gofor;
  std::vector<std::string> nogo;
  std::string provider;  // id of a provider_config
  std::string model;
  boost::json::object model_params;
  std::vector<std::string> tools;
  std::vector<std::string> toolsets;
  // Where `toolsets` was written ("FILE:LINE:COLUMN: members.dev.toolsets", or member_defaults'),
  // so the names, resolved later against the tool registry, are refused with a position.
  std::string toolsets_at;
  std::string tools_at;  // the same for `tools`
  // Dominds' `shell_specialists` rule: false for a visible member of a Dominds workspace that the
  // list does not name, whose shell tools (tools::is_shell_tool) the engine then withholds — from
  // what its model is told and from what it may call. Always true in Parley's own format.
  bool shell_specialist = true;
  // The dialog tools (Tellask, askHuman, reminders, clear_mind ...) it is offered, where its place
  // allows them; absent: all of them. Each offered tool costs prompt tokens on every call.
  std::optional<std::vector<std::string>> dialog_tools;
  std::int64_t max_tool_rounds = 16;
  // Diligence push (Dominds' `diligence-push-max`): how many times a root dialog of this member
  // that stops without a question or a pending subdialog is told to go on; 0: never (Parley's
  // default, so a team opts in).
  std::int64_t diligence_push_max = 0;
  std::int64_t max_tellask_depth = 4;
  bool streaming = true;
  bool hidden = false;
  // Offered the selfReflect tool: a self-reflection subdialog of itself with its tools, recorded
  // as seed 002's self-reflection session and introspection turns.
  bool self_reflection = false;
  // How its model is told to Tellask (function tools, or the text syntax).
  config::tellask_syntax tellask_syntax = config::tellask_syntax::function;
  // Its model takes images / audio as input (seed 002's multimodal messages): they are sent as
  // media rather than as their caption or transcription.
  bool vision = false;
  bool audio = false;
  // Where its file tools may read and write (Dominds' read_dirs, no_write_dirs, ...; docs/team-yaml.md).
  access::access_rules access;
  // What its shell tools may run (docs/tools.md): the team's `shell`, replaced key by key by its own.
  access::shell_policy shell;
};

// Who describes media that arrive without words (seed 002: "a missing caption or transcription
// can be produced by a configured member").
struct media_config {
  std::string captioner;    // a member with vision: captions images sent without one
  std::string transcriber;  // a member with audio: transcribes audio sent without a transcription
};

// An OpenAI-compatible `/v1/embeddings` endpoint (seed 002's `embedding_vector`): the base URL and
// key come from a provider of kind `openai`, as for chat.
struct embeddings_config {
  std::string provider;  // a provider id of the team, kind openai
  std::string model;
  std::int64_t dimensions = 0;  // every vector must have exactly this many
};

// Seed 002's message analysis (docs/records.md "Analysis and embeddings"), team.yaml `records`.
struct records_config {
  std::string analyst;  // a member whose model reads each human message; empty: none
  std::optional<embeddings_config> embeddings;
};

struct limits_config {
  std::int64_t max_message_bytes = std::int64_t{64} * 1024;
  // Model rounds a dialog may go on with a critical context (warned each time) before the
  // runtime starts a new course for it.
  std::int64_t critical_context_rounds = 2;
};

// What `parley vacuum` does to old roots (docs/team-yaml.md "Retention"). Everything is kept by
// default; archiving changes a root's status in the log, it deletes nothing.
struct retention_config {
  std::int64_t archive_after_days = 0;  // 0 = never: roots idle for longer are archived
};

// A Dominds skill (`.minds/skills/team_shared/<id>.md`, `.../individual/<member>/<id>/SKILL.md`, in
// the work language's variant): listed in the system prompt of the members who see it, its body
// read with the `read_skill` tool (docs/team-yaml.md "Skills").
struct skill_config {
  std::string id;         // the file's stem or the package folder's name
  std::string member_id;  // empty: team-shared; else only this member sees it
  std::string title;      // frontmatter `name`
  std::string description;
  std::string body;                        // Markdown after the frontmatter, trimmed
  std::vector<std::string> allowed_tools;  // frontmatter `allowed-tools`: shown, never granted
  std::string source;                      // path relative to the workspace
};

struct team_config {
  std::filesystem::path source;     // the file the team was read from
  std::filesystem::path base_dir;   // relative paths resolve against it
  std::filesystem::path workspace;  // file tools are confined to it
  std::string default_member;
  std::string language = "en";            // "en" | "zh": the language of runtime-written prompts and headers
  title_mode titles = title_mode::model;  // `titles:` (docs/team-yaml.md)
  // Dominds' `.minds/env.<language>.md` (or `env.md`): the runtime environment every member is told
  // about, after its minds files. Empty: no section.
  std::string environment;
  limits_config limits;
  media_config media;
  records_config records;
  retention_config retention;
  std::vector<provider_config> providers;
  std::vector<member_config> members;
  // Dominds' skills: team-shared ones first, then each member's own, each group by id.
  std::vector<skill_config> skills;
  // A Dominds workspace's whole provider table (catalogue merged with llm.yaml); empty for
  // Parley's own team file, whose `providers` are all there is.
  std::vector<provider_entry> provider_entries;
  // Dominds' `shell_specialists` (an id or a list; absent or null: none), the members a
  // non-specialist is told to ask for shell work. Empty for Parley's own team file.
  std::vector<std::string> shell_specialists;
  // The MCP servers members may take tools from (`.minds/mcp.yaml`, or the team file's `mcp:`).
  mcp_config mcp;
  // What Parley cannot honour (llm.yaml providers it cannot use, refused MCP servers, in a Dominds
  // workspace also unknown toolsets and tools, unsupported providers): said once at start, by
  // `parley check --workspace` and GET /api/problems. Never a reason the team does not load.
  std::vector<problem> problems;
  // Loaded from `.minds/`: what Parley lacks is a problem rather than an error, as in Dominds.
  bool lenient = false;

  const member_config* find_member(std::string_view id) const;
  const provider_config* find_provider(std::string_view id) const;
  // The declared properties of the model a member talks to, or nullptr.
  const model_info* find_model(const member_config& member) const;
  std::vector<std::string> member_ids() const;
};

// Parley's own format (see docs/team-yaml.md).
result<team_config> load_team_file(const std::filesystem::path& file);
// A Dominds workspace folder that contains `.minds/`.
result<team_config> load_dominds_workspace(const std::filesystem::path& dir);

}  // namespace parley::config
