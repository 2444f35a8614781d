// A dialog's title after its creation (issue 43): a human renames it (PUT /api/dialogs/{id}/title,
// `parley title`), or the model's own summary names a root after its first answer
// (title_writer.hpp). Either is a `title_changed` event of the dialog, so a restart keeps it; a
// title a human gave is never replaced by the model's.
//
// Owns no state: the title is the dialog's row, the history its log. Runs on the engine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/engine/dialog_host.hpp"

namespace parley::engine {

// The longest title a human may give, in characters (code points).
inline constexpr std::size_t kMaxGivenTitleChars = 200;

// A title as given, trimmed of surrounding whitespace: refused (invalid_argument, naming `title`)
// when that leaves nothing, when it is longer than kMaxGivenTitleChars, or when it holds a control
// character (a title is one line of visible text).
result<std::string> checked_title(std::string_view given);

class dialog_titles {
 public:
  explicit dialog_titles(dialog_host& dialogs) : dialogs_(dialogs) {}

  // A human's title for the dialog, checked as checked_title does; durable before it returns.
  // Returns the title as stored.
  boost::asio::awaitable<result<std::string>> set_by_user(std::string dialog_id, std::string title);
  // The model's summary of a root: written only when no title_changed is in its log yet (a
  // human's title stays; a restart never asks twice). Returns whether it was written.
  boost::asio::awaitable<result<bool>> set_by_model(std::string dialog_id, std::string title);

 private:
  boost::asio::awaitable<result<void>> write(dialog_runtime& dialog, events::title_changed change);

  dialog_host& dialogs_;
};

}  // namespace parley::engine
