// A user's message or answer in a store several `parley serve` nodes share (docs/scale-out.md)
// reaches the node that drives its tree, whichever node it was posted to.
//
// The node a user posts to takes the input itself when it holds the tree's lease or can claim it
// (a claimed tree is read afresh: another node may have written it since this one last did). When
// another live node holds the lease, the input is kept in the store (store::forward_input) and
// that node delivers it (deliver_pending, woken by the change feed, and on a timer as a safety
// net) with its msgId, so a second delivery — after a crash between the append and the drop —
// finds the first in the log and changes nothing. On a store of one process every input is here.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>

#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/engine/human_questions.hpp"
#include "parley/engine/store_reads.hpp"
#include "parley/store/store.hpp"

namespace parley::server {

enum class input_route {
  here,       // durable in the log, by this node
  forwarded,  // durable in the store's forwarded inputs; the tree's owner makes it a log event
};

class tree_inputs {
 public:
  tree_inputs(engine::engine& eng, store& log, engine::store_reads* reads) : engine_(eng), log_(log), reads_(reads) {}
  tree_inputs(const tree_inputs&) = delete;
  tree_inputs& operator=(const tree_inputs&) = delete;

  // A forwarded input needs a msgId (the owner deduplicates by it): `msg_id` gets one when empty.
  boost::asio::awaitable<result<input_route>> post_message(const dialog_row& row, std::string content,
                                                           std::string& msg_id, std::string from,
                                                           boost::json::object attachment = {});
  boost::asio::awaitable<result<input_route>> answer(const dialog_row& row, engine::user_answer answer);

  // Delivers the forwarded input of every tree this node holds or can claim. One pass at a time:
  // a call during a pass makes the pass run again.
  boost::asio::awaitable<void> deliver_pending();

 private:
  // The tree's lease, held for an input: `fresh` when claimed for it (given back when the input
  // left nothing to drive). nullopt: another live node holds it.
  struct tree_hold {
    bool fresh = false;
  };
  boost::asio::awaitable<result<std::optional<tree_hold>>> hold_tree(std::string root_id);
  void release_if_idle(const std::string& root_id, const std::string& dialog_id, tree_hold hold);
  boost::asio::awaitable<result<void>> apply(const forwarded_input& input);
  // Whether a delivery that failed so will never succeed (dropped, not tried again).
  bool refused_for_good(const error& failure, const std::string& root_id) const;

  engine::engine& engine_;
  store& log_;
  engine::store_reads* reads_;
  bool delivering_ = false;
  bool deliver_again_ = false;
};

// Through `inputs` where the server has them (verb_serve always does), else straight to the
// engine (tests and benchmarks that build a server context of their own).
boost::asio::awaitable<result<input_route>> post_message_via(tree_inputs* inputs, engine::engine& eng,
                                                             const dialog_row& row, std::string content,
                                                             std::string& msg_id, std::string from,
                                                             boost::json::object attachment = {});
boost::asio::awaitable<result<input_route>> answer_via(tree_inputs* inputs, engine::engine& eng, const dialog_row& row,
                                                       engine::user_answer answer);

}  // namespace parley::server
