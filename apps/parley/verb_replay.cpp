// `parley replay ROOT [--from SEQ | --at-generation N] [--model M] [--provider P] [--team FILE]
// [--member-persona ID=FILE] [--tools recorded|live] [--json]` (docs/fork.md "Replay"): forks ROOT's
// tree at that point and drives the fork again with the change, answering its calls from the
// origin's record where they are the same. Everything given is checked before anything is
// written; the fork, its replay_started and the scratch workspace are made together.
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <system_error>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/replay_team.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/store/store.hpp"
#include "replay_setup.hpp"
#include "server_link.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace asio = boost::asio;

namespace {

// The change and the tools mode as the flags give them, each file read and checked.
result<events::replay_started> replay_spec_of(const parsed_args& args) {
  events::replay_started spec;
  spec.model = args.value("model");
  spec.provider = args.value("provider");
  if (spec.model && spec.model->empty()) return make_error(errc::invalid_argument, "--model: empty");
  if (auto team = args.value("team")) {
    std::string text;
    PARLEY_TRY_ASSIGN(text, engine::read_replay_file(*team, "--team"));
    auto loaded = config::load_team_file(*team);
    if (!loaded) return make_error(errc::invalid_argument, "--team: " + loaded.err().message);
    std::error_code ec;
    spec.team_file = std::filesystem::absolute(*team, ec).string();
    spec.team_hash = engine::content_hash(text);
  }
  if (auto persona = args.value("member-persona")) {
    const auto eq = persona->find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == persona->size()) {
      return make_error(errc::invalid_argument, "--member-persona: expected ID=FILE, got '" + *persona + "'");
    }
    std::string text;
    PARLEY_TRY_ASSIGN(text, engine::read_replay_file(persona->substr(eq + 1), "--member-persona"));
    spec.personas.push_back({persona->substr(0, eq), std::move(text)});
  }
  const auto tools = args.value("tools").value_or("live");
  if (tools != "live" && tools != "recorded") {
    return make_error(errc::invalid_argument, "--tools: expected recorded or live, got '" + tools + "'");
  }
  spec.tools = tools == "live" ? events::replay_tools::live : events::replay_tools::recorded;
  return spec;
}

// Makes the replay's fork in the store (with its scratch workspace); its id.
result<std::string> start_replay(engine_inputs& inputs, const std::string& root_id, const fork_point& point,
                                 events::replay_started& spec, const std::filesystem::path& data_dir) {
  config::team_config checked_team;
  if (spec.team_file) {
    PARLEY_TRY_ASSIGN(checked_team, config::load_team_file(*spec.team_file));
  }
  PARLEY_TRY(engine::check_replay_change(spec.team_file ? checked_team : inputs.team, spec));
  fork_plan plan;
  PARLEY_TRY_ASSIGN(plan, engine::plan_replay(*inputs.log, root_id, point, spec, replays_dir_of(data_dir), now_ms()));
  const auto& workspace = spec.team_file ? checked_team.workspace : inputs.team.workspace;
  PARLEY_TRY(engine::copy_replay_workspace(workspace, spec.workspace, data_dir));
  std::optional<result<void>> outcome;
  inputs.log->append(std::move(plan.batch), [&outcome](result<void> done) { outcome = std::move(done); });
  inputs.log->flush();
  if (!outcome || !*outcome) {
    std::error_code ec;
    std::filesystem::remove_all(replays_dir_of(data_dir) / plan.fork_root_id, ec);
    if (!outcome) return make_error(errc::internal, "the store did not report the replay's append");
    return std::move(*outcome).err();
  }
  return plan.fork_root_id;
}

// Through a running `parley serve` (its REST route), which drives the replay in the background
// under its own team: --team is refused there.
int replay_through_server(const server_link& server, const parsed_args& args, const std::string& root_id,
                          const fork_point& point, const events::replay_started& spec) {
  if (spec.team_file) {
    return report(make_error(errc::conflict,
                             "--team: a running `parley serve` replays under its own team; stop it "
                             "to replay under another team file"));
  }
  boost::json::object body;
  if (point.at_seq) body["from"] = *point.at_seq;
  if (point.at_generation) body["atGeneration"] = *point.at_generation;
  if (spec.model) body["model"] = *spec.model;
  if (spec.provider) body["provider"] = *spec.provider;
  boost::json::object personas;
  for (const auto& persona : spec.personas) personas[persona.member_id] = persona.persona;
  if (!personas.empty()) body["memberPersona"] = std::move(personas);
  body["tools"] = spec.tools == events::replay_tools::recorded ? "recorded" : "live";
  const boost::json::value sent = std::move(body);
  auto answer = call_server(server, "POST", "/api/dialogs/" + root_id + "/replay", &sent);
  if (!answer) return report(answer.err());
  const auto* id = answer->is_object() ? answer->as_object().if_contains("id") : nullptr;
  const auto* of = answer->is_object() ? answer->as_object().if_contains("replayOf") : nullptr;
  const auto* from = of != nullptr && of->is_object() ? of->as_object().if_contains("from") : nullptr;
  if (id == nullptr || !id->is_string() || from == nullptr || !from->is_int64()) {
    return report(make_error(errc::internal, "the server's answer to the replay names no id and replayOf.from"));
  }
  if (args.has("json")) {
    std::printf("%s\n", boost::json::serialize(*answer).c_str());
  } else {
    const std::string seq = std::to_string(from->as_int64());
    std::printf("%s\n", say_cli(msg::replay_in_background, {{"root", root_id},
                                                            {"seq", seq},
                                                            {"id", std::string(id->as_string())},
                                                            {"change", engine::replay_change_text(spec)},
                                                            {"through", through(server)}})
                            .c_str());
  }
  return kExitOk;
}

}  // namespace

int run_verb_replay(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("replay"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) return report(make_error(errc::invalid_argument, usage_of("replay")));
  const std::string root_id = args->positionals[0];
  auto from = args->integer("from", 1);
  if (!from) return report(from.err());
  auto at_generation = args->integer("at-generation", 1);
  if (!at_generation) return report(at_generation.err());
  if (*from && *at_generation) {
    return report(make_error(errc::invalid_argument, say_cli(msg::replay_either_from)));
  }
  // With no point the whole tree runs again: from just before the root's first generation.
  const fork_point point =
      *from ? fork_point{*from, std::nullopt} : fork_point{std::nullopt, at_generation->value_or(1)};
  auto spec = replay_spec_of(*args);
  if (!spec) return report(spec.err());
  const auto data_dir = data_dir_of(*args);
  if (auto stored = check_dialog_stored(data_dir, root_id); !stored) return report(stored.err());
  auto server = find_server(data_dir);
  if (!server) return report(server.err());
  if (*server && !store_url()) return replay_through_server(**server, *args, root_id, point, *spec);
  // The served team is the base (--team is the replay's change, not the team to remember).
  parsed_args base = *args;
  base.values.erase("team");
  if (args->has("json")) base.switches.insert("quiet");
  replay_setup setup(data_dir, {});
  std::string fork_id;
  engine_hooks hooks = setup.hooks();
  hooks.before_create = [&](engine_inputs& inputs) -> result<void> {
    PARLEY_TRY_ASSIGN(fork_id, start_replay(inputs, root_id, point, *spec, data_dir));
    setup.set_dialog(fork_id);
    return setup.prepare(inputs);
  };
  return with_engine(
      base,
      [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
        dialog_id = fork_id;
        if (args->has("json")) {
          const boost::json::object out{{"id", fork_id}, {"replayOf", {{"dialog", root_id}, {"from", spec->from_seq}}}};
          std::printf("%s\n", boost::json::serialize(out).c_str());
        } else {
          const std::string seq = std::to_string(spec->from_seq);
          std::printf(
              "%s\n",
              say_cli(msg::replay_started,
                      {{"root", root_id}, {"seq", seq}, {"id", fork_id}, {"change", engine::replay_change_text(*spec)}})
                  .c_str());
        }
        co_return co_await eng.runs().resume(fork_id);
      },
      &hooks);
}

}  // namespace parley::cli
