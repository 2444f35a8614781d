// The writing verbs, carried out through a running `parley serve` that holds the data directory
// (server_link.hpp): the same request its REST API takes from any client, with a msgId so that a
// retry never posts twice, then — for the verbs that drive — the dialog followed until its tree
// is at rest and its new messages printed, as the verb prints them when it drives itself.
#pragma once

#include <optional>
#include <string>

#include "cli_args.hpp"

namespace parley::cli {

enum class remote_verb { run, say, answer, resume, resume_all, dead, complete, archive, reopen, title };

struct remote_request {
  remote_verb verb = remote_verb::say;
  std::string dialog_id;    // every verb but run and resume_all
  std::string text;         // run, say, answer: the message; dead: the reason
  std::string question_id;  // answer
  std::string member_id;    // run
  std::string title;        // run, title
  std::string task_doc_path;
  bool retry = false;  // say: a flow's retry (POST …/thread/retry)
};

// The exit status once the verb went through the server that holds the data directory (or failed
// saying why it could not); nullopt when no process holds it, so the verb opens the store itself.
std::optional<int> through_running_server(const parsed_args& args, const remote_request& request);

}  // namespace parley::cli
