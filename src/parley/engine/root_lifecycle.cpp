// Seed 001's persisted status of a root dialog: running → completed ("mark done"), running or
// completed → archived, and — Parley's addition, so a finished task can be taken up again —
// reopen back to running. The status is an event of the root (status_changed); the `.dialogs/`
// export files a completed or archived root, with its subdialogs and registry, under `done/`.
//
// A running root is completed or archived only at rest: nothing of its tree may be driven, waiting
// for a human's answer or for a subdialog's reply. The refusal names the work, and the human
// decides — stop it, answer, declare a subdialog dead — instead of work being dropped silently.
#include <vector>

#include "parley/core/text.hpp"
#include "parley/engine/engine.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

std::string status_word(events::dialog_status status) { return std::string(events::to_wire(status)); }

}  // namespace

std::vector<std::string> engine::work_in_flight(const dialog_runtime& root) const {
  std::vector<std::string> work;
  if (const auto* hierarchy = dialogs_.find_tree(root.id()); hierarchy != nullptr && hierarchy->active_drives > 0) {
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

asio::awaitable<result<void>> engine::set_root_status(std::string root_id, events::dialog_status to) {
  auto loaded = co_await load_async(root_id);
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
    if (auto staged = stage(root, events::status_changed{to}); !staged) co_return std::move(staged).err();
    if (auto committed = co_await commit(root); !committed) co_return std::move(committed).err();
  }
  co_return ok();
}

result<void> engine::check_root_transition(const dialog_runtime& root, events::dialog_status to) const {
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

}  // namespace parley::engine
