// `parley run` and `parley say`: post a message to a dialog and drive it until it is idle,
// streaming what the model thinks and says. Ctrl-C stops the running generation (its partial
// output is kept, marked interrupted).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdio>
#include <functional>
#include <map>
#include <optional>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "command_hints.hpp"
#include "marker_tags.hpp"
#include "parley/core/text.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/described_text.hpp"
#include "parley/tot/tot_tool.hpp"
#include "replay_setup.hpp"
#include "terminal_printer.hpp"
#include "verb_flow.hpp"
#include "verb_remote.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace asio = boost::asio;

namespace {

struct drive_request {
  std::optional<std::string> dialog_id;  // empty: create a root dialog
  std::string member_id;
  std::string title;
  std::string task_doc_path;
  std::string message;
};

}  // namespace

int with_engine(const parsed_args& args, const engine_action& action, const engine_hooks* hooks) {
  auto inputs = prepare_engine_inputs(args);
  if (!inputs) return report(inputs.err());
  if (hooks != nullptr && hooks->before_create) {
    if (auto prepared = hooks->before_create(*inputs); !prepared) return report(prepared.err());
  }
  config::team_config& team = inputs->team;
  store& log = *inputs->log;
  set_cli_language(team.language);

  asio::io_context io;
  auto tools = engine::build_builtin_tools(team);
  auto tot_binding = std::make_shared<tot::tot_tool_binding>();
  tot_binding->logs = tot_logs_of(args, team, "tot-logs");
  tot::offer_tree_of_thoughts(team, tools, tot_binding);
  auto created = engine::engine::create(io.get_executor(), log, team, std::move(inputs->providers), std::move(tools));
  if (!created) return report(created.err());
  auto& eng = **created;
  tot_binding->engine = &eng;
  if (hooks != nullptr && hooks->after_create) hooks->after_create(eng);
  eng.drives().set_protected_dirs(std::move(inputs->protected_dirs));
  terminal_printer printer(args.has("quiet"));
  printer.set_namer([&eng](std::string_view id) {
    const auto* dialog = eng.find(id);
    if (dialog == nullptr) return std::string(id);
    const std::string who = "@" + dialog->row().member_id;
    return dialog->is_sub() ? who + " (subdialog " + dialog->id() + ")" : who;
  });
  eng.add_observer(&printer);

  std::optional<error> failure;
  std::string dialog_id;
  asio::signal_set interrupts(io, SIGINT);
  interrupts.async_wait([&](boost::system::error_code ec, int) {
    if (!ec && !dialog_id.empty()) (void)eng.runs().stop(dialog_id, "interrupted from the terminal (Ctrl-C)");
  });

  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        // Whatever way this ends, stop listening for Ctrl-C so io.run() can return.
        struct stop_listening {
          asio::signal_set& signals;
          ~stop_listening() { signals.cancel(); }
        } listening_guard{interrupts};
        // ... and end the MCP servers' processes, which would keep it running too.
        struct stop_mcp_servers {
          engine::engine& eng;
          ~stop_mcp_servers() { eng.stop_mcp(); }
        } mcp_guard{eng};
        auto acted = co_await action(eng, dialog_id);
        if (!acted) {
          failure = std::move(acted).err();
          co_return;
        }
        // The whole hierarchy settles: subdialogs reply, or something waits for a human.
        if (const auto* dialog = eng.find(dialog_id)) co_await eng.runs().wait_until_settled(dialog->row().root_id);
      },
      [&](std::exception_ptr thrown) {
        if (thrown) failure = make_error(errc::internal, "the drive ended with an unexpected exception");
      });
  io.run();

  if (failure) return report(*failure);
  const auto* dialog = eng.find(dialog_id);
  if (!dialog_id.empty()) std::printf("%s\n", say_cli(msg::dialog_named, {{"id", dialog_id}}).c_str());
  if (dialog != nullptr && !dialog->row().last_error.empty()) {
    return report(make_error(errc::provider_error, say_cli(msg::dialog_stopped_try_again,
                                                           {{"id", dialog_id},
                                                            {"error", dialog->row().last_error},
                                                            {"command", hint_command("resume", {dialog_id})}})));
  }
  if (auto open = eng.questions().open_questions(); open && !open->empty()) {
    const std::string count = std::to_string(open->size());
    const std::string command = hint_command("questions");
    std::printf("%s\n", say_cli(open->size() == 1 ? msg::questions_wait_one : msg::questions_wait_many,
                                {{"n", count}, {"command", command}})
                            .c_str());
  }
  return kExitOk;
}

namespace {

// --member names no member: the closest one, in the whole command to type instead.
result<void> check_member_given(const config::team_config& team, const std::string& member) {
  if (member.empty() || team.find_member(member) != nullptr) return ok();
  const std::string best = closest_match(member, team.member_ids());
  std::string message = say_cli(msg::unknown_member, {{"member", member}});
  if (!best.empty()) {
    message +=
        say_cli(msg::did_you_mean_member, {{"best", best}, {"command", command_with_flag_value("member", best)}});
  }
  return make_error(errc::not_found, message);
}

int drive(const parsed_args& args, drive_request request) {
  // A message to a replay's dialog drives it as a replay (replay_setup.hpp).
  replay_setup replay(data_dir_of(args), request.dialog_id.value_or(""));
  const engine_hooks hooks = replay.hooks();
  const auto action = [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
    if (auto valid = eng.inputs().check_user_message(request.message); !valid) co_return std::move(valid).err();
    if (request.dialog_id) {
      dialog_id = *request.dialog_id;
    } else {
      const auto& team = eng.team();
      const std::string member = request.member_id.empty() ? team.default_member : request.member_id;
      if (auto known = check_member_given(team, request.member_id); !known) co_return std::move(known).err();
      if (team.find_member(member) != nullptr) {
        const std::string model = engine::describe_member_model_in(team, member, cli_language());
        std::fprintf(stderr, "parley: %s\n",
                     say_cli(msg::member_talks_to, {{"member", member}, {"model", model}}).c_str());
      }
      engine::new_dialog spec{request.member_id, request.title, request.task_doc_path};
      spec.first_message = request.message;
      auto id = co_await eng.create_root_dialog(std::move(spec));
      if (!id) co_return std::move(id).err();
      dialog_id = *id;
      co_return ok();
    }
    co_return co_await eng.post_user_message(dialog_id, request.message);
  };
  return with_engine(args, action, request.dialog_id ? &hooks : nullptr);
}

}  // namespace

int run_verb_run(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("run"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) {
    return report(make_error(errc::invalid_argument, usage_of("run")));
  }
  if (auto served = through_running_server(
          *args, {remote_verb::run, "", args->positionals[0], "", args->value("member").value_or(""),
                  args->value("title").value_or(""), args->value("taskdoc").value_or("")})) {
    return *served;
  }
  if (auto flow = drive_flow(*args, {std::nullopt, args->value("member").value_or(""), args->positionals[0]})) {
    return *flow;
  }
  return drive(*args, {std::nullopt, args->value("member").value_or(""), args->value("title").value_or(""),
                       args->value("taskdoc").value_or(""), args->positionals[0]});
}

int run_verb_say(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("say"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 2) {
    return report(make_error(errc::invalid_argument, usage_of("say")));
  }
  if (auto stored = check_dialog_stored(data_dir_of(*args), args->positionals[0]); !stored) {
    return report(stored.err());
  }
  const bool retry = args->has("retry");
  remote_request remote{remote_verb::say, args->positionals[0], args->positionals[1]};
  remote.retry = retry;
  if (auto served = through_running_server(*args, remote)) return *served;
  flow_request said{args->positionals[0], {}, args->positionals[1]};
  if (retry) said.ui_action = "retry";
  if (auto flow = drive_flow(*args, said)) return *flow;
  if (retry) {
    return report(make_error(errc::invalid_argument, "--retry: dialog " + args->positionals[0] +
                                                         " is not a flow's; only a flow's message is retried"));
  }
  return drive(*args, {args->positionals[0], {}, {}, {}, args->positionals[1]});
}

int run_verb_answer(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("answer"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 3) {
    return report(make_error(errc::invalid_argument, usage_of("answer")));
  }
  const auto& p = args->positionals;
  if (auto stored = check_dialog_stored(data_dir_of(*args), p[0]); !stored) return report(stored.err());
  if (auto served = through_running_server(*args, {remote_verb::answer, p[0], p[2], p[1]})) return *served;
  replay_setup replay(data_dir_of(*args), p[0]);  // an answer to a replay drives it as a replay
  const engine_hooks hooks = replay.hooks();
  return with_engine(
      *args,
      [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
        dialog_id = p[0];
        engine::user_answer answer{p[0], p[2], "", p[1], "answer"};
        co_return co_await eng.questions().answer_question(std::move(answer));
      },
      &hooks);
}

namespace {

// The resumable dialogs of replays' trees, by root: each tree runs under its own change and record.
using replay_dialogs = std::map<std::string, std::vector<std::string>, std::less<>>;

// Whether `id` belongs to a replay's tree (its root loaded to tell), noted in `replays` if so.
bool note_if_replay(engine::engine& eng, const std::string& id, replay_dialogs& replays) {
  const auto* dialog = eng.find(id);
  if (dialog == nullptr) return false;
  const std::string root = dialog->row().root_id;
  if (!eng.dialogs().load(root) || !eng.dialogs().cache().is_replay_root(root)) return false;
  replays[root].push_back(id);
  return true;
}

// The dialogs of one replay's tree, driven as `parley resume` drives a replay (replay_setup.hpp).
int resume_replay_tree(const parsed_args& args, const std::vector<std::string>& ids,
                       std::vector<std::string>& resumed) {
  replay_setup replay(data_dir_of(args), ids.front());
  const engine_hooks hooks = replay.hooks();
  return with_engine(
      args,
      [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
        for (const auto& id : ids) {
          if (auto done = co_await eng.runs().resume(id); !done) co_return std::move(done).err();
          resumed.push_back(id);
          dialog_id = id;
        }
        co_return ok();
      },
      &hooks);
}

// Every dialog resume would drive (resume_check.hpp), each driven until its hierarchy settles; a
// replay's with the replay's engine, one replay after the other, after the rest.
int resume_all(const parsed_args& args) {
  std::vector<std::string> resumed;
  replay_dialogs replays;
  int status = with_engine(args, [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
    const auto candidates = eng.runs().resumable_dialogs(true);
    for (const auto& id : candidates) {
      if (note_if_replay(eng, id, replays)) continue;
      if (auto done = co_await eng.runs().resume(id); !done) co_return std::move(done).err();
      resumed.push_back(id);
      dialog_id = id;
    }
    for (const auto& id : resumed) {
      if (const auto* dialog = eng.find(id)) co_await eng.runs().wait_until_settled(dialog->row().root_id);
    }
    co_return ok();
  });
  for (const auto& [root, ids] : replays) {
    if (status != 0) break;
    status = resume_replay_tree(args, ids, resumed);
  }
  const std::string resumed_ids = join(resumed, ", ");
  const std::string resumed_count = std::to_string(resumed.size());
  std::printf("%s\n", (resumed.empty() ? say_cli(msg::resumed_none)
                                       : say_cli(msg::resumed_some, {{"n", resumed_count}, {"ids", resumed_ids}}))
                          .c_str());
  return status;
}

}  // namespace

int run_verb_resume(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("resume"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->has("all") && args->positionals.empty()) {
    if (auto served = through_running_server(*args, {remote_verb::resume_all})) return *served;
    return resume_all(*args);
  }
  if (args->positionals.size() != 1 || args->has("all")) {
    return report(make_error(errc::invalid_argument, usage_of("resume")));
  }
  const std::string id = args->positionals[0];
  if (auto stored = check_dialog_stored(data_dir_of(*args), id); !stored) return report(stored.err());
  if (auto served = through_running_server(*args, {remote_verb::resume, id})) return *served;
  if (auto flow = drive_flow(*args, {id, {}, {}, true})) return *flow;
  // A replay goes on as a replay: under its team, with its record (replay_setup.hpp).
  replay_setup replay(data_dir_of(*args), id);
  const engine_hooks hooks = replay.hooks();
  return with_engine(
      *args,
      [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
        dialog_id = id;
        co_return co_await eng.runs().resume(id);
      },
      &hooks);
}

int run_verb_root_status(const std::vector<std::string>& raw, std::string_view verb, events::dialog_status to) {
  auto args = parse_args(raw, arg_spec_of(verb));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) {
    return report(make_error(errc::invalid_argument, usage_of(verb)));
  }
  const std::string id = args->positionals[0];
  if (auto stored = check_dialog_stored(data_dir_of(*args), id); !stored) return report(stored.err());
  const remote_verb remote = to == events::dialog_status::completed  ? remote_verb::complete
                             : to == events::dialog_status::archived ? remote_verb::archive
                                                                     : remote_verb::reopen;
  if (auto served = through_running_server(*args, {remote, id})) return *served;
  flow_request flow_status{id};
  flow_status.status = to;
  auto set_by_engine = [&] {
    return with_engine(*args, [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
      dialog_id = id;
      co_return co_await eng.lifecycle().set_root_status(id, to);
    });
  };
  const auto set_by_flow = drive_flow(*args, flow_status);
  const int status = set_by_flow ? *set_by_flow : set_by_engine();
  if (status == kExitOk)
    std::printf("%s\n", say_cli(msg::status_now, {{"id", id}, {"status", events::to_wire(to)}}).c_str());
  return status;
}

int run_verb_dead(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("dead"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) {
    return report(make_error(errc::invalid_argument, usage_of("dead")));
  }
  const std::string id = args->positionals[0];
  if (auto stored = check_dialog_stored(data_dir_of(*args), id); !stored) return report(stored.err());
  const std::string reason = args->value("reason").value_or("");
  if (auto served = through_running_server(*args, {remote_verb::dead, id, reason})) return *served;
  return with_engine(*args, [&](engine::engine& eng, std::string& dialog_id) -> asio::awaitable<result<void>> {
    dialog_id = id;
    co_return co_await eng.questions().declare_subdialog_dead(id, reason);
  });
}

}  // namespace parley::cli
