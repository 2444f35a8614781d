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
    return report(
        make_error(errc::not_found, say_cli(msg::no_dialog_in, {{"id", dialog_id}, {"where", data_dir.string()}})));
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
  if (entries->empty()) std::printf("%s\n", say_cli(msg::registry_none, {{"id", (**row).root_id}}).c_str());
  for (const auto& entry : *entries) {
    const std::string working = entry.locked ? say_cli(msg::registry_working) : std::string();
    const std::string at = format_iso8601_ms(entry.last_accessed_ms);
    std::printf("%s\n", say_cli(msg::registry_entry,
                                {{"key", entry.key}, {"id", entry.subdialog_id}, {"at", at}, {"working", working}})
                            .c_str());
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
  for (const auto& problem : checked->problems) std::printf("%s\n", problem_line(problem).c_str());
  const auto problems = static_cast<std::int64_t>(checked->problems.size());
  const std::string verdict =
      problems == 0 ? say_cli(msg::check_ok) : say_count_cli(msg::count_problem_one, msg::count_problem_many, problems);
  const std::string dialogs = say_count_cli(msg::count_dialog_one, msg::count_dialog_many, checked->dialogs);
  const std::string events = say_count_cli(msg::count_event_one, msg::count_event_many, checked->events);
  std::printf("%s\n",
              say_cli(msg::check_summary, {{"dialogs", dialogs}, {"events", events}, {"verdict", verdict}}).c_str());
  return checked->problems.empty() ? kExitOk : kExitRuntime;
}

int run_verb_repair(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("repair"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (!args->positionals.empty()) return report(make_error(errc::invalid_argument, usage_of("repair")));
  if (store_url()) {
    // Text that does not read back never reached it: every batch is checked before it is taken.
    std::printf("%s\n", say_cli(msg::repair_none_postgres).c_str());
    return kExitOk;
  }
  const auto data_dir = data_dir_of(*args);
  auto repaired = sqlite::repair_damaged_events(data_dir.string());
  if (!repaired) return report(repaired.err());
  for (const auto& item : *repaired) {
    const std::string seq = std::to_string(item.event.seq);
    const std::string event_id = std::to_string(item.event.event_id);
    std::printf("%s\n", say_cli(msg::repair_event, {{"id", item.event.dialog_id},
                                                    {"seq", seq},
                                                    {"type", item.event.type},
                                                    {"event_id", event_id},
                                                    {"problem", item.event.problem},
                                                    {"action", item.action}})
                            .c_str());
  }
  if (repaired->empty()) {
    std::printf("%s\n", say_cli(msg::repair_nothing).c_str());
    return kExitOk;
  }
  // The projections were made from the events as they were read then: made again from the log.
  auto log = open_data_store(data_dir);
  if (!log) return report(log.err());
  if (auto rebuilt = (*log)->rebuild_projections(); !rebuilt) return report(rebuilt.err());
  const std::string events =
      say_count_cli(msg::count_event_one, msg::count_event_many, static_cast<std::int64_t>(repaired->size()));
  std::printf("%s\n",
              say_cli(msg::repair_done, {{"events", events}, {"file", (data_dir / "parley.db").string()}}).c_str());
  return kExitOk;
}

}  // namespace parley::cli
