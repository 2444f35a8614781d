// The engine: owns the dialogs of one process, drives them from backend coroutines and writes
// every step to the log before acting on it. Clients never drive; they post input and observe.
//
// Threading: every member function and every coroutine runs on the one executor given at
// creation (a single-threaded io_context). The store's writer thread is the only other thread.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/log_writer.hpp"
#include "parley/engine/observer.hpp"
#include "parley/llm/provider.hpp"
#include "parley/store/store.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

using provider_map = std::map<std::string, std::shared_ptr<llm::provider>, std::less<>>;

struct new_dialog {
  std::string member_id;  // empty: the team's default member
  std::string title;
  std::string task_doc_path;
};

class engine {
 public:
  // Checks that every member's provider and tools exist; the engine keeps references to `log`.
  static result<std::unique_ptr<engine>> create(boost::asio::any_io_executor executor, store& log,
                                                config::team_config team, provider_map providers,
                                                tools::tool_registry tools);
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  void add_observer(engine_observer* observer) { observers_.push_back(observer); }

  boost::asio::awaitable<result<std::string>> create_root_dialog(new_dialog spec);
  // Durably appends a user message, then schedules the dialog's drive. Waits for a running drive
  // of the same dialog to end first (the per-dialog FIFO lock).
  boost::asio::awaitable<result<void>> post_user_message(std::string dialog_id, std::string content,
                                                         std::string msg_id = {});
  // The checks post_user_message makes on content, for callers that want them before creating a dialog.
  result<void> check_user_message(std::string_view content) const;
  // Suspends until the dialog has no drive queued or running.
  boost::asio::awaitable<void> wait_until_idle(std::string dialog_id);
  // Stops the running generation of a dialog; its partial output is kept, marked interrupted.
  result<void> stop(std::string_view dialog_id);

  // Loads one dialog from the log (once); later calls return the loaded runtime.
  result<dialog_runtime*> load(std::string_view dialog_id);
  // Loads every running dialog and schedules a drive for those with pending work.
  result<std::size_t> recover_all();
  const dialog_runtime* find(std::string_view dialog_id) const;

  const config::team_config& team() const noexcept { return team_; }
  std::string_view provider_kind_of(std::string_view member_id) const;

 private:
  engine(boost::asio::any_io_executor executor, store& log, config::team_config team, provider_map providers,
         tools::tool_registry tools);

  struct member_setup {
    const config::member_config* config = nullptr;
    llm::provider* provider = nullptr;
    std::vector<tools::tool*> tools;
    std::vector<llm::tool_spec> tool_specs;
  };
  result<void> prepare_members();

  void schedule_drive(dialog_runtime& dialog);
  boost::asio::awaitable<void> drive(dialog_runtime& dialog);
  boost::asio::awaitable<void> drive_locked(dialog_runtime& dialog);
  boost::asio::awaitable<result<void>> generate(dialog_runtime& dialog, const member_setup& member, std::int64_t round);
  boost::asio::awaitable<void> run_tools(dialog_runtime& dialog, const member_setup& member,
                                         const std::vector<llm::tool_call>& calls);
  boost::asio::awaitable<void> record_failure(dialog_runtime& dialog, std::string message);
  // Stages an event on the dialog and tells observers at once (before it is durable).
  result<void> stage(dialog_runtime& dialog, std::string_view type, boost::json::object payload);
  boost::asio::awaitable<result<void>> commit(dialog_runtime& dialog);

  boost::asio::any_io_executor executor_;
  store& log_;
  config::team_config team_;
  provider_map providers_;
  tools::tool_registry tools_;
  std::vector<engine_observer*> observers_;
  log_writer writer_;
  std::map<std::string, member_setup, std::less<>> members_;
  std::unordered_map<std::string, std::unique_ptr<dialog_runtime>> dialogs_;
};

}  // namespace parley::engine
