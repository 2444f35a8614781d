// `parley title DIALOG "text"` (issue 43): a human's title for a dialog, as PUT
// /api/dialogs/{id}/title gives it — through the running server that holds the data directory,
// else written here (engine/dialog_titles.hpp checks it: a refusal names `title`, changes nothing).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <exception>
#include <optional>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/dialog_titles.hpp"
#include "parley/engine/engine.hpp"
#include "verb_remote.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace {

result<std::string> write_title(const parsed_args& args, const std::string& dialog_id, const std::string& title) {
  auto inputs = prepare_engine_inputs(args);
  if (!inputs) return std::move(inputs).err();
  boost::asio::io_context io;
  auto created = engine::engine::create(io.get_executor(), *inputs->log, inputs->team, std::move(inputs->providers),
                                        engine::build_builtin_tools(inputs->team));
  if (!created) return std::move(created).err();
  // A flow's dialog is written by its flow alone (src/parley/flow/), as over REST.
  auto row = inputs->log->get_dialog(dialog_id);
  if (!row) return std::move(row).err();
  const auto* member = *row ? inputs->team.find_member((**row).member_id) : nullptr;
  if (member != nullptr && member->kind == config::member_kind::flow) {
    return make_error(errc::conflict,
                      "dialog " + dialog_id + " is a flow's; its flow names it, and it cannot be retitled");
  }
  result<std::string> stored = make_error(errc::internal, "the title was not written");
  boost::asio::co_spawn(
      io,
      [&]() -> boost::asio::awaitable<void> { stored = co_await (*created)->titles().set_by_user(dialog_id, title); },
      [&](std::exception_ptr thrown) {
        if (thrown) stored = make_error(errc::internal, "writing the title ended with an unexpected exception");
      });
  io.run();
  return stored;
}

}  // namespace

int run_verb_title(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("title"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 2) return report(make_error(errc::invalid_argument, usage_of("title")));
  const std::string& id = args->positionals[0];
  // Checked before anything is opened: a refused title changes nothing anywhere.
  auto checked = engine::checked_title(args->positionals[1]);
  if (!checked) return report(checked.err());
  if (auto stored = check_dialog_stored(data_dir_of(*args), id); !stored) return report(stored.err());
  remote_request titled{remote_verb::title, id};
  titled.title = *checked;
  if (auto served = through_running_server(*args, titled)) return *served;
  auto stored = write_title(*args, id, *checked);
  if (!stored) return report(stored.err());
  std::printf("%s\n", say_cli(msg::titled, {{"id", id}, {"title", *stored}}).c_str());
  return kExitOk;
}

}  // namespace parley::cli
