// `parley export` and `parley import` (see verb_rtws.hpp): thin wrappers over parley::rtws.
#include "verb_rtws.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "cli_context.hpp"
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
  std::printf("imported %lld dialogs (%lld roots, %lld events) from Dominds' %s: %lld files read",
              static_cast<long long>(summary->dialogs), static_cast<long long>(summary->roots),
              static_cast<long long>(summary->events), rtws::dialogs_path(rtws).string().c_str(),
              static_cast<long long>(summary->files));
  if (summary->already_imported > 0) {
    std::printf("; %lld roots were already in the store", static_cast<long long>(summary->already_imported));
  }
  std::printf("\n");
  for (const auto& left : summary->quarantined) {
    std::fprintf(stderr, "quarantined dialog %s (%s): %s\n", terminal_safe(left.dominds_id).c_str(),
                 terminal_safe(left.folder.string()).c_str(), terminal_safe(left.problem).c_str());
  }
  // Partly imported is still a failure to a script: it exits 1, having said what was left out.
  return summary->quarantined.empty() ? kExitOk : kExitRuntime;
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
  std::printf("exported %lld dialogs (%lld events) to %s: %lld files\n", static_cast<long long>(summary->dialogs),
              static_cast<long long>(summary->events), rtws::dialogs_path(*rtws).string().c_str(),
              static_cast<long long>(summary->files));
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
  std::printf("imported %lld dialogs (%lld events) from %s: %lld files read\n",
              static_cast<long long>(summary->dialogs), static_cast<long long>(summary->events),
              rtws::dialogs_path(*rtws).string().c_str(), static_cast<long long>(summary->files));
  return kExitOk;
}

}  // namespace parley::cli
