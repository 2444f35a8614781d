// What the Tellask routing reads, read before it runs (tellask_router.hpp, "prefetch"): the router
// decides and stages synchronously, and a dialog it needs that is not in memory — unloaded past the
// loaded-dialog limit, or not loaded since a restart — would otherwise be read from the store on the
// loop, where the SQLite store's read first waits for a commit and its fsync. Each dialog is read
// with dialog_cache::load_async, which returns the one in memory if another coroutine loaded it
// while this one waited. Ids are copied before each await: the state they come from may change.
#include <boost/json/object.hpp>

#include "parley/core/json.hpp"
#include "parley/core/json_read.hpp"
#include "parley/engine/dialog_tool_args.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/tellask_router.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

// The caller the dialog's assignment names, if any.
std::optional<std::string> assigned_caller(const dialog_runtime& dialog) {
  const auto& assigned = dialog.state().assigned;
  if (!assigned) return std::nullopt;
  return assigned->caller_id;
}

}  // namespace

asio::awaitable<void> tellask_router::prefetch_for_call(const dialog_runtime& caller, const llm::tool_call& call,
                                                        store_reads* reads) {
  if (!is_tellask_call(call.name)) co_return;
  // Type A (tellaskBack, or tellaskSessionless aimed at the tellasker): the subdialog's tellasker.
  if (auto tellasker = assigned_caller(caller); tellasker && caller.is_sub()) {
    (void)co_await dialogs_.load_async(std::move(*tellasker), reads);
  }
  if (call.name != dialog_tool::tellask) co_return;
  // Type B: the root's registry, the session it names, and that session's earlier caller, which
  // is told it was superseded.
  boost::system::error_code ec;
  const auto args = read_json(call.arguments.empty() ? std::string_view("{}") : call.arguments, ec);
  if (ec || !args.is_object()) co_return;  // the routing refuses it, reading nothing
  const auto decoded = read_teammate_call_args(call.name, args.get_object());
  if (!decoded) co_return;  // the routing refuses it, naming the field
  const std::string key = decoded->target_agent_id + "!" + decoded->session_slug;
  const std::string root_id = caller.row().root_id;
  auto hierarchy = co_await dialogs_.tree_async(root_id, reads);
  if (!hierarchy) co_return;
  const auto hit = (*hierarchy)->registry.find(key);
  if (hit == (*hierarchy)->registry.end()) co_return;
  auto session = co_await dialogs_.load_async(hit->second, reads);
  if (!session) co_return;
  const auto& previous = (*session)->state().assigned;
  if (!previous || previous->replied) co_return;
  (void)co_await dialogs_.load_async(previous->caller_id, reads);
}

asio::awaitable<void> tellask_router::prefetch_for_final_saying(const dialog_runtime& dialog, store_reads* reads) {
  // The askers of the tellaskBacks it owes, and the caller its assignment replies to.
  std::vector<std::string> wanted;
  for (const auto& answer : dialog.state().owed) wanted.push_back(answer.dialog_id);
  if (auto caller = assigned_caller(dialog)) wanted.push_back(std::move(*caller));
  for (auto& id : wanted) {
    (void)co_await dialogs_.load_async(std::move(id), reads);
  }
}

asio::awaitable<void> tellask_router::prefetch_for_dead(const dialog_runtime& sub, store_reads* reads) {
  // Its tree's registry (its entry goes) and the caller that waits for it.
  (void)co_await dialogs_.tree_async(sub.row().root_id, reads);
  const auto& assigned = sub.state().assigned;
  if (!assigned || assigned->replied) co_return;
  (void)co_await dialogs_.load_async(assigned->caller_id, reads);
}

asio::awaitable<result<std::vector<registry_entry>>> tellask_router::load_registry(std::string root_id,
                                                                                   store_reads* reads) {
  auto root = co_await dialogs_.load_async(root_id, reads);
  if (!root) co_return std::move(root).err();
  if ((*root)->is_sub()) {
    co_return make_error(
        errc::invalid_argument,
        "dialog " + root_id + " is a subdialog; the registry belongs to its root " + (*root)->row().root_id);
  }
  auto hierarchy = co_await dialogs_.tree_async(root_id, reads);
  if (!hierarchy) co_return std::move(hierarchy).err();
  // Copied: the registry may change while a session is read back, and a session read earlier may
  // be unloaded again while a later one is read, so each entry is taken as its session comes.
  const std::vector<std::pair<std::string, std::string>> sessions((*hierarchy)->registry.begin(),
                                                                  (*hierarchy)->registry.end());
  std::vector<registry_entry> out;
  for (const auto& [key, sub_id] : sessions) {
    auto sub = co_await dialogs_.load_async(sub_id, reads);
    if (!sub) co_return std::move(sub).err();
    out.push_back(entry_of(key, **sub));
  }
  co_return out;
}

}  // namespace parley::engine
