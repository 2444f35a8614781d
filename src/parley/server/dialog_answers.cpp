#include "parley/server/dialog_answers.hpp"

#include "parley/core/ids.hpp"

namespace parley::server {

namespace asio = boost::asio;

asio::awaitable<result<followed_answer>> start_followed_root(server_context& context, engine::new_dialog spec,
                                                             event_tap tap) {
  spec.first_message_id = new_uuid();
  auto collector = std::make_shared<answer_collector>(std::string(), spec.first_message_id);
  collector->set_event_tap(std::move(tap));
  // Followed before the dialog is made: its drive may run before create_root_dialog returns here.
  auto following = context.answers->follow(*collector);
  auto created = co_await context.engine.create_root_dialog(std::move(spec));
  if (!created) co_return std::move(created).err();
  co_return followed_answer{std::move(*created), std::move(collector), std::move(following)};
}

asio::awaitable<result<followed_answer>> post_followed_message(server_context& context, std::string root_id,
                                                               std::string text, std::string from, event_tap tap) {
  const std::string msg_id = new_uuid();
  auto collector = std::make_shared<answer_collector>(root_id, msg_id);
  collector->set_event_tap(std::move(tap));
  auto following = context.answers->follow(*collector);
  auto posted = co_await context.engine.post_user_message(root_id, std::move(text), msg_id, std::move(from));
  if (!posted) co_return std::move(posted).err();
  co_return followed_answer{std::move(root_id), std::move(collector), std::move(following)};
}

asio::awaitable<result<followed_answer>> answer_followed(server_context& context, std::string root_id,
                                                         engine::user_answer answer, event_tap tap) {
  answer.msg_id = new_uuid();
  auto collector = std::make_shared<answer_collector>(root_id, answer.msg_id);
  collector->set_event_tap(std::move(tap));
  auto following = context.answers->follow(*collector);
  auto answered = co_await context.engine.questions().answer_question(std::move(answer));
  if (!answered) co_return std::move(answered).err();
  co_return followed_answer{std::move(root_id), std::move(collector), std::move(following)};
}

followed_answer follow_from_now(server_context& context, std::string root_id, event_tap tap) {
  auto collector = std::make_shared<answer_collector>(root_id, std::string());
  collector->set_event_tap(std::move(tap));
  auto following = context.answers->follow(*collector);
  return followed_answer{std::move(root_id), std::move(collector), std::move(following)};
}

asio::awaitable<void> watch_settling(engine::engine& eng, std::shared_ptr<answer_collector> collector) {
  const std::string root_id = collector->root_id();
  co_await eng.runs().wait_until_settled(root_id);
  collector->mark_settled();
}

asio::awaitable<std::vector<asked_question>> open_questions_of(server_context& context, const std::string& root_id) {
  std::vector<asked_question> out;
  auto open = co_await context.engine.questions().open_questions_async();
  if (!open) co_return out;
  for (const auto& [dialog, question] : *open) {
    if (dialog.root_id == root_id) {
      out.push_back(asked_question{dialog.id, question.id, question.tellask_content, dialog.member_id});
    }
  }
  co_return out;
}

}  // namespace parley::server
