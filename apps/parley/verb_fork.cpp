// `parley fork ROOT [--at SEQ | --at-generation N]` (docs/fork.md): a new root tree sharing the
// root's history up to that point. Through a running `parley serve` when one holds the data
// directory (its REST route), else by writing the store itself; either way one batch or nothing.
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/store/fork_plan.hpp"
#include "parley/store/store.hpp"
#include "server_link.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {
namespace {

struct forked_tree {
  std::string id;
  std::int64_t through_seq = 0;
};

result<forked_tree> fork_in_store(const parsed_args& args, const std::string& root_id, const fork_point& point) {
  auto log = open_data_store(data_dir_of(args));
  if (!log) return std::move(log).err();
  auto plan = plan_fork(**log, root_id, point, now_ms());
  if (!plan) return std::move(plan).err();
  std::optional<result<void>> outcome;
  (*log)->append(std::move(plan->batch), [&outcome](result<void> done) { outcome = std::move(done); });
  (*log)->flush();
  if (!outcome) return make_error(errc::internal, "the store did not report the fork's append");
  if (!*outcome) return std::move(*outcome).err();
  return forked_tree{plan->fork_root_id, plan->through_seq};
}

result<std::optional<forked_tree>> fork_through_server(const parsed_args& args, const std::string& root_id,
                                                       const fork_point& point) {
  if (store_url()) return std::optional<forked_tree>{};
  auto server = find_server(data_dir_of(args));
  if (!server) return std::move(server).err();
  if (!*server) return std::optional<forked_tree>{};
  boost::json::object body;
  if (point.at_seq) body["at"] = *point.at_seq;
  if (point.at_generation) body["atGeneration"] = *point.at_generation;
  const boost::json::value sent = std::move(body);
  auto answer = call_server(**server, "POST", "/api/dialogs/" + root_id + "/fork", &sent);
  if (!answer) return std::move(answer).err();
  const auto* dialog = answer->is_object() ? answer->as_object().if_contains("dialog") : nullptr;
  const auto* id = dialog != nullptr && dialog->is_object() ? dialog->as_object().if_contains("id") : nullptr;
  const auto* from = dialog != nullptr && dialog->is_object() ? dialog->as_object().if_contains("forkedFrom") : nullptr;
  const auto* at = from != nullptr && from->is_object() ? from->as_object().if_contains("at") : nullptr;
  if (id == nullptr || !id->is_string() || at == nullptr || !at->is_int64()) {
    return make_error(errc::internal, "the server's answer to the fork names no dialog.id and forkedFrom.at");
  }
  return std::optional<forked_tree>{forked_tree{std::string(id->as_string()), at->as_int64()}};
}

}  // namespace

int run_verb_fork(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("fork"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) return report(make_error(errc::invalid_argument, usage_of("fork")));
  const std::string root_id = args->positionals[0];
  auto at = args->integer("at", 1);
  if (!at) return report(at.err());
  auto at_generation = args->integer("at-generation", 1);
  if (!at_generation) return report(at_generation.err());
  if (*at && *at_generation) {
    return report(make_error(errc::invalid_argument, say_cli(msg::fork_either_at)));
  }
  if (auto stored = check_dialog_stored(data_dir_of(*args), root_id); !stored) return report(stored.err());
  const fork_point point{*at, *at_generation};
  auto served = fork_through_server(*args, root_id, point);
  if (!served) return report(served.err());
  auto forked = *served ? result<forked_tree>(std::move(**served)) : fork_in_store(*args, root_id, point);
  if (!forked) return report(forked.err());
  if (args->has("json")) {
    const boost::json::object out{{"id", forked->id},
                                  {"forkedFrom", {{"dialog", root_id}, {"at", forked->through_seq}}}};
    std::printf("%s\n", boost::json::serialize(out).c_str());
  } else {
    const std::string seq = std::to_string(forked->through_seq);
    std::printf("%s\n", say_cli(msg::fork_done, {{"root", root_id}, {"seq", seq}, {"id", forked->id}}).c_str());
  }
  return kExitOk;
}

}  // namespace parley::cli
