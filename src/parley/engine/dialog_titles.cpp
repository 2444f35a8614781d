#include "parley/engine/dialog_titles.hpp"

#include "parley/core/text.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

bool is_title_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::size_t title_code_points(std::string_view text) {
  std::size_t count = 0;
  for (const char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0U) != 0x80U) ++count;
  }
  return count;
}

// Whether the dialog's log already holds a retitling (a human's, or the model's earlier one).
result<bool> was_retitled(store& log, const std::string& dialog_id) {
  auto events = log.read_events(dialog_id);
  if (!events) return std::move(events).err();
  for (const auto& ev : *events) {
    if (ev.is<events::title_changed>()) return true;
  }
  return false;
}

}  // namespace

result<std::string> checked_title(std::string_view given) {
  while (!given.empty() && is_title_space(given.front())) given.remove_prefix(1);
  while (!given.empty() && is_title_space(given.back())) given.remove_suffix(1);
  if (given.empty()) return make_error(errc::invalid_argument, "title: must not be empty");
  if (const auto chars = title_code_points(given); chars > kMaxGivenTitleChars) {
    return make_error(errc::invalid_argument, "title: " + std::to_string(chars) + " characters, more than the " +
                                                  std::to_string(kMaxGivenTitleChars) + " a title may have");
  }
  if (const auto bad = first_control_character(given)) {
    return make_error(errc::invalid_argument, "title: " + *bad + "; a title is one line of visible text");
  }
  return std::string(given);
}

asio::awaitable<result<std::string>> dialog_titles::set_by_user(std::string dialog_id, std::string title) {
  auto checked = checked_title(title);
  if (!checked) co_return std::move(checked).err();
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  // Named first: GCC 12 may destroy a temporary inside a co_await expression twice.
  events::title_changed change{*checked, events::title_source::user};
  auto written = co_await write(**loaded, std::move(change));
  if (!written) co_return std::move(written).err();
  co_return std::move(*checked);
}

asio::awaitable<result<bool>> dialog_titles::set_by_model(std::string dialog_id, std::string title) {
  auto checked = checked_title(title);
  if (!checked) co_return std::move(checked).err();
  auto loaded = co_await dialogs_.load_async(dialog_id);
  if (!loaded) co_return std::move(loaded).err();
  auto& dialog = **loaded;
  // Looked at under the dialog's lock, where a human's title is written too: never over it.
  auto guard = co_await dialog.lock().acquire();
  auto retitled = was_retitled(dialogs_.log(), dialog_id);
  if (!retitled) co_return std::move(retitled).err();
  if (*retitled) co_return false;
  if (auto staged = dialogs_.stage(dialog, events::title_changed{*checked, events::title_source::model}); !staged) {
    co_return std::move(staged).err();
  }
  if (auto committed = co_await dialogs_.commit(dialog); !committed) co_return std::move(committed).err();
  co_return true;
}

asio::awaitable<result<void>> dialog_titles::write(dialog_runtime& dialog, events::title_changed change) {
  auto guard = co_await dialog.lock().acquire();
  if (auto staged = dialogs_.stage(dialog, std::move(change)); !staged) co_return std::move(staged).err();
  co_return co_await dialogs_.commit(dialog);
}

}  // namespace parley::engine
