// Questions for the human and dead subdialogs (human_questions.hpp).
#include "parley/engine/human_questions.hpp"

#include <algorithm>

#include "parley/core/ids.hpp"
#include "parley/core/json.hpp"
#include "parley/core/text.hpp"
#include "parley/engine/dialog_tools.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<result<void>> human_questions::answer_question(user_answer answer) {
  if (answer.continuation_type != "answer") {
    co_return make_error(errc::invalid_argument,
                         "continuationType must be 'answer', not '" + answer.continuation_type + "'");
  }
  if (answer.question_id.empty()) co_return make_error(errc::invalid_argument, "questionId is empty");
  if (auto valid = inputs_.check_user_message(answer.content); !valid) co_return std::move(valid).err();
  auto loaded = co_await dialogs_.load_async(answer.dialog);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  {
    auto guard = co_await dialog.lock().acquire();
    // A retry of an answer that was taken (its reply was lost, perhaps with the process): the
    // question is no longer open, and the first answer stands. Checked under the dialog's lock and
    // the msgId's claim (input_claims.hpp).
    input_claims::claim checked;
    if (!answer.msg_id.empty()) {
      checked = co_await inputs_.claim(answer.msg_id);
      const sent_input sent{.kind = input_kind::answer,
                            .msg_id = answer.msg_id,
                            .dialog_id = answer.dialog,
                            .from = answer.from,
                            .content = answer.content,
                            .question_id = answer.question_id};
      auto earlier = co_await inputs_.dialog_of_retry(sent);
      if (!earlier) co_return std::move(earlier).err();
      if (*earlier) co_return ok();
    }
    const auto* question = dialog.state().find_question(answer.question_id);
    if (question == nullptr) {
      const auto& answered = dialog.state().answered_questions;
      if (std::find(answered.begin(), answered.end(), answer.question_id) != answered.end()) {
        co_return make_error(
            errc::conflict, "question " + answer.question_id + " of dialog " + answer.dialog + " was already answered");
      }
      std::vector<std::string> open;
      for (const auto& q : dialog.state().questions) open.push_back(q.id);
      co_return make_error(errc::not_found, "dialog " + answer.dialog + " has no open question " + answer.question_id +
                                                (open.empty() ? std::string("; it has no open questions")
                                                              : "; its open questions are " + join(open, ", ")));
    }
    const auto previous = static_cast<std::int64_t>(dialog.state().questions.size());
    if (answer.msg_id.empty()) answer.msg_id = new_uuid();
    if (auto staged =
            dialogs_.stage(dialog, events::question_answered{dialog.row().course, answer.question_id, question->call_id,
                                                             answer.content, answer.msg_id, answer.from});
        !staged) {
      co_return std::move(staged).err();
    }
    if (auto committed = co_await dialogs_.commit(dialog); !committed) co_return std::move(committed).err();
    router_.notify_questions(dialog, previous);
  }
  drives_.schedule_if_drivable(dialog);
  co_return ok();
}

namespace {

dialog_filter asking_dialogs() {
  dialog_filter filter;
  filter.status = events::dialog_status::running;
  filter.with_open_questions = true;
  return filter;
}

void add_questions(std::vector<open_question>& out, const dialog_runtime& dialog) {
  for (const auto& question : dialog.state().questions) out.push_back({dialog.row(), question});
}

std::vector<open_question> oldest_first(std::vector<open_question> out) {
  std::sort(out.begin(), out.end(),
            [](const open_question& a, const open_question& b) { return a.question.asked_at < b.question.asked_at; });
  return out;
}

}  // namespace

result<std::vector<open_question>> human_questions::open_questions() {
  auto rows = dialogs_.log().list_dialogs(asking_dialogs());
  if (!rows) return std::move(rows).err();
  std::vector<open_question> out;
  for (const auto& row : *rows) {
    auto loaded = dialogs_.load(row.id);
    if (!loaded) return std::move(loaded).err();
    add_questions(out, **loaded);
  }
  return oldest_first(std::move(out));
}

asio::awaitable<result<std::vector<open_question>>> human_questions::open_questions_async() {
  auto list = [&log = dialogs_.log()] { return log.list_dialogs(asking_dialogs()); };
  auto rows = co_await read_off_loop(dialogs_.reads(), std::move(list));
  if (!rows) co_return std::move(rows).err();
  std::vector<open_question> out;
  for (const auto& row : *rows) {
    // Each dialog's questions are taken as it comes: one read earlier may be unloaded meanwhile.
    auto loaded = co_await dialogs_.load_async(row.id);
    if (!loaded) co_return std::move(loaded).err();
    add_questions(out, **loaded);
  }
  co_return oldest_first(std::move(out));
}

asio::awaitable<result<void>> human_questions::declare_subdialog_dead(std::string dialog_id, std::string reason) {
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& sub = **loaded;
  if (!sub.is_sub()) {
    co_return make_error(errc::invalid_argument, "dialog " + dialog_id + " is a root dialog, not a subdialog");
  }
  if (sub.row().dead) co_return make_error(errc::conflict, "subdialog " + dialog_id + " is already dead");
  if (auto* generation = sub.generation()) generation->stop("declared dead");
  auto guard = co_await sub.lock().acquire();
  co_await router_.prefetch_for_dead(sub, dialogs_.reads());
  if (reason.empty()) reason = "declared dead by a human";
  round_effects fx;
  if (auto staged = dialogs_.stage(sub, events::declared_dead{reason}); !staged) {
    co_return std::move(staged).err();
  }
  if (auto routed = router_.forget_dead_subdialog(sub, reason, fx); !routed) co_return std::move(routed).err();
  co_return co_await drives_.commit_round(sub, fx, drive_loop::durability::before_going_on);
}

}  // namespace parley::engine
