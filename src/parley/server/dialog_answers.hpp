// Starting or going on with a root dialog for a request that waits for its answer: the OpenAI
// endpoint's chat completions (openai_chat_handler.hpp) and the MCP server's tool calls
// (mcp_tool_calls.hpp) both do it here. Each input is followed (answer_relay.hpp) by the id it is
// made with, from before it is posted, so nothing the tree does for it is missed.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <memory>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/human_questions.hpp"
#include "parley/server/answer_relay.hpp"
#include "parley/server/asked_question.hpp"
#include "parley/server/server_context.hpp"

namespace parley::server {

// What follows one root's tree for one request. The collector is shared so that a coroutine that
// marks it settled (watch_settling) may outlive the request.
struct followed_answer {
  std::string root_id;
  std::shared_ptr<answer_collector> collector;
  answer_relay::following following;
};

// Each follows with `tap` on its collector (answer_collector::set_event_tap), if given.
// context.answers must be set.
using event_tap = answer_collector::event_tap;

// A new root dialog from `spec`, its first message given a fresh id here and followed from it.
boost::asio::awaitable<result<followed_answer>> start_followed_root(server_context& context, engine::new_dialog spec,
                                                                    event_tap tap = {});
// `text` from the user `from`, posted to the root `root_id` and followed from it.
boost::asio::awaitable<result<followed_answer>> post_followed_message(server_context& context, std::string root_id,
                                                                      std::string text, std::string from,
                                                                      event_tap tap = {});
// The human's answer to a question of the root's tree (answer.msg_id is made here), followed from
// it.
boost::asio::awaitable<result<followed_answer>> answer_followed(server_context& context, std::string root_id,
                                                                engine::user_answer answer, event_tap tap = {});
// The root's tree followed from now, for a caller that waits again without new input.
followed_answer follow_from_now(server_context& context, std::string root_id, event_tap tap = {});

// Marks the collector settled once the root's tree is at rest (no drive queued or running): spawn
// it beside whatever waits on the collector.
boost::asio::awaitable<void> watch_settling(engine::engine& eng, std::shared_ptr<answer_collector> collector);

// The questions for the human that the root's tree waits on (Q4H), oldest first.
boost::asio::awaitable<std::vector<asked_question>> open_questions_of(server_context& context,
                                                                      const std::string& root_id);

}  // namespace parley::server
