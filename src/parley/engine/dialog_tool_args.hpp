// The arguments of the dialog tools (dialog_tools.cpp's schemas), decoded once into typed structs.
// The routing checks a call's arguments against the tool's schema first, so these decoders fail
// only when code and schema disagree — and then with the field's name, not a silent "".
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::engine {

// tellask, tellaskSessionless, tellaskBack, freshBootsReasoning and askHuman.
struct teammate_call_args {
  std::string target_agent_id;  // required by tellask and tellaskSessionless; the others have none
  std::string session_slug;     // required by tellask; the others have none
  std::string tellask_content;
};
// `tool` names which of the fields its schema requires.
result<teammate_call_args> read_teammate_call_args(std::string_view tool, const boost::json::object& args);

struct self_reflect_args {
  std::string goal;
  std::string mood_state;  // optional in the schema: no mood given
};
result<self_reflect_args> read_self_reflect_args(const boost::json::object& args);

// add_reminder (content), update_reminder (reminder_no, content), delete_reminder (reminder_no).
struct reminder_args {
  std::int64_t reminder_no = 0;  // absent only for add_reminder, which appends
  std::string content;           // absent only for delete_reminder
};
result<reminder_args> read_reminder_args(std::string_view tool, const boost::json::object& args);

struct change_mind_args {
  std::string selector;
  std::string content;
  std::string expected_hash;  // optional in the schema: "" writes without checking the section's hash
};
result<change_mind_args> read_change_mind_args(const boost::json::object& args);

struct clear_mind_args {
  std::string reminder_content;  // optional in the schema: "" adds no reminder
};
result<clear_mind_args> read_clear_mind_args(const boost::json::object& args);

}  // namespace parley::engine
