// What every input a human or a program sends is checked against before it is taken: its content
// (the team's size limit, UTF-8, not empty), and its client message id — a retry of an input taken
// before (its reply was lost) finds what the first one made (input_retry.hpp), and two inputs with
// one id at once are taken one after the other (input_claims.hpp).
//
// Owns the claims on the message ids being checked and committed now; reads the team's limits
// and, for retries, the log on the read thread (dialog_host::reads). Runs on the engine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"
#include "parley/engine/input_claims.hpp"
#include "parley/engine/input_retry.hpp"

namespace parley::engine {

class input_checks {
 public:
  // Keeps references to both; they outlive it (the engine owns them all).
  input_checks(const config::team_config& team, dialog_host& dialogs) : team_(team), dialogs_(dialogs) {}

  // Content may be empty only beside an attachment.
  result<void> check_user_message(std::string_view content, bool with_attachment = false) const;
  // The dialog of the input first taken with `input.msg_id` when `input` is its retry, nullopt when
  // the id is new. The same id with another body, or one someone else used, is a conflict naming
  // msgId. The log is asked on the read thread; `input`'s strings must outlive the await.
  boost::asio::awaitable<result<std::optional<std::string>>> dialog_of_retry(const sent_input& input);
  // Claims `msg_id` until the returned claim goes: a second claim of it waits until then.
  boost::asio::awaitable<input_claims::claim> claim(std::string msg_id);

 private:
  const config::team_config& team_;
  dialog_host& dialogs_;
  input_claims claims_;  // msgIds being checked and committed now
};

}  // namespace parley::engine
