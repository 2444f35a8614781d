// `parley export` and `parley import` (see verb_rtws.hpp): thin wrappers over parley::rtws.
#include "verb_rtws.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "cli_context.hpp"
#include "parley/rtws/rtws_export.hpp"
#include "parley/rtws/rtws_import.hpp"
#include "parley/rtws/rtws_layout.hpp"
#include "verb_usage.hpp"

namespace parley::cli {

namespace {

// The rtws folder from --rtws, which both verbs require, and no positionals.
result<std::filesystem::path> rtws_of(const parsed_args& args, const std::string& usage) {
  const auto rtws = args.value("rtws");
  if (!rtws || rtws->empty() || !args.positionals.empty()) return make_error(errc::invalid_argument, usage);
  return std::filesystem::path(*rtws);
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
  auto summary = rtws::export_rtws(**log, *rtws, args->has("force"));
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
  auto log = open_data_store(data_dir_of(*args));
  if (!log) return report(log.err());
  auto summary = rtws::import_rtws(**log, *rtws);
  if (!summary) return report(summary.err());
  std::printf("imported %lld dialogs (%lld events) from %s: %lld files read\n",
              static_cast<long long>(summary->dialogs), static_cast<long long>(summary->events),
              rtws::dialogs_path(*rtws).string().c_str(), static_cast<long long>(summary->files));
  return kExitOk;
}

}  // namespace parley::cli
