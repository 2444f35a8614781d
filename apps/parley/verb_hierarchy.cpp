// `parley questions`, `parley registry`, `parley check` and `parley repair`: the open questions for
// the human across every dialog, a root's Type B registry, the integrity check of the stored hierarchy against the log,
// and the repair of events whose stored text does not read back.
#include <boost/asio/io_context.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>

#include <limits>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "cli_text.hpp"
#include "command_hints.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/integrity.hpp"
#include "parley/store/sqlite/log_repair.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

int run_verb_questions(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("questions"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("questions")));
  const auto data_dir = data_dir_of(*args);
  auto log = open_existing_store(data_dir);
  if (!log) return report(log.err());
  auto team = load_team(*args, data_dir);
  if (!team) return report(team.err());
  auto providers = engine::build_providers(*team);
  if (!providers) return report(providers.err());
  boost::asio::io_context io;
  auto eng = engine::engine::create(io.get_executor(), **log, *team, std::move(*providers),
                                    engine::build_builtin_tools(*team));
  if (!eng) return report(eng.err());
  auto open = (*eng)->questions().open_questions();
  if (!open) return report(open.err());
  if (args->has("json")) {
    boost::json::array out;
    for (const auto& item : *open) {
      out.push_back(boost::json::object{
          {"dialog", boost::json::object{{"selfId", item.dialog.id}, {"rootId", item.dialog.root_id}}},
          {"member", item.dialog.member_id},
          {"id", item.question.id},
          {"mentionList", item.question.mention_list},
          {"tellaskContent", item.question.tellask_content},
          {"askedAt", item.question.asked_at},
          {"callSite",
           boost::json::object{
               {"course", item.question.course}, {"seq", item.question.seq}, {"callId", item.question.call_id}}}});
    }
    std::printf("%s\n", boost::json::serialize(out).c_str());
    return kExitOk;
  }
  if (open->empty()) std::printf("%s\n", say_cli(msg::questions_none).c_str());
  for (const auto& item : *open) {
    const std::string course = std::to_string(item.question.course);
    const std::string seq = std::to_string(item.question.seq);
    std::printf("%s\n", say_cli(msg::question_asked, {{"at", item.question.asked_at},
                                                      {"member", item.dialog.member_id},
                                                      {"id", item.dialog.id},
                                                      {"root", item.dialog.root_id},
                                                      {"course", course},
                                                      {"seq", seq}})
                            .c_str());
    // The whole question, every line of it: the headline alone often leaves out what is asked.
    std::printf("%s", indented(item.question.tellask_content, "  ").c_str());
    const std::string command = hint_command("answer", {item.dialog.id, item.question.id, "your answer"});
    std::printf("%s\n", say_cli(msg::question_answer_hint, {{"command", command}}).c_str());
  }
  return kExitOk;
}

int run_verb_registry(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("registry"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) {
    return report(make_error(errc::invalid_argument, usage_of("registry")));
  }
  const auto data_dir = data_dir_of(*args);
  auto team = load_team(*args, data_dir);
  if (!team) return report(team.err());
  auto log = open_existing_store(data_dir);  // read-only: never makes a store
  if (!log) return report(log.err());
  const auto& dialog_id = args->positionals.front();
  auto row = (*log)->get_dialog(dialog_id);
  if (!row) return report(row.err());
  if (!*row) {
    return report(make_error(errc::not_found, "no dialog '" + dialog_id + "' in " + data_dir.string()));
  }
  auto providers = engine::build_providers(*team);
  if (!providers) return report(providers.err());
  boost::asio::io_context io;
  auto eng = engine::engine::create(io.get_executor(), **log, *team, std::move(*providers),
                                    engine::build_builtin_tools(*team));
  if (!eng) return report(eng.err());
  // The registry belongs to the root: any dialog of the tree names the same one, as over REST.
  auto entries = (*eng)->registry((**row).root_id);
  if (!entries) return report(entries.err());
  if (args->has("json")) {
    boost::json::array out;
    for (const auto& entry : *entries) {
      out.push_back(boost::json::object{{"key", entry.key},
                                        {"subdialogId", entry.subdialog_id},
                                        {"agentId", entry.agent_id},
                                        {"sessionSlug", entry.session_slug},
                                        {"createdAt", format_iso8601_ms(entry.created_at_ms)},
                                        {"lastAccessed", format_iso8601_ms(entry.last_accessed_ms)},
                                        {"locked", entry.locked}});
    }
    std::printf(
        "%s\n",
        boost::json::serialize(boost::json::object{{"rootId", (**row).root_id}, {"entries", std::move(out)}}).c_str());
    return kExitOk;
  }
  if (entries->empty()) std::printf("root %s has no Type B subdialogs\n", (**row).root_id.c_str());
  for (const auto& entry : *entries) {
    std::printf("%s -> %s  (last used %s%s)\n", entry.key.c_str(), entry.subdialog_id.c_str(),
                format_iso8601_ms(entry.last_accessed_ms).c_str(), entry.locked ? ", working now" : "");
  }
  return kExitOk;
}

int run_verb_check(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("check"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->value("workspace") || args->value("team")) return run_verb_check_team(raw);
  // The whole file, however large (a server's open checks only the schema of a big one).
  sqlite_options whole_file;
  whole_file.full_check_max_bytes = std::numeric_limits<std::int64_t>::max();
  // The log as far as the projections reach, so that a server writing meanwhile makes no mismatch.
  auto log = open_existing_store(data_dir_of(*args), whole_file, /*log_as_projected=*/true);
  if (!log) return report(log.err());
  auto checked = engine::check_integrity(**log);
  if (!checked) return report(checked.err());
  for (const auto& problem : checked->problems) std::printf("problem: %s\n", problem.c_str());
  std::printf("%s, %s checked: %s\n", counted(checked->dialogs, "dialog", "dialogs").c_str(),
              counted(checked->events, "event", "events").c_str(),
              checked->problems.empty() ? "ok" : counted(checked->problems.size(), "problem", "problems").c_str());
  return checked->problems.empty() ? kExitOk : kExitRuntime;
}

int run_verb_repair(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("repair"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("repair")));
  if (store_url()) {
    // Text that does not read back never reached it: every batch is checked before it is taken.
    std::printf("the PostgreSQL store keeps no unreadable events: nothing to repair\n");
    return kExitOk;
  }
  const auto data_dir = data_dir_of(*args);
  auto repaired = sqlite::repair_damaged_events(data_dir.string());
  if (!repaired) return report(repaired.err());
  for (const auto& item : *repaired) {
    std::printf("dialog %s: event %lld (%s, log id %lld): %s — %s\n", item.event.dialog_id.c_str(),
                static_cast<long long>(item.event.seq), item.event.type.c_str(),
                static_cast<long long>(item.event.event_id), item.event.problem.c_str(), item.action.c_str());
  }
  if (repaired->empty()) {
    std::printf("every event reads back: nothing to repair\n");
    return kExitOk;
  }
  // The projections were made from the events as they were read then: made again from the log.
  auto log = open_data_store(data_dir);
  if (!log) return report(log.err());
  if (auto rebuilt = (*log)->rebuild_projections(); !rebuilt) return report(rebuilt.err());
  std::printf("%s repaired; the originals are kept in the table quarantined_events of %s\n",
              counted(repaired->size(), "event", "events").c_str(), (data_dir / "parley.db").c_str());
  return kExitOk;
}

}  // namespace parley::cli
