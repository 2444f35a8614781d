// The typed requests of the routes that create and drive dialogs (docs/server.md): a new root
// dialog, a user message, read from the JSON body by request_reader. What the fields mean against
// the team, the users and the uploads (a member that exists, a participant on this server, an
// upload of the asker) is checked by the handlers; the engine's own limits on a user message
// (input_checks::check_user_message) and on a msgId (to_user_input) apply after reading.
#pragma once

#include <boost/json/object.hpp>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/server/request_reader.hpp"

namespace parley::server {

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
  // human_ai (default) | lio_group | human_human | human_human_group | human_group_ai
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
    if (!type.empty() && type != "human_ai" && type != "lio_group" && type != "human_human" &&
        type != "human_human_group" && type != "human_group_ai") {
      return field_problem(
          "type", "expected human_ai, lio_group, human_human, human_human_group or human_group_ai, got '" + type + "'");
    }
    return ok();
  }
  std::string dialogue_type() const { return type.empty() ? "human_ai" : type; }
};

}  // namespace parley::server
