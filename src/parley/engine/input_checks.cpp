#include "parley/engine/input_checks.hpp"

#include "parley/core/utf8.hpp"

namespace parley::engine {

namespace asio = boost::asio;

result<void> input_checks::check_user_message(std::string_view content, bool with_attachment) const {
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

asio::awaitable<result<std::optional<std::string>>> input_checks::dialog_of_retry(const sent_input& input) {
  // The SQLite store answers once the batches queued before are committed: on the read thread.
  auto find = [&log = dialogs_.log(), msg_id = std::string(input.msg_id)] { return log.find_input(msg_id); };
  auto found = co_await read_off_loop(dialogs_.reads(), std::move(find));
  if (!found) co_return std::move(found).err();
  auto retried = match_retry(*found, input);
  if (!retried) co_return std::move(retried).err();
  if (!*retried) co_return std::optional<std::string>{};
  co_return std::optional<std::string>{(*retried)->dialog_id};
}

asio::awaitable<input_claims::claim> input_checks::claim(std::string msg_id) {
  co_return co_await claims_.acquire(std::move(msg_id));
}

}  // namespace parley::engine
