// `POST /api/dialogs/{id}/replay` (docs/fork.md "Replay"): the fork of a replay, made as one batch
// after every check (a refused body or point writes nothing), then driven in the background by an
// engine of its own — the served team with the change, the scratch workspace, the origin's record
// — which lives until the replay's tree settles. A team file is not taken over REST: a replay
// changes the model, the provider or members' personas of the served team.
#include "parley/server/rest_replay.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include <array>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "parley/core/terminal_text.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/replay_oracle.hpp"
#include "parley/engine/replay_team.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/store/async_append.hpp"

namespace parley::server::rest {

namespace {

namespace asio = boost::asio;

struct replay_request {
  std::optional<std::int64_t> from;
  std::optional<std::int64_t> at_generation;
  std::optional<std::string> model;
  std::optional<std::string> provider;
  std::optional<boost::json::object> member_persona;  // member id → persona text
  std::optional<std::string> tools;

  template <class S, class R>
  static void fields(S& s, R& r) {
    static constexpr std::array<std::string_view, 2> kReplayToolModes{"live", "recorded"};
    r.integer("from", s.from, 1, std::numeric_limits<std::int64_t>::max());
    r.integer("atGeneration", s.at_generation, 1, std::numeric_limits<std::int64_t>::max());
    r.name("model", s.model);
    r.name("provider", s.provider);
    r.object("memberPersona", s.member_persona);
    r.one_of("tools", s.tools, kReplayToolModes);
  }
  result<void> check() const {
    if (from && at_generation) return field_problem("atGeneration", "give either from or atGeneration, not both");
    if (!member_persona) return ok();
    for (const auto& [id, text] : *member_persona) {
      if (!text.is_string() || text.as_string().empty()) {
        return field_problem("memberPersona." + std::string(id), "expected the persona's text");
      }
    }
    return ok();
  }
};

events::replay_started replay_spec_of(const replay_request& body) {
  events::replay_started spec;
  spec.model = body.model;
  spec.provider = body.provider;
  if (body.member_persona) {
    for (const auto& [id, text] : *body.member_persona) {
      spec.personas.push_back({std::string(id), std::string(text.as_string())});
    }
  }
  spec.tools = body.tools.value_or("live") == "recorded" ? events::replay_tools::recorded : events::replay_tools::live;
  return spec;
}

// Tells the server's PubChan what a replay's engine does, as the served engine's news is told, so
// that a replay's progress shows live. The served engine's copy of the replay's tree is read again
// when a drive ends, so that the state PubChan and REST report is what the replay wrote.
class replay_news final : public engine::engine_observer {
 public:
  replay_news(server_context& context, std::string root_id) : context_(context), root_id_(std::move(root_id)) {}
  void on_stream(const engine::stream_event& ev) override { context_.channels.on_stream(ev); }
  void on_event(const event& ev) override { context_.channels.on_event(ev); }
  void on_drive_finished(std::string_view dialog_id) override {
    context_.engine.dialogs().cache().forget_tree(root_id_);
    (void)context_.engine.dialogs().load(dialog_id);  // unreadable: the next request says why
    context_.channels.on_drive_finished(dialog_id);
  }

 private:
  server_context& context_;
  std::string root_id_;
};

// The replay engines driving now, by store and fork root: a resume, an answer or a message for a
// replay's tree goes to the engine already driving it rather than to a second one. Only touched on
// the server's one executor.
using replay_run_key = std::pair<const store*, std::string>;
std::map<replay_run_key, std::weak_ptr<replay_run>>& live_replay_runs() {
  static std::map<replay_run_key, std::weak_ptr<replay_run>> runs;
  return runs;
}

// Keeps the replay's engine until its tree settles (done, failed, or waiting for a human).
asio::awaitable<void> settle_replay(std::shared_ptr<replay_run> run, std::string fork_id) {
  co_await run->eng->runs().wait_until_settled(fork_id);
  live_replay_runs().erase({run->log, fork_id});
  run->eng->stop_mcp();
}

asio::awaitable<void> drive_replay(std::shared_ptr<replay_run> run, std::string fork_id) {
  (void)co_await run->eng->runs().resume(fork_id);  // a failure is the fork's drive_failed
  co_await settle_replay(std::move(run), std::move(fork_id));
}

// The replay's engine: the file tools may use its scratch workspace, inside the data directory,
// and nothing else of it.
result<std::shared_ptr<replay_run>> replay_engine(server_context& context, const asio::any_io_executor& executor,
                                                  engine::replay_oracle oracle, const std::string& fork_id) {
  auto run = std::make_shared<replay_run>();
  run->log = &context.log;
  run->news = std::make_unique<replay_news>(context, fork_id);
  run->oracle = std::move(oracle);
  config::team_config team;
  PARLEY_TRY_ASSIGN(team, engine::replay_team(context.engine.team(), run->oracle->spec()));
  engine::provider_map providers;
  PARLEY_TRY_ASSIGN(providers, engine::build_providers(team));
  auto tools = engine::build_builtin_tools(team);
  PARLEY_TRY_ASSIGN(
      run->eng, engine::engine::create(executor, context.log, std::move(team), std::move(providers), std::move(tools)));
  std::vector<tools::protected_dir> protect;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(context.data_dir, ec)) {
    if (entry.path().filename() != "replays") protect.push_back({entry.path(), "Parley's data directory"});
  }
  run->eng->drives().set_protected_dirs(std::move(protect));
  run->eng->drives().set_replay(&*run->oracle);
  run->eng->add_observer(run->news.get());
  // The served engine's copy would go stale while the replay's engine writes the tree.
  context.engine.dialogs().cache().forget_tree(fork_id);
  live_replay_runs()[{&context.log, fork_id}] = run;
  return run;
}

// The replay's record (its replay_started and the origin's calls after the cut), read on the read
// thread: it is the whole origin's history after the point.
asio::awaitable<result<engine::replay_oracle>> read_replay_oracle(server_context& context, std::string root_id) {
  auto load_it = [&log = context.log, id = root_id] { return engine::replay_oracle::load(log, id); };
  auto oracle = co_await read_store(context, std::move(load_it));
  if (!oracle) co_return std::move(oracle).err();
  if (!*oracle) co_return make_error(errc::internal, "replay " + root_id + " has no replay_started");
  co_return std::move(**oracle);
}

// The replay engine of the tree rooted at `root_id`, known to be a replay's: the one driving it
// now, or a new one made from its replay_started.
asio::awaitable<result<std::shared_ptr<replay_run>>> replay_run_of_root(server_context& context, std::string root_id) {
  if (auto live = live_replay_runs()[{&context.log, root_id}].lock()) co_return live;
  if (context.data_dir.empty()) {
    co_return make_error(errc::conflict, "replays need the server's data directory");
  }
  // The change read back from the replay's own record, as `parley resume` does.
  auto oracle = co_await read_replay_oracle(context, root_id);
  if (!oracle) co_return std::move(oracle).err();
  // Another request may have made the engine while the record was read.
  if (auto live = live_replay_runs()[{&context.log, root_id}].lock()) co_return live;
  auto executor = co_await asio::this_coro::executor;
  co_return replay_engine(context, executor, std::move(*oracle), root_id);
}

}  // namespace

handler_result post_replay(server_context& context, const rest_request& request, std::string dialog_id) {
  auto row = co_await read_dialog(context, request, dialog_id);
  if (!row) co_return error_response(row.err());
  rest_response failure;
  const auto body = read_body<replay_request>(request, true, failure);
  if (!body) co_return failure;
  if (context.data_dir.empty()) {
    co_return error_response(make_error(errc::conflict, "replays need the server's data directory"));
  }
  auto spec = replay_spec_of(*body);
  if (auto changed = engine::check_replay_change(context.engine.team(), spec); !changed) {
    co_return error_response(changed.err());
  }
  // With no point the whole tree runs again: from just before the root's first generation.
  const fork_point point =
      body->from ? fork_point{body->from, std::nullopt} : fork_point{std::nullopt, body->at_generation.value_or(1)};
  const auto replays = context.data_dir / "replays";
  auto plan_it = [&log = context.log, id = dialog_id, point, &spec, replays] {
    return engine::plan_replay(log, id, point, spec, replays, now_ms());
  };
  auto plan = co_await read_store(context, std::move(plan_it));
  if (!plan) co_return error_response(plan.err());
  const std::string fork_id = plan->fork_root_id;
  if (auto copied = engine::copy_replay_workspace(context.engine.team().workspace, spec.workspace, context.data_dir);
      !copied) {
    co_return error_response(copied.err());
  }
  auto executor = co_await asio::this_coro::executor;
  auto appended = co_await async_append(context.log, executor, std::move(plan->batch));
  if (!appended) co_return error_response(appended.err());
  auto oracle = co_await read_replay_oracle(context, fork_id);
  if (!oracle) co_return error_response(oracle.err());
  auto run = replay_engine(context, executor, std::move(*oracle), fork_id);
  if (!run) co_return error_response(run.err());
  asio::co_spawn(executor, drive_replay(std::move(*run), fork_id), asio::detached);
  boost::json::object answer{
      {"id", fork_id},
      {"replayOf", boost::json::object{
                       {"dialog", dialog_id}, {"from", spec.from_seq}, {"change", engine::replay_change_text(spec)}}}};
  co_return json_response(201, std::move(answer));
}

asio::awaitable<result<std::shared_ptr<replay_run>>> replay_run_for(server_context& context, const dialog_row& row) {
  // Loading the root tells a replay (its replay_started) from any other tree.
  PARLEY_CO_TRY(co_await context.engine.dialogs().load_async(row.root_id));
  if (!context.engine.dialogs().cache().is_replay_root(row.root_id)) co_return std::shared_ptr<replay_run>{};
  co_return co_await replay_run_of_root(context, row.root_id);
}

asio::awaitable<void> recover_replays(server_context& context, std::vector<std::string> root_ids) {
  for (const auto& root_id : root_ids) {
    auto run = co_await replay_run_of_root(context, root_id);
    if (!run) {
      // Left as it was (its claim given back): `parley resume` or POST .../resume says why again.
      context.log.release_tree(root_id);
      std::fprintf(stderr, "parley: warning: replay %s not recovered: %s\n", terminal_safe(root_id).c_str(),
                   terminal_safe(run.err().message).c_str());
      continue;
    }
    // Scheduled once here, by the replay's engine only: the served engine skipped this tree.
    if (co_await (*run)->eng->runs().recover_tree(root_id) == 0) context.log.release_tree(root_id);
    auto executor = co_await asio::this_coro::executor;
    settle_replay_later(executor, std::move(*run), root_id);
  }
}

void settle_replay_later(const asio::any_io_executor& executor, std::shared_ptr<replay_run> run, std::string root_id) {
  asio::co_spawn(executor, settle_replay(std::move(run), std::move(root_id)), asio::detached);
}

}  // namespace parley::server::rest
