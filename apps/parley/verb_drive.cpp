// `parley run` and `parley say`: post a message to a dialog and drive it until it is idle,
// streaming what the model thinks and says. Ctrl-C stops the running generation (its partial
// output is kept, marked interrupted).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <cstdio>
#include <optional>

#include "cli_context.hpp"
#include "parley/engine/assembly.hpp"
#include "terminal_printer.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace asio = boost::asio;

namespace {

const arg_spec kDriveSpec{{"team", "workspace", "member", "data", "title"}, {"quiet"}};

struct drive_request {
  std::optional<std::string> dialog_id;  // empty: create a root dialog
  std::string member_id;
  std::string title;
  std::string message;
};

int drive(const parsed_args& args, drive_request request) {
  const auto data_dir = data_dir_of(args);
  auto team = load_team(args, data_dir);
  if (!team) return report(team.err());
  auto log = open_data_store(data_dir);
  if (!log) return report(log.err());
  remember_team(data_dir, *team);
  auto providers = engine::build_providers(*team);
  if (!providers) return report(providers.err());

  asio::io_context io;
  auto created =
      engine::engine::create(io.get_executor(), **log, *team, std::move(*providers), engine::build_builtin_tools());
  if (!created) return report(created.err());
  auto& eng = **created;
  terminal_printer printer(args.has("quiet"));
  eng.add_observer(&printer);

  std::optional<error> failure;
  std::string dialog_id;
  asio::signal_set interrupts(io, SIGINT);
  interrupts.async_wait([&](boost::system::error_code ec, int) {
    if (!ec && !dialog_id.empty()) (void)eng.stop(dialog_id);
  });

  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        // Whatever way this ends, stop listening for Ctrl-C so io.run() can return.
        struct stop_listening {
          asio::signal_set& signals;
          ~stop_listening() { signals.cancel(); }
        } listening_guard{interrupts};
        if (auto valid = eng.check_user_message(request.message); !valid) {
          failure = std::move(valid).err();
          co_return;
        }
        if (request.dialog_id) {
          dialog_id = *request.dialog_id;
        } else {
          const std::string member = request.member_id.empty() ? team->default_member : request.member_id;
          if (team->find_member(member) != nullptr) {
            std::fprintf(stderr, "parley: @%s talks to %s\n", member.c_str(),
                         engine::describe_member_model(*team, member).c_str());
          }
          engine::new_dialog spec{request.member_id, request.title, {}};
          auto id = co_await eng.create_root_dialog(std::move(spec));
          if (!id) {
            failure = std::move(id).err();
            co_return;
          }
          dialog_id = *id;
        }
        auto posted = co_await eng.post_user_message(dialog_id, request.message);
        if (!posted) {
          failure = std::move(posted).err();
          co_return;
        }
        co_await eng.wait_until_idle(dialog_id);
      },
      [&](std::exception_ptr thrown) {
        if (thrown) failure = make_error(errc::internal, "the drive ended with an unexpected exception");
      });
  io.run();

  if (failure) return report(*failure);
  const auto* dialog = eng.find(dialog_id);
  std::printf("dialog %s\n", dialog_id.c_str());
  if (dialog != nullptr && !dialog->row().last_error.empty()) {
    return report(make_error(errc::provider_error, "dialog " + dialog_id + " stopped: " + dialog->row().last_error));
  }
  return kExitOk;
}

}  // namespace

int run_verb_run(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, kDriveSpec);
  if (!args) return report(args.err());
  if (args->positionals.size() != 1) {
    return report(make_error(errc::invalid_argument,
                             "usage: parley run (--team FILE | --workspace DIR) "
                             "[--member ID] [--data DIR] \"message\""));
  }
  return drive(*args, {std::nullopt, args->value("member").value_or(""), args->value("title").value_or(""),
                       args->positionals[0]});
}

int run_verb_say(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, kDriveSpec);
  if (!args) return report(args.err());
  if (args->positionals.size() != 2) {
    return report(make_error(errc::invalid_argument, "usage: parley say DIALOG \"message\""));
  }
  return drive(*args, {args->positionals[0], {}, {}, args->positionals[1]});
}

}  // namespace parley::cli
