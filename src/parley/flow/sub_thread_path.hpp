// Sub-thread paths (seed 004 §3): components always receive the main thread plus a path, never a
// sub-thread alone. Two forms address the same thing:
//   string (preferred, §3.1 rule 5): "messages.{i}.meta._thread[.messages.{j}.meta._thread ...]"
//   object: {messageIndex: i, metaPath: "meta._thread[.messages.{j}.meta._thread ...]"}
//           (metaPath defaults to "meta._thread")
// The empty string addresses the main thread itself. Both forms parse into the chain of message
// indices; resolving it against a thread names the first segment that does not lead to a thread.
#pragma once

#include <boost/json/value.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/flow/flow_thread.hpp"

namespace parley::flow {

class sub_thread_path {
 public:
  sub_thread_path() = default;  // the main thread
  explicit sub_thread_path(std::vector<std::size_t> indices) : indices_(std::move(indices)) {}

  const std::vector<std::size_t>& message_indices() const { return indices_; }
  bool is_main() const { return indices_.empty(); }
  // The string form, e.g. "messages.3.meta._thread".
  std::string text() const;
  // The sub-thread stored in message `index` of the thread this path addresses.
  sub_thread_path child(std::size_t message_index) const;
  sub_thread_path parent() const;  // the main thread's parent is itself

  friend bool operator==(const sub_thread_path&, const sub_thread_path&) = default;

 private:
  std::vector<std::size_t> indices_;
};

// Errors are errc::invalid_argument naming the bad segment: `subThreadPath "messages.x.meta._thread":
// segment 2 "x" is not a message index`.
result<sub_thread_path> parse_sub_thread_path(std::string_view text);
// A string or an {messageIndex, metaPath} object.
result<sub_thread_path> parse_sub_thread_path_value(const boost::json::value& value);

// getSubThreadByPath: the thread `path` addresses inside `main`. Errors name the segment that has
// no message (index out of range) or whose message holds no `meta._thread`.
result<flow_thread*> get_sub_thread_by_path(flow_thread& main, const sub_thread_path& path);
result<flow_thread*> get_sub_thread_by_path(flow_thread& main, std::string_view path);

}  // namespace parley::flow
