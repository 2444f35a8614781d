// What a member is told about its team and its place in it, in the team's language ("en" or "zh"):
// the identity line that opens its system prompt, and the team section after its persona — its
// teammates with their routing cards (Dominds' gofor/nogo), the human, where this dialog sits
// (root or subdialog, who asked), and which Tellask to use for what. Without it a model has to
// guess whom it can delegate to. Pure text: the caller decides what applies to the dialog.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"

namespace parley::engine {

// Where a dialog sits, as its member is told.
struct dialog_position {
  enum class kind {
    root,         // the human talks to the member here
    group,        // a root several humans or members share
    session,      // a Type B subdialog (tellask with a sessionSlug)
    sessionless,  // a Type C subdialog (tellaskSessionless)
    fbr,          // a Fresh Boots Reasoning sideline: no tools, no Tellasks
    reflection,   // a self-reflection subdialog (selfReflect)
  };
  kind where = kind::root;
  std::string tellasker;     // the member id of the current tellasker; empty when not known
  std::string session_slug;  // of a Type B session
};

struct roster_input {
  std::string_view language = "en";
  const config::team_config* team = nullptr;
  const config::member_config* self = nullptr;
  dialog_position position;
  // The Tellask-family tools (tellask, tellaskSessionless, tellaskBack, freshBootsReasoning,
  // askHuman) the member may call in this dialog; only these are explained.
  std::vector<std::string_view> tellask_tools;
  bool text_syntax = false;  // it Tellasks in seed 000's `!?@id` text instead of function calls
};

// "You are Lead (@lead), a member of an agent team."
std::string identity_line(std::string_view language, const config::member_config& member);

// The team section: "## Team" (unless FBR), "## Where you are", and the Tellask guide when the
// member may call any of them. Members appear in team order; hidden ones are left out, as Dominds
// does, except the member itself.
std::string team_roster_section(const roster_input& input);

}  // namespace parley::engine
