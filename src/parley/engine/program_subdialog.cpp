// Subdialogs that a program creates and drives (engine::create_program_subdialog): the ToT
// explorer runs its search in code and makes each agent call a subdialog of the run's root, so
// every call is in the log and in the web UI's tree like any other dialog. The subdialog is
// created and given its task in one commit, as a root is with its first message.
#include "parley/core/ids.hpp"
#include "parley/engine/engine.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<result<std::string>> engine::create_program_subdialog(std::string parent_id, std::string member_id,
                                                                      std::string call_kind, std::string task) {
  if (members_.find(member_id) == nullptr) {
    co_return make_error(errc::not_found, "unknown member '" + member_id + "'");
  }
  if (auto valid = inputs_.check_user_message(task); !valid) co_return std::move(valid).err();
  auto loaded = co_await dialogs_.load_async(parent_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& parent = **loaded;
  if (parent.row().status != events::dialog_status::running || parent.row().dead) {
    co_return make_error(errc::conflict, "dialog " + parent_id + " is not running");
  }
  const auto kind = events::from_wire<events::call_kind>(call_kind);
  if (!kind) co_return make_error(errc::invalid_argument, "call kind '" + call_kind + "' is not one the log knows");
  auto made = router_.create_subdialog(parent, member_id, *kind, "", "");
  if (!made) co_return std::move(made).err();
  auto& sub = **made;
  const std::string id = sub.id();
  auto input = input_payload(sub, std::move(task), new_uuid(), events::message_origin::system, "", std::nullopt);
  if (auto staged = dialogs_.stage(sub, std::move(input)); !staged) {
    dialogs_.cache().drop(id);
    co_return std::move(staged).err();
  }
  if (auto committed = co_await dialogs_.commit(sub); !committed) {
    dialogs_.cache().drop(id);
    co_return std::move(committed).err();
  }
  if (sub.row().needs_drive) drives_.schedule_drive(sub);
  co_return id;
}

}  // namespace parley::engine
