// The model's own title for a root dialog (issue 43), off the dialog's path: an observer that,
// once a root's first final answer is durable, asks the root's member's model — one short call,
// no tools, not streamed, in the team's language — for a title saying what the dialog is about,
// and writes it as a `title_changed` by the model (dialog_titles.hpp), unless the log already has
// a title_changed (a human's title is never replaced, and a restart never asks again).
// Nothing awaits it: the call runs in a coroutine of its own, at most kMaxRunning at a time; a root
// found when that many run keeps its rule-made title (dialog_title.hpp). A member on the scripted
// (offline) provider keeps the rule-made title too: that model answers only what its script says.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/engine/observer.hpp"
#include "parley/llm/provider.hpp"

namespace parley::engine {

class engine;

class title_writer final : public engine_observer {
 public:
  static constexpr std::size_t kMaxRunning = 2;

  title_writer(boost::asio::any_io_executor executor, engine& eng);
  ~title_writer() override;

  void on_durable(const event& ev) override;
  // Stops the calls in flight and takes no more work (shutdown).
  void stop();

 private:
  boost::asio::awaitable<void> run(std::string root_id, std::string answer);

  boost::asio::any_io_executor executor_;
  engine& engine_;
  std::unordered_set<std::string> asked_;  // roots this process asked about (bounded: cleared when large)
  std::vector<std::shared_ptr<llm::generation_control>> controls_;
  std::size_t running_ = 0;
  bool stopped_ = false;
};

// What the model is asked, in the team's language (`zh` or else English): the first message and
// the first answer, each cut to a few hundred characters.
llm::model_request title_request(const config::member_config& member, std::string_view language,
                                 std::string_view first_message, std::string_view answer);
// The model's reply as a title: its first line, quotes and a closing full stop taken off, cut at a
// word boundary to dialog_title.hpp's length. Empty when nothing is left.
std::string title_from_reply(std::string_view reply);

}  // namespace parley::engine
