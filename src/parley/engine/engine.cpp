// The engine's façade (engine.hpp): it builds its collaborators, creates root dialogs and takes
// input; everything else is the collaborators'.
#include "parley/engine/engine.hpp"

#include "parley/core/ids.hpp"
#include "parley/core/text.hpp"
#include "parley/engine/dialog_title.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/group_routing.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/tools/dominds_tools.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

result<std::optional<events::attachment>> decode_attachment(const boost::json::object& attachment) {
  std::optional<events::attachment> media;
  if (attachment.empty()) return media;
  if (auto problem = events::decode_object(attachment, media.emplace(), "attachment")) {
    return make_error(errc::invalid_argument, problem->path + ": " + problem->problem);
  }
  return media;
}

}  // namespace

engine::engine(asio::any_io_executor executor, store& log, config::team_config team, provider_map providers,
               tools::tool_registry tools)
    : team_(std::move(team)),
      dialogs_(executor, log),
      mcp_(make_mcp(executor, tools)),
      members_(team_, std::move(providers), std::move(tools)),
      drives_(executor, team_, dialogs_, members_, router_, memory_),
      executor_(executor) {
  members_.set_mcp(mcp_.get());
  members_.set_protected_dirs(&drives_.protected_dirs());
}

engine::~engine() { stop_mcp(); }

std::unique_ptr<tools::mcp::mcp_servers> engine::make_mcp(const asio::any_io_executor& executor,
                                                          const tools::tool_registry& tools) {
  std::vector<std::string> notices;
  auto in_use = mcp_servers_in_use(team_.mcp, tools, &notices);
  for (const auto& notice : notices) tools::mcp::log_to_stderr(notice);
  tools::mcp::pool_settings settings;
  settings.workspace = team_.workspace;
  // A name a built-in or dialog tool has is never a server's (the roster's registry is complete
  // by the time a server lists its tools: prepare runs first).
  settings.reserved = [this](const std::string& name) -> std::string {
    if (members_.registry().find(name) != nullptr) return "the built-in tool '" + name + "'";
    if (is_dialog_tool(name)) return "the dialog tool '" + name + "'";
    return {};
  };
  return std::make_unique<tools::mcp::mcp_servers>(executor, in_use, std::move(settings));
}

void engine::watch_mcp_config(std::chrono::milliseconds every) {
  const auto& source = team_.mcp.source;
  if (mcp_watch_ || source.empty() || source == team_.source) return;  // none, or inline in the team file
  auto apply = [this](const config::mcp_config& changed) {
    std::vector<std::string> notices;
    auto in_use = mcp_servers_in_use(changed, members_.registry(), &notices);
    for (const auto& notice : notices) tools::mcp::log_to_stderr(notice);
    mcp_->replace(in_use);
  };
  mcp_watch_ = std::make_unique<mcp_config_watcher>(executor_, source, std::move(apply), tools::mcp::log_sink{}, every);
}

void engine::stop_mcp() {
  if (mcp_watch_) mcp_watch_->stop();
  mcp_watch_.reset();
  if (team_watch_) team_watch_->stop();
  team_watch_.reset();
  if (mcp_) mcp_->stop_all("Parley stopped its MCP servers");
  tools::end_dominds_daemons(members_.registry());
}

result<std::unique_ptr<engine>> engine::create(asio::any_io_executor executor, store& log, config::team_config team,
                                               provider_map providers, tools::tool_registry tools) {
  std::unique_ptr<engine> created(new engine(std::move(executor), log, std::move(team), std::move(providers),
                                             std::move(tools)));  // NOLINT: private ctor
  PARLEY_TRY(created->members_.prepare());
  return created;
}

result<void> engine::resolve_members(new_dialog& spec) const {
  for (const auto& member : spec.members) {
    if (members_.find(member) == nullptr) {
      return make_error(errc::not_found, "unknown member '" + member + "'" + did_you_mean(member, team_.member_ids()));
    }
  }
  const bool group_of_humans = spec.humans.size() > 1;
  if (spec.member_id.empty() && !spec.members.empty()) {
    // A LIO's default responder is its first AI; in a human group nobody answers unasked.
    if (!group_of_humans) spec.member_id = spec.members.front();
  } else if (spec.member_id.empty() && !spec.humans_only) {
    spec.member_id = team_.default_member;
  }
  if (!spec.member_id.empty() && members_.find(spec.member_id) == nullptr) {
    return make_error(errc::not_found,
                      "unknown member '" + spec.member_id + "'" + did_you_mean(spec.member_id, team_.member_ids()));
  }
  if (spec.member_id.empty() && !spec.humans_only && spec.members.empty()) {
    return make_error(errc::invalid_argument, "a dialog needs a member, members or humans_only");
  }
  return ok();
}

events::dialog_created engine::created_event(new_dialog& spec) const {
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
  records_.windows().add_to(created);
  return created;
}

asio::awaitable<result<std::string>> engine::create_root_dialog(new_dialog spec) {
  PARLEY_CO_TRY(resolve_members(spec));
  auto media = decode_attachment(spec.first_message_attachment);
  if (!media) co_return std::move(media).err();
  const bool with_first_message = !spec.first_message.empty() || media->has_value();
  if (with_first_message) PARLEY_CO_TRY(inputs_.check_user_message(spec.first_message, media->has_value()));
  // A retried create (its reply was lost) returns the dialog the first one made. The id stays
  // claimed until this create's commit has ended: one sent twice at once is checked after the first
  // is durable, and finds it.
  input_claims::claim checked;
  if (!spec.first_message_id.empty()) {
    checked = co_await inputs_.claim(spec.first_message_id);
    const sent_input sent{
        .msg_id = spec.first_message_id, .from = spec.first_message_from, .content = spec.first_message};
    auto earlier = co_await inputs_.dialog_of_retry(sent);
    if (!earlier) co_return std::move(earlier).err();
    if (*earlier) co_return std::move(**earlier);
  }
  // Described before anything is written: the dialog and its first message share one commit.
  if (*media) co_await members_.describe_attachment(**media);
  if (!spec.task_doc_path.empty()) {
    if (auto made = ensure_taskdoc(team_.workspace, spec.task_doc_path); !made) co_return std::move(made).err();
  }
  const std::string id = new_dialog_id();
  auto runtime = dialog_runtime::empty();
  if (auto staged = runtime->stage(created_event(spec), id, id); !staged) co_return std::move(staged).err();
  auto& ref = *runtime;
  if (with_first_message) {
    if (spec.first_message_id.empty()) spec.first_message_id = new_uuid();
    auto input = input_payload(ref, std::move(spec.first_message), std::move(spec.first_message_id),
                               events::message_origin::user, std::move(spec.first_message_from), std::move(*media));
    if (auto staged = dialogs_.stage(ref, std::move(input)); !staged) co_return std::move(staged).err();
  }
  dialogs_.cache().add(std::move(runtime));
  dialogs_.cache().add_new_tree(id);
  if (auto committed = co_await dialogs_.commit(ref); !committed) {
    dialogs_.cache().drop(id);
    dialogs_.cache().drop_tree(id);
    co_return std::move(committed).err();
  }
  if (ref.row().needs_drive) drives_.schedule_drive(ref);
  co_return id;
}

asio::awaitable<result<void>> engine::post_user_message(std::string dialog_id, std::string content, std::string msg_id,
                                                        std::string from, boost::json::object attachment) {
  auto media = decode_attachment(attachment);
  if (!media) co_return std::move(media).err();
  co_return co_await post_input(std::move(dialog_id), std::move(content), std::move(msg_id),
                                events::message_origin::user, std::move(from), std::move(*media));
}

asio::awaitable<result<void>> engine::post_user_message_in_new_session(std::string dialog_id, std::string content,
                                                                       std::string msg_id, std::string from,
                                                                       boost::json::object attachment,
                                                                       session_opener open) {
  auto media = decode_attachment(attachment);
  if (!media) co_return std::move(media).err();
  co_return co_await post_input(std::move(dialog_id), std::move(content), std::move(msg_id),
                                events::message_origin::user, std::move(from), std::move(*media), std::move(open));
}

asio::awaitable<result<void>> engine::post_input(std::string dialog_id, std::string content, std::string msg_id,
                                                 events::message_origin origin, std::string from,
                                                 std::optional<events::attachment> attachment, session_opener open) {
  if (auto valid = inputs_.check_user_message(content, attachment.has_value()); !valid)
    co_return std::move(valid).err();
  // Described before it is recorded: the log holds the words every model will read for it.
  if (attachment) co_await members_.describe_attachment(*attachment);
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;  // locked at once: a dialog waited for is never unloaded
  {
    auto guard = co_await dialog.lock().acquire();
    if (auto root = co_await dialogs_.load_root(dialog); !root) co_return std::move(root).err();
    if (auto running = lifecycle_.check_tree_running(dialog); !running) co_return std::move(running).err();
    if (dialog.row().dead) co_return make_error(errc::conflict, "dialog " + dialog_id + " was declared dead");
    // A retry of a message that was taken already (its reply was lost) changes nothing. Checked
    // under the dialog's lock and the msgId's claim, after the first one's commit, so two at once
    // — to this dialog or another — cannot both be taken.
    input_claims::claim checked;
    if (!msg_id.empty() && origin == events::message_origin::user) {
      checked = co_await inputs_.claim(msg_id);
      const sent_input sent{.msg_id = msg_id, .dialog_id = dialog_id, .from = from, .content = content};
      auto earlier = co_await inputs_.dialog_of_retry(sent);
      if (!earlier) co_return std::move(earlier).err();
      if (*earlier) co_return ok();
    }
    // Tool calls owed since a crash are answered first, so the model never sees a call
    // without its result followed by a new question.
    co_await drives_.answer_owed_calls(dialog);
    if (msg_id.empty()) msg_id = new_uuid();
    auto payload = input_payload(dialog, std::move(content), std::move(msg_id), std::move(origin), std::move(from),
                                 std::move(attachment));
    bool session_staged = false;
    if (open) {
      auto session = co_await records_.stage_opened_session(dialog, open);
      if (!session) co_return std::move(session).err();
      session_staged = *session;
    }
    if (auto staged = dialogs_.stage(dialog, std::move(payload)); !staged) {
      // The session must not reach the log without its message; memory applied it already.
      if (session_staged) {
        (void)dialog.take_staged();
        dialogs_.mark_poisoned(dialog, staged.err().message);
      }
      co_return std::move(staged).err();
    }
    if (auto committed = co_await dialogs_.commit(dialog); !committed) co_return std::move(committed).err();
  }
  if (dialog.row().needs_drive) drives_.schedule_drive(dialog);
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

result<std::vector<registry_entry>> engine::registry(std::string_view root_id) { return router_.registry(root_id); }

asio::awaitable<result<std::vector<registry_entry>>> engine::registry_async(std::string root_id) {
  co_return co_await router_.load_registry(std::move(root_id), dialogs_.reads());
}

}  // namespace parley::engine
