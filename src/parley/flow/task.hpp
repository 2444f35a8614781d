// Task (seed 004): what an agent is asked to do — a user's message, an action that continues a
// flow (`ContinueProcessing`), or the run of a sub-thread. `meta` carries `subThreadPath` (§3.1
// rule 2) and `_ui_action` ("retry"). The seed's `task.host_utils` is passed beside the task as a
// `host_utils` reference, since it is not data and never goes to the log.
#pragma once

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::flow {

struct host_utils;

struct task {
  std::string id;
  std::string name;
  std::string type = "message";  // Task.TYPE_MESSAGE "message" | Task.TYPE_ACTION "action"
  std::string message;
  bool skip_user_message = false;  // skipUserMessage
  boost::json::object meta;
  // task.host_utils: the repository and the AI adapter of the host running the flow (not data:
  // never written to the log). Set by the runner; tasks made by components copy it on.
  flow::host_utils* host_utils = nullptr;

  static constexpr std::string_view kTypeMessage = "message";
  static constexpr std::string_view kTypeAction = "action";

  // task.meta.subThreadPath, "" for the main thread.
  std::string sub_thread_path() const;
  bool is_retry() const;  // task.meta._ui_action == "retry"
};

boost::json::object to_json(const task& t);
result<task> task_from_json(const boost::json::value& value, std::string_view where);

}  // namespace parley::flow
