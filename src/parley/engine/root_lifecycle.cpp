// The root lifecycle (root_lifecycle.hpp). A running root is completed or archived only at rest:
// nothing of its tree may be driven, waiting for a human's answer or for a subdialog's reply. The
// refusal names the work, and the human decides — stop it, answer, declare a subdialog dead —
// instead of work being dropped silently.
#include "parley/engine/root_lifecycle.hpp"

#include <vector>

#include "parley/core/text.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

std::string status_word(events::dialog_status status) { return std::string(events::to_wire(status)); }

}  // namespace

std::vector<std::string> root_lifecycle::work_in_flight(const dialog_runtime& root) const {
  std::vector<std::string> work;
  if (const auto* hierarchy = dialogs_.cache().find_tree(root.id());
      hierarchy != nullptr && hierarchy->active_drives > 0) {
    work.push_back(std::to_string(hierarchy->active_drives) + " drive(s) running in its tree");
  } else if (root.drive_scheduled || root.row().generating) {
    work.push_back("a drive is running");
  }
  if (const auto& questions = root.state().questions; !questions.empty()) {
    work.push_back(std::to_string(questions.size()) + " question(s) for a human open");
  }
  if (const auto& awaited = root.state().awaited; !awaited.empty()) {
    std::vector<std::string> ids;
    for (const auto& sub : awaited) ids.push_back(sub.dialog_id);
    work.push_back("waits for subdialog(s) " + join(ids, ", "));
  }
  return work;
}

asio::awaitable<result<void>> root_lifecycle::set_root_status(std::string root_id, events::dialog_status to) {
  auto loaded = co_await dialogs_.load_async(root_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& root = **loaded;
  if (root.is_sub()) {
    co_return make_error(errc::invalid_argument,
                         "dialog " + root_id + " is a subdialog of " + root.row().root_id +
                             ": only a root is completed, archived or reopened (a subdialog completes when it "
                             "replies)");
  }
  // Checked before the lock too: a drive holds it for a whole round, and a refusal need not wait.
  if (auto refused = check_root_transition(root, to); !refused) co_return refused;
  {
    auto guard = co_await root.lock().acquire();
    if (auto refused = check_root_transition(root, to); !refused) co_return refused;
    if (auto staged = dialogs_.stage(root, events::status_changed{to}); !staged) co_return std::move(staged).err();
    if (auto committed = co_await dialogs_.commit(root); !committed) co_return std::move(committed).err();
  }
  co_return ok();
}

result<void> root_lifecycle::check_root_transition(const dialog_runtime& root, events::dialog_status to) const {
  const std::string& root_id = root.id();
  const auto from = root.row().status;
  if (from == to) return make_error(errc::conflict, "dialog " + root_id + " is already " + status_word(to));
  if (to == events::dialog_status::completed && from == events::dialog_status::archived) {
    return make_error(errc::conflict, "dialog " + root_id + " is archived; reopen it before completing it");
  }
  if (from != events::dialog_status::running) return ok();
  if (const auto work = work_in_flight(root); !work.empty()) {
    return make_error(errc::conflict, "dialog " + root_id + " has work in flight (" + join(work, "; ") +
                                          "): stop it, answer its questions or declare its subdialogs dead first; "
                                          "nothing was changed");
  }
  return ok();
}

result<void> root_lifecycle::check_tree_running(dialog_runtime& dialog) {
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
  auto root = held != nullptr ? result<dialog_runtime*>(held) : dialogs_.load(row.root_id);
  if (!root) return std::move(root).err();
  if ((*root)->row().status != events::dialog_status::running) {
    return make_error(errc::conflict, "dialog " + dialog.id() + " belongs to root " + row.root_id + ", which is " +
                                          std::string(events::to_wire((*root)->row().status)) +
                                          "; reopen the root to go on");
  }
  return ok();
}

}  // namespace parley::engine
