// Retries that never duplicate (issue 19, item 5). A client names each create, post and answer
// with a `msgId` (or an Idempotency-Key); when the reply is lost — a timeout, a dropped
// connection, a server killed between its commit and its response — the client sends the same
// request again. The log holds every msgId it took (store::find_input, an index on the log), so a
// retry is recognised in the running process and after any restart alike, without keeping every
// id ever seen in memory. What the retry sends must be what the first attempt sent: the same id
// with another body is a client's mistake, refused as a conflict naming msgId, never taken twice.
#pragma once

#include <optional>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

// An input as a client sends it, to be compared with the one first taken with its msgId.
struct sent_input {
  input_kind kind = input_kind::message;
  std::string_view msg_id;
  std::string_view dialog_id;  // empty for a create, which names no dialog yet
  std::string_view from;       // the user who sends it: a retry comes from the same user
  std::string_view content;
  std::string_view question_id;  // an answer's question
};

// `earlier` is what the log holds for the msgId. nullopt: the id is new, take the input. The
// earlier record: `input` is its retry, answer with the first result and change nothing. A
// conflict whose message starts "msgId:": the id was used for something else. Another user's id
// is told apart from the caller's own mistakes without telling anything of the other's input.
result<std::optional<input_record>> match_retry(const std::optional<input_record>& earlier, const sent_input& input);

}  // namespace parley::engine
