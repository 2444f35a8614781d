// Input that opens a records session (seed 002: a Dialogue holds many Sessions). A reused
// human⇄AI dialogue and a reflection dialogue of a kind take each new conversation in a session of
// its own; the session is staged just before the message and committed with it, so a refused
// message (a dead dialog, a completed root, a full disk) never leaves an empty session behind.
#include "parley/engine/engine.hpp"

namespace parley::engine {

namespace asio = boost::asio;

asio::awaitable<result<bool>> engine::stage_opened_session(dialog_runtime& dialog, const session_opener& open) {
  // What the dialog sent but did not await (a generation's end, tool results) must be in the
  // records that `open` reads, and only the session may stay staged if the message is refused.
  if (auto flushed = co_await commit(dialog); !flushed) co_return std::move(flushed).err();
  // `open` reads the records and nothing of the loop's (session_opener): on the read thread, so
  // the records' catch-up does not stall the loop. The dialog's lock is held meanwhile.
  auto run_open = [&open] { return open(); };
  auto opening = co_await read_off_loop(reads_, std::move(run_open));
  if (!opening) co_return std::move(opening).err();
  for (auto& payload : *opening) {
    if (auto staged = stage(dialog, std::move(payload)); !staged) co_return std::move(staged).err();
  }
  co_return !opening->empty();
}

asio::awaitable<result<void>> engine::post_user_message_in_new_session(std::string dialog_id, std::string content,
                                                                       std::string msg_id, std::string from,
                                                                       boost::json::object attachment,
                                                                       session_opener open) {
  std::optional<events::attachment> media;
  if (!attachment.empty()) {
    if (auto problem = events::decode_object(attachment, media.emplace(), "attachment")) {
      co_return make_error(errc::invalid_argument, problem->path + ": " + problem->problem);
    }
  }
  co_return co_await post_input(std::move(dialog_id), std::move(content), std::move(msg_id),
                                events::message_origin::user, std::move(from), std::move(media), std::move(open));
}

}  // namespace parley::engine
