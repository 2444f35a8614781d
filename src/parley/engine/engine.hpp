// The engine: owns the dialogs of one process, drives them from backend coroutines and writes
// every step to the log before acting on it. Clients never drive; they post input and observe.
//
// Threading: every member function and every coroutine runs on the one executor given at
// creation (a single-threaded io_context). The store's writer thread is the only other thread, and
// its read thread when one is given (set_store_reads): the reads a coroutine may await — a retry's
// msgId, a dialog coming back into memory, what the Tellask routing will load, a records session's
// opener — run there, so the loop never waits for the store (start-up recovery and the CLI's
// one-shot verbs read right here).
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/context_builder.hpp"
#include "parley/engine/dialog_cache.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/input_claims.hpp"
#include "parley/engine/input_retry.hpp"
#include "parley/engine/log_writer.hpp"
#include "parley/engine/observer.hpp"
#include "parley/engine/prompt_versions.hpp"
#include "parley/engine/record_windows.hpp"
#include "parley/engine/round_effects.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/engine/tellask_router.hpp"
#include "parley/llm/provider.hpp"
#include "parley/store/store.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

using provider_map = std::map<std::string, std::shared_ptr<llm::provider>, std::less<>>;

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

// Seed 001 `drive_dialog_by_user_answer`: the human answers an open question (Q4H).
struct user_answer {
  std::string dialog;
  std::string content;
  std::string msg_id;
  std::string question_id;
  std::string continuation_type = "answer";
  std::string from;  // the user who answers, recorded with the answer; "" when none is named
};

struct open_question {
  dialog_row dialog;
  human_question question;
};

// The records events a message opens (post_user_message_in_new_session), staged before it in its
// commit: a session, after closing a turn that would otherwise span two sessions; empty: none.
// It runs on the engine's read thread (set_store_reads): it may read the store, and must touch
// nothing of the loop's but values its caller keeps alive across the await.
using session_opener = std::function<result<std::vector<events::event_payload>>()>;

// What start_reflection did: the reflection's dialog, its new session, and whether the dialog was
// the kind's existing one.
struct reflection_started {
  std::string dialog_id;
  std::string session_id;
  bool reused = false;
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
  // The checks post_user_message makes on content, for callers that want them before creating a
  // dialog. Content may be empty only beside an attachment.
  result<void> check_user_message(std::string_view content, bool with_attachment = false) const;
  // A client's message id makes its create, post or answer idempotent (input_retry.hpp): the
  // dialog of the input first taken with `input.msg_id` when `input` is its retry, nullopt when the
  // id is new. The same id with another body, or one someone else used, is a conflict naming msgId.
  // The log is asked on the read thread; `input`'s strings must outlive the await.
  boost::asio::awaitable<result<std::optional<std::string>>> dialog_of_retry(const sent_input& input);
  // Where the engine's reads of the store run: the server's read thread (null, the default: on the
  // engine's own thread, as a one-shot CLI verb wants). Set before the first input; outlives it.
  void set_store_reads(store_reads* reads) noexcept { reads_ = reads; }
  store_reads* reads() const noexcept { return reads_; }
  // Where media of image and audio messages are read from (the server's uploads).
  void set_attachment_reader(attachment_reader reader) { read_attachment_ = std::move(reader); }
  // Folders no file tool may read or write, wherever they are (the data directory, the uploads):
  // kept in canonical form. Set before the first drive.
  void set_protected_dirs(std::vector<tools::protected_dir> dirs);
  const std::vector<tools::protected_dir>& protected_dirs() const noexcept { return protected_dirs_; }
  // A drive that ends because the log refused a write (a full disk, a failing device) leaves its
  // dialog stalled. With retries on (`parley serve` turns them on; a one-shot CLI run does not
  // wait for the disk), the engine tries again after 1 s, doubling to 60 s: once the log takes
  // writes, it records the failure (drive_failed) and drives the dialog again.
  void set_store_retry(bool on) { store_retry_ = on; }
  std::size_t stalled_dialogs() const noexcept { return stalled_.size(); }
  // Suspends until the dialog has no drive queued or running.
  boost::asio::awaitable<void> wait_until_idle(std::string dialog_id);
  // Suspends until no dialog of the root's hierarchy has a drive queued or running: the tree is
  // done, or waits for a human.
  boost::asio::awaitable<void> wait_until_settled(std::string root_id);
  // Stops the running generation (or tool run) of a dialog; its partial output is kept, marked
  // interrupted, with `reason` (who or what stopped it) in the log. A dialog not in memory is
  // read, only to tell an unknown id (not found) from an idle dialog (a conflict).
  result<void> stop(std::string_view dialog_id, std::string reason = {});
  // Run control: the dialogs generating or running tools now, and those `resume` would drive,
  // sorted by id — in memory, and with `search_store` also those the store holds as owing a drive
  // or failed (a scan: for resume all, not for a status poll).
  std::vector<std::string> running_dialogs() const;
  std::vector<std::string> resumable_dialogs(bool search_store);
  // resumable_dialogs(true) for a coroutine: the scan of the store and the dialogs it loads are
  // read on the read thread (set_store_reads).
  boost::asio::awaitable<std::vector<std::string>> resumable_dialogs_async();
  // Drives again a dialog whose drive ended before its work was done (stopped, failed, tool calls
  // without results, unread input; resume_check.hpp). Anything else is a conflict: an idle dialog
  // has "nothing to resume", one that waits for a subdialog or a human says what it waits for.
  boost::asio::awaitable<result<void>> resume(std::string dialog_id);
  // Seed 001's root lifecycle (engine/root_lifecycle.cpp): running → completed → archived, running
  // → archived, and reopen (back to running). A running root changes only at rest: with work in
  // flight in its tree the call is a conflict naming the work, and nothing changes.
  boost::asio::awaitable<result<void>> set_root_status(std::string root_id, events::dialog_status to);
  // What still runs in a root's tree: drives, open questions, awaited subdialogs ("" parts none).
  std::vector<std::string> work_in_flight(const dialog_runtime& root) const;

  // Q4H: validates the question id, records the answer as the askHuman call's result and drives
  // the dialog once nothing else holds it. A retry of a taken answer (same msgId, question and
  // content) succeeds and changes nothing, after a restart too (dialog_of_retry).
  boost::asio::awaitable<result<void>> answer_question(user_answer answer);
  // Open questions of every running dialog, oldest first; read right here (a CLI verb).
  result<std::vector<open_question>> open_questions();
  // The same for a coroutine: the store is read on the read thread (set_store_reads).
  boost::asio::awaitable<result<std::vector<open_question>>> open_questions_async();
  // A human gives up on a subdialog: it is never driven again, its Type B registry entry goes (the
  // slug starts afresh next time), and a caller waiting for it gets a failed result and continues.
  boost::asio::awaitable<result<void>> declare_subdialog_dead(std::string dialog_id, std::string reason);
  // Records that the open turn `turn_id` of a dialog outlived its response window (seed 002); the
  // records reducer closes it as unresponded if it is still open. Appended under the dialog's lock.
  boost::asio::awaitable<result<void>> expire_turn_window(std::string dialog_id, std::string turn_id);
  // A write of seed 002's records API (records_event::session_opened, ...) to a dialog's log.
  // Under the dialog's lock, once everything appended before is committed, `check` decides
  // against the records as they are; its error is returned and nothing is appended. It runs on the
  // read thread (set_store_reads), so it reads the store and nothing of the loop's.
  boost::asio::awaitable<result<void>> append_record_write(std::string dialog_id, events::event_payload write,
                                                           std::function<result<void>()> check);
  // What the records' analyst or embedder found about a message (record_message_analyzed,
  // record_message_embedded; message_analyst.hpp), appended under the dialog's lock.
  boost::asio::awaitable<result<void>> append_message_analysis(std::string dialog_id, events::event_payload analysis);
  // The provider a member's model calls go to, or nullptr: for work beside the dialogs (the analyst).
  llm::provider* provider_of(std::string_view member_id) const;
  // Response window and session gap (ms) of the records of dialogs created from now on; 0 keeps
  // seed 002's defaults (3 h, 1 h). Recorded in each dialog_created, so a rebuild uses them.
  void set_record_windows(std::int64_t turn_window_ms, std::int64_t session_gap_ms) noexcept {
    record_windows_.turn_window_ms = turn_window_ms;
    record_windows_.session_gap_ms = session_gap_ms;
  }
  // The Type B registry of a root (seed 001 registry.yaml), sorted by key; read right here (a CLI
  // verb), or with registry_async on the read thread (set_store_reads).
  result<std::vector<registry_entry>> registry(std::string_view root_id);
  boost::asio::awaitable<result<std::vector<registry_entry>>> registry_async(std::string root_id);

  // Loads one dialog from the log (once); later calls return the loaded runtime. A miss reads the
  // store right here: for start-up recovery and the CLI's one-shot verbs; a coroutine of a server
  // calls load_async.
  result<dialog_runtime*> load(std::string_view dialog_id);
  // The same for a coroutine: a dialog not in memory is read on the read thread (set_store_reads).
  boost::asio::awaitable<result<dialog_runtime*>> load_async(std::string dialog_id);
  // Loads every running dialog and schedules a drive for those with pending work. Reads the store
  // right here: it runs at start-up, before the server serves. A dialog whose
  // log cannot be read is left alone, so that one damaged dialog never keeps the others from
  // running; each is named in `unreadable` (if given) with why.
  result<std::size_t> recover_all(std::vector<std::string>* unreadable = nullptr);
  const dialog_runtime* find(std::string_view dialog_id) const;
  // At most `limit` dialogs stay in memory (default 4096). Past it, the least recently used ones
  // that nothing holds, in trees with no drive under way, are dropped and loaded again from the
  // log when next needed, so a long-running server does not keep every dialog it ever ran.
  void set_loaded_dialog_limit(std::size_t limit) noexcept { dialogs_.set_limit(limit); }
  std::size_t loaded_dialog_limit() const noexcept { return dialogs_.limit(); }
  std::size_t loaded_dialogs() const noexcept { return dialogs_.size(); }

  // What a model call of `dialog` in `round` sends — system prompt, tools, messages — built as a
  // drive builds it, without calling the model: to review what models are told (snapshot tests).
  result<llm::model_request> model_request_for(const dialog_runtime& dialog, std::int64_t round = 1) const;

  const config::team_config& team() const noexcept { return team_; }
  std::string_view provider_kind_of(std::string_view member_id) const;

 private:
  engine(boost::asio::any_io_executor executor, store& log, config::team_config team, provider_map providers,
         tools::tool_registry tools);

  struct member_setup {
    const config::member_config* config = nullptr;
    const config::model_info* model = nullptr;  // declared context window and prices, if any
    llm::provider* provider = nullptr;
    std::vector<tools::tool*> tools;
    std::vector<llm::tool_spec> tool_specs;   // its own tools
    std::vector<std::string> withheld_tools;  // asked for, but withheld by shell_specialists
    llm::tool_list root_tool_specs;           // its own tools and the dialog tools of a root
    llm::tool_list sub_tool_specs;            // ... of a subdialog
    memory_folders memories;
    // Whether its team.yaml `dialog_tools` lets it call `name` (where its place allows it).
    bool offers_dialog_tool(std::string_view name) const;
  };
  result<void> prepare_members();
  // The dialog tool `name` as this team's members are offered it (targetAgentId names them).
  const llm::tool_spec* dialog_spec(std::string_view name) const;
  llm::tool_list tools_for(const dialog_runtime& dialog, const member_setup& member) const;
  llm::model_request request_for(const dialog_runtime& dialog, const member_setup& member, std::int64_t round) const;

  root_tree& tree(const std::string& root_id);
  void schedule_drive(dialog_runtime& dialog);
  void schedule_if_drivable(dialog_runtime& dialog);
  // When a round's events must be durable: before the drive goes on (a tool with effects runs
  // next), or only in log order, before anything later is (the drive goes on at once).
  enum class durability { before_going_on, in_order };
  boost::asio::awaitable<result<void>> commit_round(dialog_runtime& dialog, round_effects& fx, durability when);
  boost::asio::awaitable<void> drive(dialog_runtime& dialog);
  boost::asio::awaitable<void> drive_locked(dialog_runtime& dialog);
  // The drive's rounds until the dialog waits or is done; an error ends the drive (drive_locked
  // records it).
  boost::asio::awaitable<result<void>> drive_rounds(dialog_runtime& dialog);
  boost::asio::awaitable<result<void>> generate(dialog_runtime& dialog, const member_setup& member, std::int64_t round);
  // Runs a round's tool calls and stages their results; run_tools records a failure itself.
  boost::asio::awaitable<void> run_tools(dialog_runtime& dialog, const member_setup& member,
                                         const std::vector<llm::tool_call>& calls);
  boost::asio::awaitable<result<void>> run_tool_calls(dialog_runtime& dialog, const member_setup& member,
                                                      const std::vector<llm::tool_call>& calls);
  boost::asio::awaitable<tools::tool_outcome> run_member_tool(const member_setup& member, const llm::tool_call& call,
                                                              const tools::tool_context& context);
  boost::asio::awaitable<void> record_failure(dialog_runtime& dialog, std::string message);
  result<void> recover_interrupted_generation(dialog_runtime& dialog);

  // Dialog tools (dialog_tool_calls.cpp; the Tellask family in tellask_router, the rest in
  // working_memory.cpp). A handler stages its events and returns the call's result, or nothing when
  // the call waits for another dialog or the human.
  result<tool_reply> handle_dialog_tool(dialog_runtime& dialog, const llm::tool_call& call, round_effects& fx);
  result<tool_reply> edit_reminders(dialog_runtime& dialog, const llm::tool_call& call,
                                    const boost::json::object& args);
  result<tool_reply> change_mind(dialog_runtime& dialog, const boost::json::object& args);
  result<void> start_new_course(dialog_runtime& dialog, const llm::tool_call& call);
  // Stages the start of the next course: its first message is `prompt` (after a subdialog's header).
  result<void> stage_course_start(dialog_runtime& dialog, std::string prompt);
  // Context health (seed 001's clear_mind remediation): measures a generation's prompt against the
  // model's window, and ends a course that stayed critical for longer than the team allows.
  result<void> stage_context_health(dialog_runtime& dialog, const member_setup& member, std::int64_t genseq,
                                    std::int64_t prompt_tokens);
  // Stages the diligence push for a root that stopped, when its member's budget and the workspace
  // allow one (engine/diligence.hpp).
  bool push_diligence(dialog_runtime& dialog, const config::member_config& member);
  bool context_stayed_critical(const dialog_runtime& dialog) const;
  result<void> check_root_transition(const dialog_runtime& root, events::dialog_status to) const;
  // New input is taken only while the dialog's root is running (a completed or archived root is
  // reopened first).
  result<void> check_tree_running(dialog_runtime& dialog);
  // Loads a subdialog's root (off the loop on a miss), for check_tree_running after it; a root has
  // nothing to load.
  boost::asio::awaitable<result<void>> load_root(const dialog_runtime& dialog);
  // Stages an event on the dialog and tells observers at once (before it is durable).
  result<void> stage(dialog_runtime& dialog, events::event_payload payload);
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
  // session_input.cpp: stages the session `open` decides on, once what was staged before is
  // committed (the records it reads are current). Whether one was staged.
  boost::asio::awaitable<result<bool>> stage_opened_session(dialog_runtime& dialog, const session_opener& open);
  // media_description.cpp: fills a missing caption/transcription from the team's media members.
  boost::asio::awaitable<void> describe_attachment(events::attachment& attachment);
  boost::asio::awaitable<result<void>> commit(dialog_runtime& dialog);
  void mark_poisoned(dialog_runtime& dialog, const std::string& problem);
  // Stalled dialogs (set_store_retry): noted when their drive ends, retried with backoff.
  void note_stalled(dialog_runtime& dialog);
  boost::asio::awaitable<void> retry_stalled();
  boost::asio::awaitable<result<void>> recover_stalled(std::string dialog_id, std::string problem);
  void note_use(dialog_runtime& dialog) { dialogs_.note_use(dialog); }
  // Adds the configured record windows to a dialog_created payload.
  void add_record_windows(events::dialog_created& created) const;

  boost::asio::any_io_executor executor_;
  store& log_;
  config::team_config team_;
  provider_map providers_;
  tools::tool_registry tools_;
  std::vector<engine_observer*> observers_;
  log_writer writer_;
  attachment_reader read_attachment_;
  std::vector<tools::protected_dir> protected_dirs_;
  std::map<std::string, std::string, std::less<>> stalled_;  // dialog id → the log's refusal
  bool store_retry_ = false;
  bool retrying_stalled_ = false;  // retry_stalled is running
  record_windows record_windows_;  // see set_record_windows
  prompt_versions prompt_versions_;
  std::vector<llm::tool_spec> dialog_specs_;  // every dialog tool, for this team (team_dialog_tool_specs)
  std::map<std::string, member_setup, std::less<>> members_;
  dialog_cache dialogs_;                                                 // the loaded dialogs and their trees
  tellask_router router_{dialogs_, team_, observers_, record_windows_};  // seed 001's Tellask routing
  std::set<std::string> reflections_starting_;  // member + goal of start_reflection calls under way
  store_reads* reads_ = nullptr;                // see set_store_reads
  input_claims inputs_checked_;                 // msgIds being checked and committed now (input_claims.hpp)
};

}  // namespace parley::engine
