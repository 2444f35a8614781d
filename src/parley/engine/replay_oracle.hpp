// A replay's record of its origin (docs/fork.md "Replay"): the tool calls and the answered
// questions of each dialog of the origin's tree after the fork's cut, in order. The drive loop
// asks it before running a member's tool call or asking the human a question in the replay's
// tree (drive_loop::set_replay): a call that is the same as a recorded one not used yet gets the
// recorded result, marked by a call_replayed event; a question with the same text gets the
// recorded answer. Which recorded calls are used is read back from those events, so a resumed
// replay goes on where it stopped.
//
// A call is the same when it is made by the fork's twin of the origin dialog (the fork's id map),
// names the same tool, and its arguments are the same JSON (key order and spacing ignored);
// among several, the first not used yet. Dialog tools (Tellask, reminders...) are never answered
// from the record: they act on the log, and the replay routes them itself.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/llm/provider.hpp"
#include "parley/model/event.hpp"

namespace parley {
class store;
}

namespace parley::engine {

class dialog_host;
class dialog_runtime;

// What the replay gives a call instead of running it: the recorded result (with its marker), or a
// refusal when the replay runs no call for real (--tools recorded).
struct replayed_call {
  std::optional<events::call_replayed> marker;  // none for a refusal
  events::tool_result result;                   // course, genseq and call id still to be set
};

class replay_oracle {
 public:
  // The record of the replay whose fork root is `fork_root_id`; nullopt when that root is no
  // replay (its log holds no replay_started).
  static result<std::optional<replay_oracle>> load(store& log, std::string_view fork_root_id);

  const events::replay_started& spec() const noexcept { return spec_; }
  const std::string& root_id() const noexcept { return root_id_; }

  // For a member tool call of `dialog`: the recorded result, a refusal (tools: recorded), or
  // nullopt — run it (in the scratch workspace). Marks the recorded call used.
  std::optional<replayed_call> answer_tool(const dialog_runtime& dialog, const llm::tool_call& call);
  // For an askHuman call of `dialog`: stages the question, its marker and the recorded answer,
  // and returns true; false when the origin got no answer to that text (the question is asked).
  result<bool> answer_question(dialog_host& dialogs, dialog_runtime& dialog, const llm::tool_call& call);

  struct recorded_call {
    std::string call_id;
    std::string name;
    std::string arguments;                            // as the model wrote them
    std::optional<events::tool_result> result;        // a tool's; none for a question
    std::string question;                             // an askHuman's text ...
    std::optional<events::question_answered> answer;  // ... and the human's answer
    bool used = false;
  };
  struct origin_dialog {
    std::string origin_id;
    std::vector<recorded_call> calls;  // in the order they were made
  };

 private:
  recorded_call* find_unused(const dialog_runtime& dialog, const llm::tool_call& call, bool question,
                             const std::string& text);

  std::string root_id_;
  events::replay_started spec_;
  std::map<std::string, origin_dialog, std::less<>> dialogs_;  // by the fork's dialog id
};

// Stages a replayed call's marker (none for a refusal), then its result in the dialog's current
// generation.
result<void> stage_replayed_call(dialog_host& dialogs, dialog_runtime& dialog, replayed_call call);

// True when two tool-call arguments are the same JSON (objects compared member by member,
// whatever their order); text that is not JSON is compared as it is.
bool same_call_arguments(std::string_view a, std::string_view b);

}  // namespace parley::engine
