// The engine: owns the dialogs of one process, drives them from backend coroutines and writes
// every step to the log before acting on it. Clients never drive; they post input and observe.
//
// A façade over collaborators that each own their part (docs/architecture.md, "The engine"):
//   dialog_host      the loaded dialogs, staging and committing their events (the log writer)
//   member_roster    the members: providers, tools, what a model call sends, media descriptions
//   input_checks     an input's content and its client message id (retries)
//   tellask_router   seed 001's Tellask routing (decides and stages)
//   working_memory   reminders, Taskdoc, clear_mind, context health, diligence pushes
//   drive_loop       scheduling and driving dialogs, tool runs, the retry of stalled dialogs
//   drive_control    stop, resume, waits, start-up recovery
//   human_questions  Q4H answers and lists, dead subdialogs
//   root_lifecycle   a root's status (running, completed, archived)
//   dialog_titles    a title a human or the model gives after creation
//   record_writes    seed 002's records events the engine's own work does not produce
// The engine itself creates dialogs (roots, program subdialogs, reflections) and takes input.
//
// Threading: every member function and every coroutine runs on the one executor given at
// creation (a single-threaded io_context). The store's writer thread is the only other thread, and
// its read thread when one is given (dialogs().set_reads): the reads a coroutine may await — a
// retry's msgId, a dialog coming back into memory, what the Tellask routing will load, a records
// session's opener — run there, so the loop never waits for the store (start-up recovery and the
// CLI's one-shot verbs read right here).
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/dialog_titles.hpp"
#include "parley/engine/drive_control.hpp"
#include "parley/engine/drive_loop.hpp"
#include "parley/engine/human_questions.hpp"
#include "parley/engine/input_checks.hpp"
#include "parley/engine/mcp_reload.hpp"
#include "parley/engine/member_roster.hpp"
#include "parley/engine/observer.hpp"
#include "parley/engine/record_writes.hpp"
#include "parley/engine/root_lifecycle.hpp"
#include "parley/engine/team_watch.hpp"
#include "parley/engine/tellask_router.hpp"
#include "parley/engine/working_memory.hpp"
#include "parley/llm/provider.hpp"
#include "parley/store/store.hpp"
#include "parley/tools/mcp/mcp_servers.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

struct new_dialog {
  std::string member_id;  // empty: the team's default member (in a group: its first member, if any)
  std::string title;
  std::string task_doc_path;  // a `*.tsk` package in the workspace, created if missing
  // A self-reflection of the member (start_reflection); none for any other dialog.
  std::optional<events::reflection_spec> reflection;
  // Seed 002's dialogue types. `humans`: the users who take part, its creator first (who may see
  // it). `members`: a group's AI members (two or more with one human: a LIO; any with several
  // humans: an AI in a human group). No members and `humans_only`: humans talk among themselves.
  std::vector<std::string> humans;
  std::vector<std::string> members;
  bool humans_only = false;
  // The first user message (from `first_message_from`), durable in the same commit as the dialog,
  // which is then driven: a crash never leaves the dialog without its task. Empty: none.
  std::string first_message;
  std::string first_message_id;  // empty: a new UUID
  std::string first_message_from;
  // Its attachment (the wire object post_user_message takes; empty: none), described by the team's
  // captioner or transcriber before the commit, so the message and its media are committed with
  // the dialog too: a crash while a model describes it leaves nothing, and a retry makes it once.
  boost::json::object first_message_attachment;
};

// What start_reflection did: the reflection's dialog, its new session, and whether the dialog was
// the kind's existing one.
struct reflection_started {
  std::string dialog_id;
  std::string session_id;
  bool reused = false;
};

// A team as `parley serve` builds one to run (the loaded team with its problems settled, its
// providers, its tools): what engine::replace_team swaps in.
struct team_parts {
  config::team_config team;
  provider_map providers;
  tools::tool_registry tools;
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

  void add_observer(engine_observer* observer) { dialogs_.add_observer(observer); }

  boost::asio::awaitable<result<std::string>> create_root_dialog(new_dialog spec);
  // A self-reflection of `member_id` (seed 002's AI ⇄ self, opened by `trigger`, e.g. a schedule;
  // engine/reflection.cpp). Seed 002 keeps one reflection dialogue per kind — the goal, as its
  // "周总结" window — so the member's running reflection root with this goal is found in the log
  // and takes a new self-reflection session; only the first of a kind creates a root. The session
  // and the goal's system prompt are one commit, then the dialog is driven. A reflection of that
  // kind still at work is a conflict naming its dialog, and nothing is written.
  boost::asio::awaitable<result<reflection_started>> start_reflection(std::string member_id, std::string trigger,
                                                                      std::string goal);
  // A subdialog of `parent_id` that a program drives instead of a Tellask (the ToT explorer's
  // agent calls, src/parley/tot): `member_id` gets `task` as its first message (origin system) and
  // is driven. No Tellask assigned it, so it replies to nobody: the program waits until it is idle
  // and reads its answer. `call_kind` is recorded as its callKind. Its id.
  boost::asio::awaitable<result<std::string>> create_program_subdialog(std::string parent_id, std::string member_id,
                                                                       std::string call_kind, std::string task);
  // Durably appends a user message, then schedules the dialog's drive. Waits for a running drive
  // of the same dialog to end first (the per-dialog FIFO lock).
  // `from`: the user who wrote it. In a group dialog the message goes to the member it mentions
  // (group_routing.hpp) and is only relayed when nobody is asked: no drive.
  // `attachment`: an image or recording (event.hpp's user_message attachment); one that comes
  // without a caption or transcription gets it from the team's captioner or transcriber first.
  boost::asio::awaitable<result<void>> post_user_message(std::string dialog_id, std::string content,
                                                         std::string msg_id = {}, std::string from = {},
                                                         boost::json::object attachment = {});
  // post_user_message that first opens a records session (seed 002's new session in a reused
  // dialogue) in the same commit as the message: a refused message leaves no empty session.
  // `open` decides under the dialog's lock, with the records caught up, which session (nullopt:
  // none, e.g. while a turn is pending); its error refuses the message.
  boost::asio::awaitable<result<void>> post_user_message_in_new_session(std::string dialog_id, std::string content,
                                                                        std::string msg_id, std::string from,
                                                                        boost::json::object attachment,
                                                                        session_opener open);
  // The Type B registry of a root (seed 001 registry.yaml), sorted by key; read right here (a CLI
  // verb), or with registry_async on the read thread (dialogs().set_reads).
  result<std::vector<registry_entry>> registry(std::string_view root_id);
  boost::asio::awaitable<result<std::vector<registry_entry>>> registry_async(std::string root_id);
  // A loaded dialog, or null (dialogs().load and load_async read one that is not).
  const dialog_runtime* find(std::string_view dialog_id) const { return dialogs_.find(dialog_id); }
  const config::team_config& team() const noexcept { return team_; }
  // Hot reload (engine/team_reload.cpp, docs/team-yaml.md "Reloading"): swaps in the team `build`
  // makes, once it passes the checks create makes; `build` is called twice (a trial, then the team
  // kept). The next drive of every dialog runs on the new team; a drive under way finishes with
  // its member as it started (the old team is retired, never destroyed, while the engine lives).
  // On an error nothing changes, the error is returned and problems() lists it until a reload
  // succeeds. Also swaps the MCP servers in use for the new team's.
  using team_builder = std::function<result<team_parts>()>;
  result<void> replace_team(const team_builder& build);
  // The team's problems (config::problem), and the last reload's failure while the last good team runs.
  std::vector<config::problem> problems() const;

  // The collaborators, for what the façade does not take itself (see the list above).
  dialog_host& dialogs() noexcept { return dialogs_; }
  const dialog_host& dialogs() const noexcept { return dialogs_; }
  member_roster& members() noexcept { return members_; }
  const member_roster& members() const noexcept { return members_; }
  const input_checks& inputs() const noexcept { return inputs_; }
  input_checks& inputs() noexcept { return inputs_; }
  drive_loop& drives() noexcept { return drives_; }
  const drive_loop& drives() const noexcept { return drives_; }
  drive_control& runs() noexcept { return runs_; }
  human_questions& questions() noexcept { return questions_; }
  root_lifecycle& lifecycle() noexcept { return lifecycle_; }
  dialog_titles& titles() noexcept { return titles_; }
  record_writes& records() noexcept { return records_; }

  // The team's MCP servers (docs/mcp.md "Tools"), started when a member that has them is first
  // driven. Their processes (and Dominds' daemons) keep the event loop busy: a command that ends
  // calls stop_mcp first.
  tools::mcp::mcp_servers& mcp() noexcept { return *mcp_; }
  // Reloads the team's `.minds/mcp.yaml` when it changes (mcp_reload.hpp); `parley serve` turns it
  // on. Does nothing when the servers come from the team file itself.
  void watch_mcp_config(std::chrono::milliseconds every = std::chrono::seconds(2));
  // Reloads the team when the files it was read from change (team_watch.hpp: `watched`, without
  // what is under `skip`): replace_team(build), whose outcome `said` is told. `parley serve` turns
  // it on instead of watch_mcp_config (a workspace's mcp.yaml is one of its files).
  void watch_team_files(std::vector<std::filesystem::path> watched, std::vector<std::filesystem::path> skip,
                        team_builder build, std::function<void(const result<void>& reloaded)> said,
                        std::chrono::milliseconds every = std::chrono::seconds(2));
  // Ends every MCP server's process, every command Dominds' shell_cmd left running (its daemons:
  // tools/dominds_tools.hpp) and the reload watches; a later use starts the servers again.
  void stop_mcp();

 private:
  engine(boost::asio::any_io_executor executor, store& log, config::team_config team, provider_map providers,
         tools::tool_registry tools);

  // Checks a new root's members and fills in its default responder.
  result<void> resolve_members(new_dialog& spec) const;
  // The dialog_created of a new root.
  events::dialog_created created_event(new_dialog& spec) const;
  // The user_message event for `dialog` (course, msgId, a group's responder).
  events::user_message input_payload(const dialog_runtime& dialog, std::string content, std::string msg_id,
                                     events::message_origin origin, std::string from,
                                     std::optional<events::attachment> attachment) const;
  // Input to a running dialog (`origin` user or system), durable before it returns; then driven.
  // `open`: a records session staged before the input, in its commit (session_opener).
  boost::asio::awaitable<result<void>> post_input(std::string dialog_id, std::string content, std::string msg_id,
                                                  events::message_origin origin, std::string from = {},
                                                  std::optional<events::attachment> attachment = std::nullopt,
                                                  session_opener open = {});

  // The pool of MCP servers for `team`: those whose ids are free (not a built-in toolset's).
  std::unique_ptr<tools::mcp::mcp_servers> make_mcp(const boost::asio::any_io_executor& executor,
                                                    const tools::tool_registry& tools);

  // Declared in the order they are built: each refers only to those above it.
  config::team_config team_;
  dialog_host dialogs_;
  std::unique_ptr<tools::mcp::mcp_servers> mcp_;  // before the roster, whose tools refer to it
  member_roster members_;
  input_checks inputs_{team_, dialogs_};
  record_writes records_{dialogs_};
  tellask_router router_{dialogs_.cache(), team_, dialogs_.observers(), records_.windows()};
  working_memory memory_{team_, dialogs_, router_};
  drive_loop drives_;
  drive_control runs_{dialogs_, drives_};
  human_questions questions_{dialogs_, router_, inputs_, drives_};
  root_lifecycle lifecycle_{dialogs_};
  dialog_titles titles_{dialogs_};
  std::set<std::string> reflections_starting_;  // member + goal of start_reflection calls under way
  boost::asio::any_io_executor executor_;
  std::unique_ptr<mcp_config_watcher> mcp_watch_;
  std::unique_ptr<team_files_watcher> team_watch_;
  std::vector<std::unique_ptr<config::team_config>> retired_teams_;  // replace_team: drives may point into them
  std::optional<config::problem> reload_failure_;
};

}  // namespace parley::engine
