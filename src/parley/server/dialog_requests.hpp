// The typed requests of the routes that create and drive dialogs (docs/server.md): a new root
// dialog, a user message, read from the JSON body by request_reader. What the fields mean against
// the team, the users and the uploads (a member that exists, a participant on this server, an
// upload of the asker) is checked by the handlers; the engine's own limits on a user message
// (input_checks::check_user_message) and on a msgId (to_user_input) apply after reading.
#pragma once

#include <boost/json/object.hpp>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/events/records_enums.hpp"
#include "parley/server/request_reader.hpp"

namespace parley::server {

// The dialogue types a client creates a root dialog of (ai_ai and ai_self dialogs are the engine's).
inline constexpr std::array<events::dialogue_type, 5> kCreatableDialogueTypes{
    events::dialogue_type::human_ai, events::dialogue_type::lio_group, events::dialogue_type::human_human,
    events::dialogue_type::human_human_group, events::dialogue_type::human_group_ai};

// Sizes the engine checks itself, with its own messages.
inline constexpr std::size_t kEngineChecksSize = std::numeric_limits<std::size_t>::max();
// A title is a line for lists, not a document.
inline constexpr std::size_t kMaxTitleBytes = 1000;
inline constexpr std::size_t kMaxDialoguePeople = 64;

// `POST /api/dialogs/{id}/messages`.
struct post_message_request {
  std::optional<std::string> content;  // may be absent beside an attachment
  std::string msg_id;
  std::optional<boost::json::object> attachment;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.message_text("content", s.content, kEngineChecksSize);
    r.name("msgId", s.msg_id, kEngineChecksSize);
    r.object("attachment", s.attachment);
  }
};

// `POST /api/dialogs`: a root dialog of one of seed 002's dialogue types.
struct create_dialog_request {
  std::string member_id;
  std::optional<std::string> content;
  std::string title;
  std::string task_doc_path;
  std::string msg_id;
  // One of kCreatableDialogueTypes as sent ("" reads as human_ai); dialogue_type() after check().
  std::string type;
  std::vector<std::string> participants;
  std::vector<std::string> members;
  std::optional<std::string> host;  // human_group_ai: the member that answers what mentions nobody
  bool reuse = false;  // human_ai: continue the user's dialog with this member in a new session (pair_dialogue.hpp)
  std::optional<boost::json::object> attachment;

  template <class S, class R>
  static void fields(S& s, R& r) {
    r.name("memberId", s.member_id);
    r.message_text("content", s.content, kEngineChecksSize);
    r.name("title", s.title, kMaxTitleBytes);
    r.name("taskDocPath", s.task_doc_path);
    r.name("msgId", s.msg_id, kEngineChecksSize);
    r.name("type", s.type);
    r.text_list("participants", s.participants, kMaxDialoguePeople);
    r.text_list("members", s.members, kMaxDialoguePeople);
    r.name("host", s.host);
    r.boolean("reuse", s.reuse);
    r.object("attachment", s.attachment);
  }
  result<void> check() const {
    const auto given = events::from_wire<events::dialogue_type>(type);
    if (!type.empty() && (!given || std::find(kCreatableDialogueTypes.begin(), kCreatableDialogueTypes.end(), *given) ==
                                        kCreatableDialogueTypes.end())) {
      std::string expected;
      for (std::size_t i = 0; i < kCreatableDialogueTypes.size(); ++i) {
        if (i > 0) expected += i + 1 == kCreatableDialogueTypes.size() ? " or " : ", ";
        expected += events::to_wire(kCreatableDialogueTypes[i]);
      }
      return field_problem("type", "expected " + expected + ", got '" + type + "'");
    }
    return ok();
  }
  events::dialogue_type dialogue_type() const {
    return events::from_wire<events::dialogue_type>(type).value_or(events::dialogue_type::human_ai);
  }
};

}  // namespace parley::server
