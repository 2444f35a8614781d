#include "parley/engine/engine.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unordered_set>

#include "parley/core/ids.hpp"
#include "parley/core/text.hpp"
#include "parley/core/utf8.hpp"
#include "parley/engine/dialog_title.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/group_routing.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/prompts.hpp"
#include "parley/engine/resume_check.hpp"
#include "parley/engine/skills.hpp"
#include "parley/engine/taskdoc.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

// team.yaml `dialog_tools` names dialog tools only, and selfReflect only for a member that may reflect.
result<void> check_dialog_tools(const config::member_config& member) {
  if (!member.dialog_tools) return ok();
  for (const auto& name : *member.dialog_tools) {
    const std::string where = "member '" + member.id + "': dialog_tools: ";
    if (!is_dialog_tool(name)) {
      return make_error(errc::config_error,
                        where + "unknown dialog tool '" + name + "'" + did_you_mean(name, dialog_tool_names()));
    }
    if (name == dialog_tool::self_reflect && !member.self_reflection) {
      return make_error(errc::config_error, where + "selfReflect is offered only with self_reflection: true");
    }
  }
  return ok();
}

// Keeps the dialogs of a commit loaded while it awaits the log (dialog_runtime::unused).
class commit_pin {
 public:
  commit_pin(dialog_runtime& dialog, std::vector<dialog_runtime*> others) : others_(std::move(others)) {
    others_.push_back(&dialog);
    for (auto* pinned : others_) ++pinned->commits_in_flight;
  }
  ~commit_pin() {
    for (auto* pinned : others_) --pinned->commits_in_flight;
  }
  commit_pin(const commit_pin&) = delete;
  commit_pin& operator=(const commit_pin&) = delete;

 private:
  std::vector<dialog_runtime*> others_;
};

}  // namespace

engine::engine(asio::any_io_executor executor, store& log, config::team_config team, provider_map providers,
               tools::tool_registry tools)
    : executor_(std::move(executor)),
      log_(log),
      team_(std::move(team)),
      providers_(std::move(providers)),
      tools_(std::move(tools)),
      writer_(log, executor_, observers_),
      dialogs_(executor_, log) {}

engine::~engine() = default;

result<std::unique_ptr<engine>> engine::create(asio::any_io_executor executor, store& log, config::team_config team,
                                               provider_map providers, tools::tool_registry tools) {
  std::unique_ptr<engine> created(new engine(std::move(executor), log, std::move(team), std::move(providers),
                                             std::move(tools)));  // NOLINT: private ctor
  PARLEY_TRY(created->prepare_members());
  return created;
}

void engine::set_protected_dirs(std::vector<tools::protected_dir> dirs) {
  // Compared with canonical paths: resolve links now (a folder not created yet keeps its
  // normalised absolute form, which is what it will have).
  for (auto& dir : dirs) {
    std::error_code ec;
    auto canonical = std::filesystem::weakly_canonical(std::filesystem::absolute(dir.path, ec), ec);
    if (!ec) dir.path = std::move(canonical);
  }
  protected_dirs_ = std::move(dirs);
}

result<void> engine::prepare_members() {
  if (team_.members.empty()) return make_error(errc::config_error, "the team has no members");
  dialog_specs_ = team_dialog_tool_specs(team_.member_ids());
  tools_.add(make_read_skill_tool(team_.skills, team_.language));
  for (const auto& member : team_.members) {
    member_setup setup;
    setup.config = &member;
    setup.model = team_.find_model(member);
    setup.memories = memory_folders::of(team_.workspace, member.id);
    const auto provider = providers_.find(member.provider);
    if (provider == providers_.end()) {
      return make_error(errc::config_error,
                        "member '" + member.id + "' uses provider '" + member.provider + "', which is not configured");
    }
    setup.provider = provider->second.get();
    auto from_toolsets = resolve_member_toolsets(member, tools_);
    if (!from_toolsets) return std::move(from_toolsets).err();
    std::vector<std::string> wanted = member.tools;
    wanted.insert(wanted.end(), from_toolsets->begin(), from_toolsets->end());
    // Dominds' shell_specialists rule: a member it does not list is neither told of shell tools
    // nor able to call them (run_member_tool refuses, naming whom to ask).
    setup.withheld_tools = withheld_shell_tools(member, wanted);
    std::erase_if(wanted, [&](const std::string& name) {
      return std::find(setup.withheld_tools.begin(), setup.withheld_tools.end(), name) != setup.withheld_tools.end();
    });
    // As Dominds, a member that sees a skill can read it.
    if (!skills_visible_to(team_.skills, member.id).empty()) wanted.emplace_back(kReadSkillTool);
    for (const auto& name : wanted) {
      auto* found = tools_.find(name);
      if (found == nullptr) {
        return make_error(errc::config_error, "member '" + member.id + "': unknown tool '" + name + "'" +
                                                  did_you_mean(name, tools_.names()));
      }
      if (std::find(setup.tools.begin(), setup.tools.end(), found) != setup.tools.end()) continue;
      setup.tools.push_back(found);
      setup.tool_specs.push_back(found->spec());
    }
    PARLEY_TRY(check_dialog_tools(member));
    const bool text_syntax = member.tellask_syntax == "text";
    auto with_dialog_tools = [&](dialog_place place) {
      auto specs = setup.tool_specs;
      for (const auto& spec : dialog_tool_specs(place, text_syntax, member.self_reflection)) {
        if (setup.offers_dialog_tool(spec.name)) specs.push_back(*dialog_spec(spec.name));
      }
      return std::make_shared<const std::vector<llm::tool_spec>>(std::move(specs));
    };
    setup.root_tool_specs = with_dialog_tools(dialog_place::root);
    setup.sub_tool_specs = with_dialog_tools(dialog_place::sub);
    members_.emplace(member.id, std::move(setup));
  }
  return ok();
}

const llm::tool_spec* engine::dialog_spec(std::string_view name) const {
  const auto it = std::find_if(dialog_specs_.begin(), dialog_specs_.end(),
                               [&](const llm::tool_spec& spec) { return spec.name == name; });
  return it == dialog_specs_.end() ? nullptr : &*it;
}

bool engine::member_setup::offers_dialog_tool(std::string_view name) const {
  const auto& listed = config->dialog_tools;
  return !listed || std::find(listed->begin(), listed->end(), name) != listed->end();
}

llm::tool_list engine::tools_for(const dialog_runtime& dialog, const member_setup& member) const {
  if (dialog.is_fbr()) return nullptr;  // Fresh Boots Reasoning thinks without tools
  return dialog.is_sub() ? member.sub_tool_specs : member.root_tool_specs;
}

std::string_view engine::provider_kind_of(std::string_view member_id) const {
  const auto it = members_.find(member_id);
  return it == members_.end() ? std::string_view{} : it->second.provider->kind();
}

const dialog_runtime* engine::find(std::string_view dialog_id) const { return dialogs_.find(dialog_id); }

result<dialog_runtime*> engine::load(std::string_view dialog_id) { return dialogs_.load(dialog_id); }

result<std::size_t> engine::recover_all(std::vector<std::string>* unreadable) {
  dialog_filter filter;
  filter.status = events::dialog_status::running;
  filter.needing_recovery = true;  // the rest are at rest: nothing to load for them
  auto rows = log_.list_dialogs(filter);
  if (!rows) return std::move(rows).err();
  std::size_t scheduled = 0;
  for (const auto& row : *rows) {
    auto dialog = load(row.id);
    if (!dialog && dialog.err().code == errc::corrupt) {
      if (unreadable != nullptr) unreadable->push_back(dialog.err().message);
      continue;
    }
    if (!dialog) return std::move(dialog).err();
    auto& runtime = **dialog;
    if (runtime.row().dead) continue;
    // A dialog waiting for a subdialog or a human stays suspended; the rest continue.
    const bool interrupted = runtime.row().generating;
    if (interrupted || (runtime.can_drive() && runtime.row().needs_drive) || !runtime.unanswered_tool_calls().empty()) {
      schedule_drive(runtime);
      ++scheduled;
    }
  }
  return scheduled;
}

asio::awaitable<result<std::string>> engine::create_root_dialog(new_dialog spec) {
  for (const auto& member : spec.members) {
    if (members_.find(member) == members_.end()) {
      co_return make_error(errc::not_found,
                           "unknown member '" + member + "'" + did_you_mean(member, team_.member_ids()));
    }
  }
  const bool group_of_humans = spec.humans.size() > 1;
  if (spec.member_id.empty() && !spec.members.empty()) {
    // A LIO's default responder is its first AI; in a human group nobody answers unasked.
    if (!group_of_humans) spec.member_id = spec.members.front();
  } else if (spec.member_id.empty() && !spec.humans_only) {
    spec.member_id = team_.default_member;
  }
  if (!spec.member_id.empty() && members_.find(spec.member_id) == members_.end()) {
    co_return make_error(errc::not_found,
                         "unknown member '" + spec.member_id + "'" + did_you_mean(spec.member_id, team_.member_ids()));
  }
  if (spec.member_id.empty() && !spec.humans_only && spec.members.empty()) {
    co_return make_error(errc::invalid_argument, "a dialog needs a member, members or humans_only");
  }
  std::optional<events::attachment> media;
  if (!spec.first_message_attachment.empty()) {
    if (auto problem = events::decode_object(spec.first_message_attachment, media.emplace(), "attachment")) {
      co_return make_error(errc::invalid_argument, problem->path + ": " + problem->problem);
    }
  }
  const bool with_first_message = !spec.first_message.empty() || media.has_value();
  if (with_first_message) {
    if (auto valid = check_user_message(spec.first_message, media.has_value()); !valid) {
      co_return std::move(valid).err();
    }
  }
  // A retried create (its reply was lost) returns the dialog the first one made. The id stays
  // claimed until this create's commit has ended: one sent twice at once is checked after the first
  // is durable, and finds it.
  input_claims::claim checked;
  if (!spec.first_message_id.empty()) {
    checked = co_await inputs_checked_.acquire(spec.first_message_id);
    const sent_input sent{
        .msg_id = spec.first_message_id, .from = spec.first_message_from, .content = spec.first_message};
    auto earlier = co_await dialog_of_retry(sent);
    if (!earlier) co_return std::move(earlier).err();
    if (*earlier) co_return std::move(**earlier);
  }
  // Described before anything is written: the dialog and its first message share one commit.
  if (media) co_await describe_attachment(*media);
  if (!spec.task_doc_path.empty()) {
    if (auto made = ensure_taskdoc(team_.workspace, spec.task_doc_path); !made) co_return std::move(made).err();
  }
  const std::string id = new_dialog_id();
  auto runtime = dialog_runtime::empty();
  events::dialog_created created;
  created.member_id = spec.member_id;
  created.kind = events::dialog_kind::root;
  // Untitled roots are named by their first message, so lists of dialogs can be told apart.
  if (spec.title.empty() && !spec.first_message.empty()) spec.title = title_from_message(spec.first_message);
  created.title = spec.title;
  created.task_doc_path = spec.task_doc_path;
  created.humans = spec.humans;
  created.members = spec.members;
  if (spec.reflection) {
    created.reflection = std::move(spec.reflection);
    created.call = events::call_kind::self_reflect;  // its tool uses are introspection turns, as in a selfReflect
  }
  add_record_windows(created);
  if (auto staged = runtime->stage(std::move(created), id, id); !staged) {
    co_return std::move(staged).err();
  }
  auto& ref = *runtime;
  if (with_first_message) {
    if (spec.first_message_id.empty()) spec.first_message_id = new_uuid();
    auto input = input_payload(ref, std::move(spec.first_message), std::move(spec.first_message_id),
                               events::message_origin::user, std::move(spec.first_message_from), std::move(media));
    if (auto staged = stage(ref, std::move(input)); !staged) {
      co_return std::move(staged).err();
    }
  }
  dialogs_.add(std::move(runtime));
  dialogs_.add_new_tree(id);
  if (auto committed = co_await commit(ref); !committed) {
    dialogs_.drop(id);
    dialogs_.drop_tree(id);
    co_return std::move(committed).err();
  }
  if (ref.row().needs_drive) schedule_drive(ref);
  co_return id;
}

asio::awaitable<result<void>> engine::post_user_message(std::string dialog_id, std::string content, std::string msg_id,
                                                        std::string from, boost::json::object attachment) {
  std::optional<events::attachment> media;
  if (!attachment.empty()) {
    if (auto problem = events::decode_object(attachment, media.emplace(), "attachment")) {
      co_return make_error(errc::invalid_argument, problem->path + ": " + problem->problem);
    }
  }
  co_return co_await post_input(std::move(dialog_id), std::move(content), std::move(msg_id),
                                events::message_origin::user, std::move(from), std::move(media));
}

asio::awaitable<result<void>> engine::post_input(std::string dialog_id, std::string content, std::string msg_id,
                                                 events::message_origin origin, std::string from,
                                                 std::optional<events::attachment> attachment, session_opener open) {
  if (auto valid = check_user_message(content, attachment.has_value()); !valid) co_return std::move(valid).err();
  // Described before it is recorded: the log holds the words every model will read for it.
  if (attachment) co_await describe_attachment(*attachment);
  auto loaded = co_await load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;  // locked at once: a dialog waited for is never unloaded
  {
    auto guard = co_await dialog.lock().acquire();
    if (auto root = co_await load_root(dialog); !root) co_return std::move(root).err();
    if (auto open = check_tree_running(dialog); !open) co_return std::move(open).err();
    if (dialog.row().dead) co_return make_error(errc::conflict, "dialog " + dialog_id + " was declared dead");
    // A retry of a message that was taken already (its reply was lost) changes nothing. Checked
    // under the dialog's lock and the msgId's claim, after the first one's commit, so two at once
    // — to this dialog or another — cannot both be taken.
    input_claims::claim checked;
    if (!msg_id.empty() && origin == events::message_origin::user) {
      checked = co_await inputs_checked_.acquire(msg_id);
      const sent_input sent{.msg_id = msg_id, .dialog_id = dialog_id, .from = from, .content = content};
      auto earlier = co_await dialog_of_retry(sent);
      if (!earlier) co_return std::move(earlier).err();
      if (*earlier) co_return ok();
    }
    // Tool calls owed since a crash are answered first, so the model never sees a call
    // without its result followed by a new question.
    if (auto owed = dialog.unanswered_tool_calls(); !owed.empty()) {
      const auto member = members_.find(dialog.speaking_member());
      if (member != members_.end()) co_await run_tools(dialog, member->second, owed);
    }
    if (msg_id.empty()) msg_id = new_uuid();
    auto payload = input_payload(dialog, std::move(content), std::move(msg_id), std::move(origin), std::move(from),
                                 std::move(attachment));
    bool session_staged = false;
    if (open) {
      auto session = co_await stage_opened_session(dialog, open);
      if (!session) co_return std::move(session).err();
      session_staged = *session;
    }
    if (auto staged = stage(dialog, std::move(payload)); !staged) {
      // The session must not reach the log without its message; memory applied it already.
      if (session_staged) {
        (void)dialog.take_staged();
        mark_poisoned(dialog, staged.err().message);
      }
      co_return std::move(staged).err();
    }
    if (auto committed = co_await commit(dialog); !committed) co_return std::move(committed).err();
  }
  if (dialog.row().needs_drive) schedule_drive(dialog);
  co_return ok();
}

events::user_message engine::input_payload(const dialog_runtime& dialog, std::string content, std::string msg_id,
                                           events::message_origin origin, std::string from,
                                           std::optional<events::attachment> attachment) const {
  events::user_message input;
  if (dialog.is_group()) input.responder = responder_for(dialog.row(), content);
  input.course = dialog.row().course;
  input.content = std::move(content);
  input.msg_id = std::move(msg_id);
  input.origin = origin;
  input.from = std::move(from);
  input.media = std::move(attachment);
  return input;
}

result<void> engine::check_user_message(std::string_view content, bool with_attachment) const {
  const auto limit = team_.limits.max_message_bytes;
  if (static_cast<std::int64_t>(content.size()) > limit) {
    return make_error(errc::limit_exceeded, "message is " + std::to_string(content.size()) + " bytes; the limit is " +
                                                std::to_string(limit) + " (limits.max_message_bytes)");
  }
  if (content.empty() && !with_attachment) return make_error(errc::invalid_argument, "message content is empty");
  if (const auto bad = first_invalid_utf8(content)) {
    return make_error(errc::invalid_argument, "message content: " + describe_invalid_utf8(content, *bad));
  }
  return ok();
}

asio::awaitable<result<std::optional<std::string>>> engine::dialog_of_retry(const sent_input& input) {
  // The SQLite store answers once the batches queued before are committed: on the read thread.
  auto find = [&log = log_, msg_id = std::string(input.msg_id)] { return log.find_input(msg_id); };
  auto found = co_await read_off_loop(reads_, std::move(find));
  if (!found) co_return std::move(found).err();
  auto retried = match_retry(*found, input);
  if (!retried) co_return std::move(retried).err();
  if (!*retried) co_return std::optional<std::string>{};
  co_return std::optional<std::string>{(*retried)->dialog_id};
}

asio::awaitable<result<dialog_runtime*>> engine::load_async(std::string dialog_id) {
  co_return co_await dialogs_.load_async(std::move(dialog_id), reads_);
}

asio::awaitable<result<void>> engine::load_root(const dialog_runtime& dialog) {
  if (!dialog.is_sub()) co_return ok();
  auto root = co_await load_async(dialog.row().root_id);
  if (!root) co_return std::move(root).err();
  co_return ok();
}

// Both waits look their dialog or tree up again after each wake: one that is at rest may have been
// unloaded meanwhile (unload_unused_dialogs).
asio::awaitable<void> engine::wait_until_idle(std::string dialog_id) {
  for (;;) {
    auto* dialog = dialogs_.find(dialog_id);
    if (dialog == nullptr || !dialog->drive_scheduled) co_return;
    co_await dialog->became_idle.wait();
  }
}

result<void> engine::check_tree_running(dialog_runtime& dialog) {
  const auto& row = dialog.row();
  if (!dialog.is_sub()) {
    if (row.status == events::dialog_status::running) return ok();
    return make_error(errc::conflict, "dialog " + dialog.id() + " is " + std::string(events::to_wire(row.status)) +
                                          "; reopen it to go on (POST /api/dialogs/" + dialog.id() +
                                          "/reopen, parley reopen " + dialog.id() + ")");
  }
  if (row.status != events::dialog_status::running) {
    return make_error(errc::conflict, "dialog " + dialog.id() + " is " + std::string(events::to_wire(row.status)));
  }
  // Loaded by load_root, awaited just before; `load` reads only if a caller skipped it.
  auto* held = dialogs_.find(row.root_id);
  auto root = held != nullptr ? result<dialog_runtime*>(held) : load(row.root_id);
  if (!root) return std::move(root).err();
  if ((*root)->row().status != events::dialog_status::running) {
    return make_error(errc::conflict, "dialog " + dialog.id() + " belongs to root " + row.root_id + ", which is " +
                                          std::string(events::to_wire((*root)->row().status)) +
                                          "; reopen the root to go on");
  }
  return ok();
}

result<void> engine::stop(std::string_view dialog_id, std::string reason) {
  auto loaded = load(dialog_id);
  if (!loaded) return std::move(loaded).err();
  auto* generation = (*loaded)->generation();
  if (generation == nullptr) generation = (*loaded)->tools_run();  // a running command is killed
  if (generation == nullptr) {
    return make_error(errc::conflict, "dialog " + std::string(dialog_id) + " is not generating");
  }
  generation->stop(std::move(reason));
  return ok();
}

std::vector<std::string> engine::running_dialogs() const {
  std::vector<std::string> out;
  dialogs_.for_each([&out](dialog_runtime& dialog) {
    if (dialog.generation() != nullptr || dialog.tools_run() != nullptr) out.push_back(dialog.id());
  });
  return out;
}

std::vector<std::string> engine::resumable_dialogs(bool search_store) {
  std::vector<std::string> out;
  const auto consider = [&](const dialog_runtime& dialog) {
    if (!dialog.poisoned && resume_reason_of(dialog)) out.push_back(dialog.id());
  };
  dialogs_.for_each(consider);
  if (search_store) {
    // Those not in memory: a drive owed since a restart, or a drive that failed.
    for (const bool failed : {false, true}) {
      dialog_filter stored;
      stored.status = events::dialog_status::running;
      stored.needing_recovery = !failed;
      stored.failed = failed;
      auto rows = log_.list_dialogs(stored);
      if (!rows) continue;
      for (const auto& row : *rows) {
        if (dialogs_.find(row.id) != nullptr) continue;
        if (auto loaded = load(row.id)) consider(**loaded);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

asio::awaitable<std::vector<std::string>> engine::resumable_dialogs_async() {
  std::vector<std::string> out;
  for (const bool failed : {false, true}) {
    dialog_filter stored;
    stored.status = events::dialog_status::running;
    stored.needing_recovery = !failed;
    stored.failed = failed;
    auto list = [&log = log_, stored] { return log.list_dialogs(stored); };
    auto rows = co_await read_off_loop(reads_, std::move(list));
    if (!rows) continue;
    for (const auto& row : *rows) {
      // Each is looked at as it comes: one read earlier may be unloaded meanwhile.
      auto loaded = co_await load_async(row.id);
      if (loaded && !(*loaded)->poisoned && resume_reason_of(**loaded)) out.push_back(row.id);
    }
  }
  // And those in memory, looked at last: nothing is awaited from here on.
  dialogs_.for_each([&out](dialog_runtime& dialog) {
    if (!dialog.poisoned && resume_reason_of(dialog)) out.push_back(dialog.id());
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  co_return out;
}

asio::awaitable<void> engine::wait_until_settled(std::string root_id) {
  for (;;) {
    auto* hierarchy = dialogs_.find_tree(root_id);
    if (hierarchy == nullptr || hierarchy->active_drives == 0) co_return;
    co_await hierarchy->settled.wait();
  }
}

root_tree& engine::tree(const std::string& root_id) { return dialogs_.tree(root_id); }

void engine::schedule_drive(dialog_runtime& dialog) {
  if (dialog.drive_scheduled) return;
  dialog.drive_scheduled = true;
  note_use(dialog);
  ++tree(dialog.row().root_id).active_drives;
  asio::co_spawn(executor_, drive(dialog), asio::detached);
}

void engine::schedule_if_drivable(dialog_runtime& dialog) {
  if (dialog.poisoned || dialog.row().dead || dialog.row().status != events::dialog_status::running) return;
  if ((dialog.can_drive() && dialog.row().needs_drive) || !dialog.unanswered_tool_calls().empty()) {
    schedule_drive(dialog);
  }
}

asio::awaitable<result<void>> engine::commit_round(dialog_runtime& dialog, round_effects& fx, durability when) {
  if (fx.touched.empty() && when == durability::before_going_on) co_return co_await commit(dialog);
  // One batch, one transaction: a Tellask and the subdialog it creates, a reply and the wait it
  // ends, are durable together or not at all.
  std::vector<event> batch = dialog.take_staged();
  for (auto* other : fx.touched) {
    if (other == &dialog) continue;
    auto staged = other->take_staged();
    batch.insert(batch.end(), std::make_move_iterator(staged.begin()), std::make_move_iterator(staged.end()));
  }
  if (when == durability::in_order) {
    // What follows only calls models and writes more events to the same log, which reach the
    // store after these: if the process dies first, the log ends before this round and the
    // dialogs resume from there. Whoever is told of the round hears of it once it is durable, and
    // a refused batch fails the next commit of each of its dialogs (log_writer).
    writer_.send(std::move(batch));
    for (auto* other : fx.to_drive) {
      if (other != &dialog) schedule_if_drivable(*other);
    }
    co_return ok();
  }
  const commit_pin pinned(dialog, fx.touched);
  auto committed = co_await writer_.commit(dialog.id(), std::move(batch));
  if (!committed) {
    for (auto* poisoned : fx.touched) mark_poisoned(*poisoned, committed.err().message);
    mark_poisoned(dialog, committed.err().message);
    co_return committed;
  }
  for (auto* other : fx.to_drive) {
    if (other != &dialog) schedule_if_drivable(*other);
  }
  co_return ok();
}

result<void> engine::recover_interrupted_generation(dialog_runtime& dialog) {
  // The process ended while this generation streamed. It is closed as interrupted, keeping what
  // its last checkpoint logged, and run again.
  events::generation_finished closed;
  closed.course = dialog.row().course;
  closed.genseq = dialog.row().last_genseq;
  closed.thinking = dialog.state().partial_thinking;
  closed.saying = dialog.state().partial_saying;
  closed.finish_reason = "process_exit";
  closed.interrupted = true;
  PARLEY_TRY(stage(dialog, std::move(closed)));
  PARLEY_TRY(stage(dialog, events::drive_resumed{}));
  writer_.send(dialog.take_staged());
  return ok();
}

result<void> engine::stage(dialog_runtime& dialog, events::event_payload payload) {
  PARLEY_TRY(dialog.stage(std::move(payload)));
  for (auto* observer : observers_) observer->on_event(dialog.last_staged());
  return ok();
}

asio::awaitable<result<void>> engine::commit(dialog_runtime& dialog) {
  const commit_pin pinned(dialog, {});
  auto committed = co_await writer_.commit(dialog.id(), dialog.take_staged());
  // Memory ran ahead of a log that refused the batch: the runtime must be rebuilt from the log.
  if (!committed) mark_poisoned(dialog, committed.err().message);
  co_return committed;
}

void engine::mark_poisoned(dialog_runtime& dialog, const std::string& problem) {
  dialog.poisoned = true;
  dialog.store_error = problem;
  // Not only drives: a refused input (its sender is told) leaves memory ahead of the log too, and
  // must be reloaded once the log takes writes, or views of the dialog would show what was refused.
  note_stalled(dialog);
}

}  // namespace parley::engine
