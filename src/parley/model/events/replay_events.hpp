// Events of a replay (docs/fork.md "Replay"): a fork driven again with a change, its tool calls
// and questions answered from the origin's record where they are the same.
// Field names in `fields` are wire names: once shipped they never change.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parley/model/events/enums.hpp"

namespace parley::events {

// What a replay does with a tool call that has no recorded twin: runs it in the replay's scratch
// copy of the workspace, or answers it with a tool error.
enum class replay_tools { live, recorded };

template <>
struct enum_wire<replay_tools> {
  static constexpr std::array<std::pair<replay_tools, std::string_view>, 2> values{
      {{replay_tools::live, "live"}, {replay_tools::recorded, "recorded"}}};
};

// A member's persona replaced for the replay: the text itself, so that a resume needs no file.
struct replay_persona {
  std::string member_id;
  std::string persona;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("memberId", s.member_id);
    v.required("persona", s.persona);
  }
  bool operator==(const replay_persona&) const = default;
};

// On a replay's root, right after its dialog_forked: what the replay changes (at most one kind
// of change is set), how it answers calls without a recorded twin, and where those run.
struct replay_started {
  static constexpr std::string_view kType = "replay_started";
  std::string origin_root_id;
  std::int64_t from_seq = 0;  // the origin root's event the fork goes on after
  std::optional<std::string> model;
  std::optional<std::string> provider;
  std::optional<std::string> team_file;  // the team file the replay runs under ...
  std::optional<std::string> team_hash;  // ... and its content's hash then (16 hex digits of SHA-256)
  std::vector<replay_persona> personas;
  replay_tools tools = replay_tools::live;
  std::string workspace;  // the scratch copy of the workspace live calls run in

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("originRootId", s.origin_root_id);
    v.required("fromSeq", s.from_seq);
    v.optional("model", s.model);
    v.optional("provider", s.provider);
    v.optional("teamFile", s.team_file);
    v.optional("teamHash", s.team_hash);
    v.defaulted("personas", s.personas, {});
    v.required("tools", s.tools);
    v.required("workspace", s.workspace);
  }
  bool operator==(const replay_started&) const = default;
};

// A replay's tool call (or askHuman call) answered from the origin's record instead of being run
// (or asked): the origin dialog's call whose recorded result (or answer) it got. Written before
// the call's tool_result (or question_answered), in the same batch.
struct call_replayed {
  static constexpr std::string_view kType = "call_replayed";
  std::string call_id;
  std::string name;
  std::string origin_dialog_id;
  std::string origin_call_id;

  template <class S, class V>
  static void fields(S& s, V& v) {
    v.required("callId", s.call_id);
    v.required("name", s.name);
    v.required("originDialogId", s.origin_dialog_id);
    v.required("originCallId", s.origin_call_id);
  }
  bool operator==(const call_replayed&) const = default;
};

}  // namespace parley::events
