// `parley export` and `parley import` (see verb_rtws.hpp): thin wrappers over parley::rtws.
#include "verb_rtws.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/terminal_text.hpp"
#include "parley/rtws/dominds_export.hpp"
#include "parley/rtws/dominds_import.hpp"
#include "parley/rtws/dominds_layout.hpp"
#include "parley/rtws/rtws_export.hpp"
#include "parley/rtws/rtws_import.hpp"
#include "parley/rtws/rtws_layout.hpp"
#include "parley/store/bulk_load.hpp"
#include "verb_usage.hpp"

namespace parley::cli {

namespace {

// The rtws folder from --rtws, which both verbs require, and no positionals.
result<std::filesystem::path> rtws_of(const parsed_args& args, const std::string& usage) {
  const auto rtws = args.value("rtws");
  if (!rtws || rtws->empty() || !args.positionals.empty()) return make_error(errc::invalid_argument, usage);
  return std::filesystem::path(*rtws);
}

// A Dominds `.dialogs/` folder: what it could read is imported, each tree it could not is named.
int import_dominds(store& log, const std::filesystem::path& rtws) {
  auto summary = rtws::dominds::import_rtws(log, rtws);
  if (!summary) return report(summary.err());
  const std::string dialogs = std::to_string(summary->dialogs);
  const std::string roots = std::to_string(summary->roots);
  const std::string events = std::to_string(summary->events);
  const std::string files = std::to_string(summary->files);
  std::string line = say_cli(msg::imported_dominds, {{"dialogs", dialogs},
                                                     {"roots", roots},
                                                     {"events", events},
                                                     {"dir", rtws::dialogs_path(rtws).string()},
                                                     {"files", files}});
  if (summary->already_imported > 0) {
    line += say_cli(msg::imported_already, {{"n", std::to_string(summary->already_imported)}});
  }
  std::printf("%s\n", line.c_str());
  for (const auto& left : summary->quarantined) {
    std::fprintf(stderr, "%s\n",
                 say_cli(msg::quarantined_dialog, {{"id", terminal_safe(left.dominds_id)},
                                                   {"folder", terminal_safe(left.folder.string())},
                                                   {"problem", terminal_safe(left.problem)}})
                     .c_str());
  }
  // Partly imported is still a failure to a script: it exits 1, having said what was left out.
  return summary->quarantined.empty() ? kExitOk : kExitRuntime;
}

// "exported 3 dialogs (40 events) to DIR/.dialogs: 12 files" (or "imported ... files read").
void print_rtws_summary(msg what, std::int64_t dialogs, std::int64_t events, const std::filesystem::path& rtws,
                        std::int64_t files) {
  const std::string dialog_count = std::to_string(dialogs);
  const std::string event_count = std::to_string(events);
  const std::string file_count = std::to_string(files);
  std::printf("%s\n", say_cli(what, {{"dialogs", dialog_count},
                                     {"events", event_count},
                                     {"dir", rtws::dialogs_path(rtws).string()},
                                     {"files", file_count}})
                          .c_str());
}

}  // namespace

int run_verb_export(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("export"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  auto rtws = rtws_of(*args, usage_of("export"));
  if (!rtws) return report(rtws.err());
  // Exporting only reads: never an empty database where the user mistyped --data, and it works
  // beside a running server.
  auto log = open_existing_store(data_dir_of(*args));
  if (!log) return report(log.err());
  auto summary = args->has("dominds") ? rtws::dominds::export_rtws(**log, *rtws, args->has("force"))
                                      : rtws::export_rtws(**log, *rtws, args->has("force"));
  if (!summary) return report(summary.err());
  print_rtws_summary(msg::exported, summary->dialogs, summary->events, *rtws, summary->files);
  return kExitOk;
}

int run_verb_import(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("import"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  auto rtws = rtws_of(*args, usage_of("import"));
  if (!rtws) return report(rtws.err());
  // A one-pass load: caches sized for it, so memory stays flat in the number of dialogs.
  use_bulk_load_page_cache();
  auto log = open_data_store(data_dir_of(*args), bulk_load_options());
  if (!log) return report(log.err());
  if (rtws::dominds::detect_layout(*rtws) == rtws::dominds::folder_layout::dominds) return import_dominds(**log, *rtws);
  auto summary = rtws::import_rtws(**log, *rtws);
  if (!summary) return report(summary.err());
  print_rtws_summary(msg::imported, summary->dialogs, summary->events, *rtws, summary->files);
  return kExitOk;
}

}  // namespace parley::cli
