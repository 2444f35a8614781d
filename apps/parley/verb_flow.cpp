// `parley run --member M` / `parley say DIALOG` / `parley resume DIALOG` for members of kind flow
// (seed 004's phase-driven agents): the flow runner instead of the engine's drive loop. The main
// thread's model answers stream to the terminal as they arrive; a message that holds a sub-thread
// (an outline drafted and reviewed out of sight) is printed once it is complete.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <optional>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "flow_show.hpp"
#include "parley/flow/flow_events.hpp"
#include "parley/flow/flow_runner.hpp"
#include "parley/flow/thread_replay.hpp"
#include "parley/flow/yaml_agent.hpp"
#include "verb_flow.hpp"

namespace parley::cli {

namespace asio = boost::asio;

namespace {

// The member of a flow dialog, or nullopt when the dialog is not a flow's main thread.
std::optional<std::string> flow_member_of(store& log, const std::string& dialog_id) {
  auto events = log.read_events(dialog_id);
  if (!events || !flow::is_flow_dialog(*events)) return std::nullopt;
  return events->front().as<events::dialog_created>()->member_id;
}

std::size_t count_messages(const flow::flow_thread& thread) {
  std::size_t count = thread.messages.size();
  for (const auto& message : thread.messages) {
    if (message.sub_thread) count += count_messages(*message.sub_thread);
  }
  return count;
}

void print_outcome(const flow::flow_thread& main, std::size_t shown_before, bool quiet) {
  for (std::size_t i = shown_before; i < main.messages.size() && !quiet; ++i) {
    const auto& message = main.messages[i];
    if (message.sub_thread) {
      const auto count = static_cast<std::int64_t>(count_messages(*message.sub_thread));
      std::printf("\n%s\n",
                  say_cli(msg::flow_sub_thread_said,
                          {{"id", message.sub_thread->id},
                           {"messages", say_count_cli(msg::flow_messages_one, msg::flow_messages_many, count)},
                           {"text", message.text}})
                      .c_str());
    }
  }
  std::printf("\n%s\n", say_cli(msg::dialog_named, {{"id", main.id}}).c_str());
  std::printf("%s\n", flow_state_line(main.settings).c_str());
}

}  // namespace

std::optional<int> drive_flow(const parsed_args& args, const flow_request& request) {
  auto inputs = prepare_engine_inputs(args);
  if (!inputs) return std::nullopt;  // the engine's path reports it
  std::string member_id = request.member_id.empty() ? inputs->team.default_member : request.member_id;
  if (request.dialog_id) {
    auto member = flow_member_of(*inputs->log, *request.dialog_id);
    if (!member) return std::nullopt;
    member_id = *member;
  }
  const auto* member = inputs->team.find_member(member_id);
  if (member == nullptr || member->kind != config::member_kind::flow) {
    if (!request.dialog_id) return std::nullopt;
    return report(make_error(errc::config_error, "dialog " + *request.dialog_id + " is a flow of member " + member_id +
                                                     ", which the team no longer has as a flow"));
  }
  auto agent = flow::yaml_flow::load(member->flow);
  if (!agent) return report(agent.err());
  const auto provider = inputs->providers.find(member->provider);
  if (provider == inputs->providers.end()) {
    return report(make_error(errc::config_error, "member " + member_id + ": no provider " + member->provider));
  }

  asio::io_context io;
  flow::thread_repository repository(*inputs->log, io.get_executor());
  flow::ai_adapter ai(provider->second, member_id, member->model);
  const bool quiet = args.has("quiet");
  if (!quiet) {
    ai.set_stream_observer([](std::string_view /*thread_id*/, std::string_view chunk) {
      std::fwrite(chunk.data(), 1, chunk.size(), stdout);
      std::fflush(stdout);
    });
  }
  flow::flow_runner runner(repository, ai, agent->factory(member_id), member_id);
  std::size_t shown_before = 0;
  if (request.dialog_id) {
    if (auto before = repository.load_thread(*request.dialog_id)) shown_before = before->messages.size();
  }
  std::optional<result<flow::flow_thread>> outcome;
  auto work = [&]() -> asio::awaitable<void> {
    if (request.status) {
      auto changed = co_await runner.set_status(*request.dialog_id, *request.status);
      if (!changed) {
        outcome.emplace(std::move(changed).err());
      } else {
        outcome.emplace(co_await repository.load_thread_async(*request.dialog_id));
      }
    } else if (!request.dialog_id) {
      outcome.emplace(co_await runner.start(request.message));
    } else if (request.resume) {
      outcome.emplace(co_await runner.resume(*request.dialog_id));
    } else {
      outcome.emplace(co_await runner.say(*request.dialog_id, request.message, request.ui_action));
    }
  };
  asio::co_spawn(io, work(), [&outcome](const std::exception_ptr& thrown) {
    if (thrown) outcome.emplace(make_error(errc::internal, "the flow ended with an unexpected exception"));
  });
  io.run();
  inputs->log->flush();
  if (!outcome || !*outcome) return report(outcome ? outcome->err() : make_error(errc::internal, "no outcome"));
  if (request.status) return kExitOk;
  print_outcome(**outcome, shown_before, quiet);
  return kExitOk;
}

}  // namespace parley::cli
