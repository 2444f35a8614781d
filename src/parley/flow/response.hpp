// Response (seed 004 §6): what an agent, a StateHandler or an InteractionUnit returns — the text
// of a bot message, its meta, the tasks to run next, and `skipBotMessageCreation` when the
// component already wrote (or updated) the message itself. A main-thread answer may instead be a
// stream (`setStream(agent.createStream(stream))`, §2.2) and may name an existing message to update
// rather than create one (`messageUpdate`, §11.1.5, §11.2.5); the host (flow_runner) delivers both.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/task.hpp"

namespace parley::flow {

// A bot answer that arrives in pieces: `run` makes the call, tells `on_chunk` each piece as it
// comes, and returns the whole text. Run once, by the host, after the handler returned — so the
// handler's own work is done before the thread shows the answer growing.
struct answer_stream {
  using chunk_fn = std::function<void(std::string_view)>;
  std::function<boost::asio::awaitable<result<std::string>>(chunk_fn on_chunk)> run;
  std::string phase;  // the answering agent's phase, set by createStream (recorded as meta._phase)
};

// messageUpdate: the message (by id, at any depth of the main thread) this response updates instead
// of creating a bot message. `text` unset: the response's full message (or its stream's text);
// `meta`: fields laid over the message's meta.
struct message_update {
  std::string message_id;
  std::optional<std::string> text;
  boost::json::object meta;
};

class response {
 public:
  response() = default;
  explicit response(std::string text) : text_(std::move(text)) {}

  // getFullMessage
  const std::string& full_message() const { return text_; }
  void set_text(std::string text) { text_ = std::move(text); }

  boost::json::object meta;

  // addNextTask: run after this one, before the flow waits for the user again.
  void add_next_task(task next) { next_tasks_.push_back(std::move(next)); }
  const std::vector<task>& next_tasks() const { return next_tasks_; }

  // meta.skipBotMessageCreation
  bool skip_bot_message_creation() const {
    const auto* flag = meta.if_contains("skipBotMessageCreation");
    return flag != nullptr && flag->is_bool() && flag->get_bool();
  }
  void set_skip_bot_message_creation(bool skip = true) { meta["skipBotMessageCreation"] = skip; }

  // setStream: the answer is this stream's text (main threads only; §6.1 wants sub-thread
  // responses synchronous).
  void set_stream(answer_stream stream) { stream_ = std::move(stream); }
  const std::optional<answer_stream>& stream() const { return stream_; }

  // messageUpdate
  void set_message_update(message_update update) { update_ = std::move(update); }
  const std::optional<message_update>& update() const { return update_; }

 private:
  std::string text_;
  std::vector<task> next_tasks_;
  std::optional<answer_stream> stream_;
  std::optional<message_update> update_;
};

}  // namespace parley::flow
