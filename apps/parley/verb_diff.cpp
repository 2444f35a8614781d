// `parley diff A B [--json]`: two root trees of one store aligned and compared (docs/eval.md "Diff").
#include <boost/json/serialize.hpp>

#include <cstdio>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/eval/tree_diff.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {
namespace {

// The team prices the calls; without one (none given or remembered) every call is unpriced.
std::optional<config::team_config> diff_prices(const parsed_args& args) {
  auto team = load_team(args, data_dir_of(args));
  if (!team) return std::nullopt;
  return std::move(*team);
}

}  // namespace

int run_verb_diff(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("diff"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 2) return report(make_error(errc::invalid_argument, usage_of("diff")));
  auto log = open_existing_store(data_dir_of(*args));
  if (!log) return report(log.err());
  const auto prices = diff_prices(*args);
  std::vector<eval::tree_summary> trees;
  for (const auto& id : args->positionals) {
    auto events = eval::read_tree(**log, id);
    if (!events) return report(events.err());
    trees.push_back(eval::summarize_tree(id, *events, prices ? &*prices : nullptr));
  }
  const auto diff = eval::diff_trees(trees[0], trees[1]);
  if (args->has("json")) {
    std::printf("%s\n", boost::json::serialize(eval::diff_to_json(diff)).c_str());
  } else {
    std::fputs(eval::diff_to_text(diff, cli_language()).c_str(), stdout);
  }
  return kExitOk;
}

}  // namespace parley::cli
