// `parley dialogs` and `parley show`: read-only views of the projections, as text or JSON.
#include <boost/json/serialize.hpp>

#include <array>
#include <cstdio>
#include <utility>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "cli_text.hpp"
#include "command_hints.hpp"
#include "flow_show.hpp"
#include "marker_tags.hpp"
#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/described_text.hpp"
#include "parley/engine/replay_team.hpp"
#include "parley/engine/usage_report.hpp"
#include "parley/flow/thread_replay.hpp"
#include "parley/server/dialog_cursor.hpp"
#include "parley/store/fork_history.hpp"
#include "transcript_text.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {
namespace {

// The replay a root dialog's history starts (its replay_started), or null.
const events::replay_started* replay_of(const std::vector<event>& history) {
  for (const auto& ev : history) {
    if (const auto* started = ev.as<events::replay_started>()) return started;
  }
  return nullptr;
}

boost::json::object dialog_json(const dialog_row& row) {
  return boost::json::object{{"id", row.id},
                             {"rootId", row.root_id},
                             {"parentId", row.parent_id},
                             {"member", row.member_id},
                             {"title", row.title},
                             {"status", events::to_wire(row.status)},
                             {"course", row.course},
                             {"openQuestions", row.open_questions},
                             {"pendingSubdialogs", row.pending_subdialogs},
                             {"needsDrive", row.needs_drive},
                             {"generating", row.generating},
                             {"lastError", row.last_error},
                             {"inputTokens", row.input_tokens},
                             {"outputTokens", row.output_tokens},
                             {"createdAt", format_iso8601_ms(row.created_at_ms)},
                             {"updatedAt", format_iso8601_ms(row.updated_at_ms)}};
}

boost::json::object message_json(const message_row& row) {
  boost::json::object out{{"seq", row.seq},
                          {"course", row.course},
                          {"role", events::to_wire(row.role)},
                          {"content", row.content},
                          {"at", format_iso8601_ms(row.ts_ms)}};
  if (row.origin) out["origin"] = events::to_wire(*row.origin);
  if (!row.thinking.empty()) out["thinking"] = row.thinking;
  if (!row.tool_calls.empty()) out["toolCalls"] = events::encode_value(row.tool_calls);
  if (row.role == events::message_role::tool) {
    out["toolCallId"] = row.tool_call_id;
    out["name"] = row.tool_name;
    out["ok"] = row.ok;
  }
  if (row.interrupted) out["interrupted"] = true;
  return out;
}

// What a running dialog is doing, in the words the web UI uses; STATUS is its lifecycle
// (running, completed, archived), STATE what it does or waits for now.
std::string state_of(const dialog_row& row) {
  if (row.dead) return "dead";
  if (row.status != events::dialog_status::running) return std::string(events::to_wire(row.status));
  if (row.generating) return "generating";
  if (row.open_questions > 0) return "waiting-human";
  if (row.pending_subdialogs > 0) return "waiting-sub";
  if (!row.last_error.empty()) return "failed";
  if (row.needs_drive) return "queued";
  return "idle";
}

// Prices live in the team file; without a team, tokens are still counted and cost is unknown.
config::team_config team_or_empty(const parsed_args& args) {
  auto team = load_team(args, data_dir_of(args));
  return team ? std::move(team).value() : config::team_config{};
}

// --limit N: 1..500, 50 when absent.
result<std::int64_t> page_limit(const parsed_args& args) {
  auto limit = args.integer("limit", 1, 500);
  if (!limit) return std::move(limit).err();
  return limit->value_or(50);
}

// Every event of the listed roots' trees: what their usage is summed from, so a page costs its
// own dialogs and not the whole log.
result<std::vector<event>> events_of_trees(store& log, const std::vector<dialog_row>& roots) {
  std::vector<event> out;
  for (const auto& root : roots) {
    dialog_filter tree;
    tree.root_id = root.id;
    auto rows = log.list_dialogs(tree);
    if (!rows) return std::move(rows).err();
    for (const auto& row : *rows) {
      auto events = log.read_events(row.id);
      if (!events) return std::move(events).err();
      out.insert(out.end(), std::make_move_iterator(events->begin()), std::make_move_iterator(events->end()));
    }
  }
  return out;
}

// The command for the page after this one: the same filters, the next cursor.
std::string next_page_command(const parsed_args& args, const std::string& cursor) {
  std::vector<hint_option> options;
  for (const char* flag : {"status", "member", "q", "limit"}) {
    if (const auto value = args.value(flag)) options.emplace_back(flag, *value);
  }
  if (args.has("json")) options.emplace_back("json", "");
  options.emplace_back("cursor", cursor);
  return hint_command("dialogs", {}, options);
}

// The headings of `parley dialogs` in the CLI's language, each as wide as its column on screen.
std::string dialogs_heading_line() {
  const std::string names = say_cli(msg::dialogs_headings);
  std::vector<std::string> headings;
  for (std::size_t at = 0; at <= names.size();) {
    const auto space = names.find(' ', at);
    headings.push_back(names.substr(at, space == std::string::npos ? std::string::npos : space - at));
    if (space == std::string::npos) break;
    at = space + 1;
  }
  // Widths and sides of the row format below; the title, last, is not filled.
  static constexpr std::array<std::pair<std::size_t, bool>, 9> kDialogColumns{
      {{17, true}, {12, true}, {10, true}, {13, true}, {6, false}, {9, false}, {8, false}, {9, false}, {9, false}}};
  std::string line;
  for (std::size_t i = 0; i < headings.size(); ++i) {
    if (i < kDialogColumns.size()) {
      line += padded(headings[i], kDialogColumns[i].first, kDialogColumns[i].second);
      line += i + 1 == kDialogColumns.size() ? "  " : " ";
    } else {
      line += headings[i];
    }
  }
  return line + "\n";
}

}  // namespace

// Root dialogs newest first, a page at a time as GET /api/dialogs pages them (store/root_listing.hpp):
// `--cursor` takes the cursor the previous page printed last.
int run_verb_dialogs(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("dialogs"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  root_listing listing;
  if (const auto status = args->value("status")) {
    listing.status = events::from_wire<events::dialog_status>(*status);
    if (!listing.status) {
      return report(make_error(errc::invalid_argument,
                               "--status: expected running, completed or archived, got '" + *status + "'"));
    }
  }
  listing.member_id = args->value("member").value_or("");
  listing.text = args->value("q").value_or("");
  auto limit = page_limit(*args);
  if (!limit) return report(limit.err());
  listing.limit = *limit;
  if (const auto cursor = args->value("cursor"); cursor && !cursor->empty()) {
    auto key = server::parse_cursor(*cursor);
    if (!key) return report(make_error(key.err().code, "--" + key.err().message));
    listing.after = std::move(*key);
  }
  auto log = open_existing_store(data_dir_of(*args));
  if (!log) return report(log.err());
  auto page = (*log)->list_roots(listing);
  if (!page) return report(page.err());
  const std::vector<dialog_row>* rows = &page->rows;
  const std::string next = page->more && !rows->empty() ? server::cursor_text(page_key_of(rows->back())) : "";
  auto events = events_of_trees(**log, *rows);
  if (!events) return report(events.err());
  const auto usage = engine::summarize_usage(*events, team_or_empty(*args));
  const auto usage_of = [&](const std::string& id) {
    const auto found = usage.by_dialog.find(id);
    return found == usage.by_dialog.end() ? engine::usage_totals{} : found->second;
  };
  if (args->has("json")) {
    boost::json::array out;
    for (const auto& row : *rows) {
      auto item = dialog_json(row);
      item["usage"] = engine::usage_to_json(usage_of(row.id));
      out.push_back(std::move(item));
    }
    std::printf("%s\n", boost::json::serialize(out).c_str());
    // stdout stays one JSON array, as before pages; where the next one starts goes to stderr.
    if (!next.empty())
      std::fprintf(stderr, "%s\n", say_cli(msg::next_page, {{"command", next_page_command(*args, next)}}).c_str());
    return kExitOk;
  }
  std::fputs(dialogs_heading_line().c_str(), stdout);
  for (const auto& row : *rows) {
    const auto totals = usage_of(row.id);
    const std::string cost = totals.unpriced_calls < totals.calls ? engine::format_usd(totals.cost_usd) : "-";
    std::printf("%-17s %-12s %-10s %-13s %6lld %9lld %8lld %9lld %9s  %s\n", row.id.c_str(), row.member_id.c_str(),
                std::string(events::to_wire(row.status)).c_str(), state_of(row).c_str(),
                static_cast<long long>(row.course), static_cast<long long>(row.open_questions),
                static_cast<long long>(row.pending_subdialogs),
                static_cast<long long>(totals.input_tokens + totals.output_tokens), cost.c_str(), row.title.c_str());
  }
  if (usage.team.calls > 0) {
    for (const auto& [member, totals] : usage.by_member) {
      std::printf("@%s: %s\n", member.c_str(), engine::describe_usage_in(totals, cli_language()).c_str());
    }
    const std::string team_usage = engine::describe_usage_in(usage.team, cli_language());
    std::printf("%s\n", say_cli(msg::dialogs_team_usage, {{"usage", team_usage}}).c_str());
  }
  if (!next.empty())
    std::printf("%s\n", say_cli(msg::next_page, {{"command", next_page_command(*args, next)}}).c_str());
  return kExitOk;
}

int run_verb_show(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("show"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) {
    return report(make_error(errc::invalid_argument, usage_of("show")));
  }
  auto log = open_existing_store(data_dir_of(*args));
  if (!log) return report(log.err());
  const std::string& id = args->positionals[0];
  auto row = (*log)->get_dialog(id);
  if (!row) return report(row.err());
  if (!*row) return report(check_dialog_stored(data_dir_of(*args), id).err());
  // A fork's history and messages include those it shares with its origin (docs/fork.md).
  auto messages = read_dialog_messages(**log, id, args->has("all-courses") ? 0 : (*row)->course);
  if (!messages) return report(messages.err());
  auto events = read_dialog_history(**log, id);
  if (!events) return report(events.err());
  auto origin = fork_origin_of(**log, id);
  if (!origin) return report(origin.err());
  if (flow::is_flow_dialog(*events)) {
    auto thread = flow::replay_flow_thread(id, *events);
    if (!thread) return report(thread.err());
    return show_flow(**row, *thread, args->has("json"));
  }
  const auto team = team_or_empty(*args);
  set_cli_language(team.language);
  const auto usage = engine::summarize_usage(*events, team).team;
  if (args->has("json")) {
    boost::json::object out = dialog_json(**row);
    out["usage"] = engine::usage_to_json(usage);
    if (*origin) {
      out["forkedFrom"] = boost::json::object{{"dialog", (*origin)->dialog_id}, {"at", (*origin)->through_seq}};
    }
    if (const auto* replay = replay_of(*events)) {
      out["replayOf"] = boost::json::object{{"dialog", replay->origin_root_id},
                                            {"from", replay->from_seq},
                                            {"change", engine::replay_change_text(*replay)}};
    }
    boost::json::array list;
    for (const auto& message : *messages) list.push_back(message_json(message));
    out["messages"] = std::move(list);
    std::printf("%s\n", boost::json::serialize(out).c_str());
    return kExitOk;
  }
  const auto& dialog = **row;
  const std::string course_number = std::to_string(dialog.course);
  std::printf("%s\n", say_cli(msg::show_header, {{"id", dialog.id},
                                                 {"member", dialog.member_id},
                                                 {"state", state_of(dialog)},
                                                 {"course", course_number},
                                                 {"usage", engine::describe_usage_in(usage, cli_language())}})
                          .c_str());
  if (*origin) {
    const std::string seq = std::to_string((*origin)->through_seq);
    std::printf("%s\n", say_cli(msg::show_forked_from, {{"id", (*origin)->dialog_id}, {"seq", seq}}).c_str());
  }
  if (const auto* replay = replay_of(*events)) {
    const std::string from = std::to_string(replay->from_seq);
    std::printf("%s\n", say_cli(msg::show_replay_of, {{"id", replay->origin_root_id},
                                                      {"seq", from},
                                                      {"change", engine::replay_change_text(*replay)}})
                            .c_str());
  }
  std::int64_t course = 0;
  for (const auto& message : *messages) {
    if (message.course != course) {
      course = message.course;
      std::printf("%s\n", say_cli(msg::show_course, {{"n", std::to_string(course)}}).c_str());
    }
    print_transcript_line(message);
  }
  if (!dialog.last_error.empty()) {
    std::printf("%s\n", say_cli(msg::show_last_drive_failed, {{"error", dialog.last_error}}).c_str());
  }
  return kExitOk;
}

}  // namespace parley::cli
