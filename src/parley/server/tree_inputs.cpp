#include "parley/server/tree_inputs.hpp"

#include <cstdio>
#include <map>

#include "parley/core/ids.hpp"
#include "parley/core/terminal_text.hpp"

namespace parley::server {

namespace asio = boost::asio;

asio::awaitable<result<std::optional<tree_inputs::tree_hold>>> tree_inputs::hold_tree(std::string root_id) {
  using held = std::optional<tree_hold>;
  if (!log_.shared_between_processes() || log_.holds_tree(root_id)) co_return held{tree_hold{}};
  auto claim = [&log = log_, root_id] { return log.claim_tree(root_id); };
  auto claimed = co_await engine::read_off_loop(reads_, std::move(claim));
  if (!claimed) co_return std::move(claimed).err();
  if (!*claimed) co_return held{};
  // Another node may have written the tree since this one last held it: read it afresh.
  engine_.dialogs().cache().forget_tree(root_id);
  co_return held{tree_hold{.fresh = true}};
}

void tree_inputs::release_if_idle(const std::string& root_id, const std::string& dialog_id, tree_hold hold) {
  if (!hold.fresh) return;
  // Claimed for the input alone: a drive it started gives the lease back when the tree settles;
  // an input that started none (refused, a group message nobody is asked in) gives it back now.
  const auto* dialog = engine_.find(dialog_id);
  if (dialog == nullptr || !dialog->drive_scheduled) log_.release_tree(root_id);
}

asio::awaitable<result<input_route>> tree_inputs::post_message(const dialog_row& row, std::string content,
                                                               std::string& msg_id, std::string from,
                                                               boost::json::object attachment) {
  auto hold = co_await hold_tree(row.root_id);
  if (!hold) co_return std::move(hold).err();
  if (*hold) {
    auto posted =
        co_await engine_.post_user_message(row.id, std::move(content), msg_id, std::move(from), std::move(attachment));
    release_if_idle(row.root_id, row.id, **hold);
    if (!posted) co_return std::move(posted).err();
    co_return input_route::here;
  }
  if (!attachment.empty()) {
    // The attachment's file is in this node's uploads, which the owner cannot read.
    co_return make_error(errc::conflict, "another Parley node drives the tree of dialog " + row.id +
                                             "; post a message with an attachment to that node");
  }
  if (msg_id.empty()) msg_id = "fwd-" + new_uuid();
  const forwarded_input input{0, row.root_id, row.id, "", std::move(content), msg_id, std::move(from)};
  auto forward = [&log = log_, &input] { return log.forward_input(input); };
  auto kept = co_await engine::read_off_loop(reads_, std::move(forward));
  if (!kept) co_return std::move(kept).err();
  co_return input_route::forwarded;
}

asio::awaitable<result<input_route>> tree_inputs::answer(const dialog_row& row, engine::user_answer answer) {
  auto hold = co_await hold_tree(row.root_id);
  if (!hold) co_return std::move(hold).err();
  if (*hold) {
    auto answered = co_await engine_.questions().answer_question(std::move(answer));
    release_if_idle(row.root_id, row.id, **hold);
    if (!answered) co_return std::move(answered).err();
    co_return input_route::here;
  }
  if (answer.msg_id.empty()) answer.msg_id = "fwd-" + new_uuid();
  const forwarded_input input{0,
                              row.root_id,
                              row.id,
                              std::move(answer.question_id),
                              std::move(answer.content),
                              answer.msg_id,
                              std::move(answer.from)};
  auto forward = [&log = log_, &input] { return log.forward_input(input); };
  auto kept = co_await engine::read_off_loop(reads_, std::move(forward));
  if (!kept) co_return std::move(kept).err();
  co_return input_route::forwarded;
}

asio::awaitable<result<void>> tree_inputs::apply(const forwarded_input& input) {
  if (input.question_id.empty()) {
    co_return co_await engine_.post_user_message(input.dialog_id, input.content, input.msg_id, input.from);
  }
  engine::user_answer answer{input.dialog_id, input.content, input.msg_id, input.question_id, "answer", input.from};
  co_return co_await engine_.questions().answer_question(std::move(answer));
}

bool tree_inputs::refused_for_good(const error& failure, const std::string& root_id) const {
  switch (failure.code) {
    case errc::unavailable:
    case errc::io_error:
    case errc::storage_full:
      return false;  // the store's trouble: tried again on the next pass
    case errc::conflict:
      // A lease lost meanwhile is the next owner's to deliver; a conflict of the input itself (a
      // question answered already, a dialog no longer running) stays one.
      return log_.holds_tree(root_id);
    default:
      return true;
  }
}

asio::awaitable<void> tree_inputs::deliver_pending() {
  if (delivering_) {
    deliver_again_ = true;
    co_return;
  }
  delivering_ = true;
  do {
    deliver_again_ = false;
    auto read_pending = [&log = log_] { return log.pending_inputs(); };
    auto pending = co_await engine::read_off_loop(reads_, std::move(read_pending));
    if (!pending) break;                                    // the store's trouble: the next pass reads again
    std::map<std::string, std::optional<tree_hold>> holds;  // root → held here for this pass
    std::map<std::string, std::string> last_dialog;         // root → the dialog its last input went to
    for (const auto& input : *pending) {
      auto hold = holds.find(input.root_id);
      if (hold == holds.end()) {
        auto held = co_await hold_tree(input.root_id);
        hold = holds.emplace(input.root_id, held ? *held : std::nullopt).first;
      }
      if (!hold->second) continue;  // another node's to deliver
      auto applied = co_await apply(input);
      if (!applied && !refused_for_good(applied.err(), input.root_id)) continue;
      if (!applied) {
        std::fprintf(stderr, "parley: warning: input forwarded for dialog %s refused: %s\n",
                     terminal_safe(input.dialog_id).c_str(), terminal_safe(applied.err().message).c_str());
      }
      last_dialog[input.root_id] = input.dialog_id;
      auto drop = [&log = log_, id = input.id] { return log.drop_input(id); };
      (void)co_await engine::read_off_loop(reads_, std::move(drop));
    }
    for (const auto& [root, hold] : holds) {
      if (!hold) continue;
      const auto dialog = last_dialog.find(root);
      if (dialog != last_dialog.end()) {
        release_if_idle(root, dialog->second, *hold);
      } else if (hold->fresh) {
        log_.release_tree(root);
      }
    }
  } while (deliver_again_);
  delivering_ = false;
}

asio::awaitable<result<input_route>> post_message_via(tree_inputs* inputs, engine::engine& eng, const dialog_row& row,
                                                      std::string content, std::string& msg_id, std::string from,
                                                      boost::json::object attachment) {
  if (inputs != nullptr) {
    co_return co_await inputs->post_message(row, std::move(content), msg_id, std::move(from), std::move(attachment));
  }
  PARLEY_CO_TRY(
      co_await eng.post_user_message(row.id, std::move(content), msg_id, std::move(from), std::move(attachment)));
  co_return input_route::here;
}

asio::awaitable<result<input_route>> answer_via(tree_inputs* inputs, engine::engine& eng, const dialog_row& row,
                                                engine::user_answer answer) {
  if (inputs != nullptr) co_return co_await inputs->answer(row, std::move(answer));
  PARLEY_CO_TRY(co_await eng.questions().answer_question(std::move(answer)));
  co_return input_route::here;
}

}  // namespace parley::server
