#include "parley/engine/input_retry.hpp"

#include <string>

namespace parley::engine {
namespace {

std::string_view kind_name(input_kind kind) { return kind == input_kind::answer ? "an answer" : "a message"; }

error conflict(std::string_view msg_id, std::string_view problem) {
  return error{errc::conflict, "msgId: '" + std::string(msg_id) + "' " + std::string(problem)};
}

}  // namespace

result<std::optional<input_record>> match_retry(const std::optional<input_record>& earlier, const sent_input& input) {
  if (!earlier) return std::optional<input_record>{};
  // Someone else's id first: nothing of their input (its kind, dialog or words) is told. An answer
  // logged before answers recorded their user holds "": only a retry that names nobody matches it.
  if (earlier->from != input.from) return conflict(input.msg_id, "was already used by another user");
  if (earlier->kind != input.kind) {
    return conflict(input.msg_id, "was already used for " + std::string(kind_name(earlier->kind)) + ", not " +
                                      std::string(kind_name(input.kind)));
  }
  if (!input.dialog_id.empty() && earlier->dialog_id != input.dialog_id) {
    return conflict(input.msg_id, "was already sent to another dialog");
  }
  if (earlier->question_id != input.question_id) {
    return conflict(input.msg_id, "was already used to answer another question");
  }
  if (earlier->content != input.content) {
    return conflict(input.msg_id, "was already sent with other content; a retry must send the same body");
  }
  return earlier;
}

}  // namespace parley::engine
