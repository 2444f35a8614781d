#include "verb_remote.hpp"
#include "cli_messages.hpp"

#include <boost/json/serialize.hpp>

#include <chrono>
#include <cstdio>
#include <thread>

#include "cli_context.hpp"
#include "cli_text.hpp"
#include "command_hints.hpp"
#include "parley/core/ids.hpp"
#include "parley/core/json.hpp"
#include "parley/core/text.hpp"
#include "parley/core/time.hpp"
#include "server_link.hpp"
#include "transcript_text.hpp"

namespace parley::cli {
namespace {

namespace json = boost::json;

// How often the tree is looked at while it works, and how many looks in a row must find it at rest
// (a drive hands over to the next one between two looks).
constexpr auto kPollInterval = std::chrono::milliseconds(150);
constexpr int kQuietLooks = 2;

std::string path_segment(std::string_view id) {
  // Dialog and question ids are made by Parley (letters, digits, '-', '_'); anything else would be
  // refused by the server anyway, but must not change the request's path on the way there.
  std::string out;
  for (const char c : id) {
    const bool plain =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (plain) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
      out += kHex[static_cast<unsigned char>(c) & 0xF];
    }
  }
  return out;
}

const json::object* object_at(const json::value& value, std::string_view key) {
  if (!value.is_object()) return nullptr;
  const auto* found = value.as_object().if_contains(key);
  return found != nullptr && found->is_object() ? &found->as_object() : nullptr;
}

const json::array* array_at(const json::value& value, std::string_view key) {
  if (!value.is_object()) return nullptr;
  const auto* found = value.as_object().if_contains(key);
  return found != nullptr && found->is_array() ? &found->as_array() : nullptr;
}

bool flag(const json::object& summary, std::string_view key) {
  const auto* found = summary.if_contains(key);
  return found != nullptr && found->is_bool() && found->as_bool();
}

std::int64_t number(const json::object& object, std::string_view key) {
  const auto* found = object.if_contains(key);
  return found != nullptr && found->is_int64() ? found->as_int64() : 0;
}

// A message as the server's transcript gives it (docs/server.md "Message"), for the CLI's printer.
// Its role, origin and calls are read strictly: a server that says something else is named.
result<message_row> message_of(const json::object& message) {
  message_row row;
  row.seq = number(message, "seq");
  row.course = number(message, "course");
  events::object_decoder typed(message, "message " + std::to_string(row.seq));
  typed.required("role", row.role);
  if (const auto* origin = message.if_contains("origin"); origin != nullptr && !origin->is_null()) {
    typed.optional("origin", row.origin);
  }
  typed.defaulted("toolCalls", row.tool_calls, {});
  if (auto problem = std::move(typed).problem()) {
    return make_error(errc::io_error, "the server's transcript: " + problem->path + " " + problem->problem);
  }
  row.content = json_string_or(message, "content");
  row.thinking = json_string_or(message, "thinking");
  row.tool_name = json_string_or(message, "toolName");
  if (const auto* ok = message.if_contains("ok"); ok != nullptr && ok->is_bool()) row.ok = ok->as_bool();
  row.interrupted = flag(message, "interrupted");
  row.ts_ms = parse_iso8601_ms(json_string_or(message, "ts")).value_or(0);
  return row;
}

struct transcript_mark {
  std::int64_t course = 0;
  std::int64_t total = 0;
};

result<transcript_mark> mark_of(const server_link& server, const std::string& dialog_id) {
  auto page = call_server(server, "GET", "/api/dialogs/" + path_segment(dialog_id) + "/transcript?limit=1");
  if (!page) return std::move(page).err();
  if (!page->is_object()) return make_error(errc::io_error, "the server's transcript is not an object");
  return transcript_mark{number(page->as_object(), "course"), number(page->as_object(), "total")};
}

// Whether a dialog works or will (the web UI's states): generating, or owed a drive that nothing
// stops — not waiting for a human, for a subdialog, and not failed.
bool busy(const json::object& row) {
  if (flag(row, "generating")) return true;
  const auto* failed = row.if_contains("lastError");
  const bool has_failed = failed != nullptr && failed->is_string() && !failed->as_string().empty();
  return flag(row, "needsDrive") && number(row, "openQuestions") == 0 && number(row, "pendingSubdialogs") == 0 &&
         !has_failed;
}

// Waits until no dialog of the tree works (kQuietLooks looks in a row): what `parley run` waits for
// when it drives itself — subdialogs replied, or something waits for a human.
result<void> wait_until_at_rest(const server_link& server, const std::string& root_id) {
  int quiet = 0;
  while (quiet < kQuietLooks) {
    std::this_thread::sleep_for(kPollInterval);
    auto tree = call_server(server, "GET", "/api/dialogs/" + path_segment(root_id) + "/hierarchy");
    if (!tree) return std::move(tree).err();
    bool working = false;
    if (const auto* root = object_at(*tree, "root")) working = busy(*root);
    if (const auto* rows = array_at(*tree, "dialogs")) {
      for (const auto& row : *rows) working = working || (row.is_object() && busy(row.as_object()));
    }
    quiet = working ? 0 : quiet + 1;
  }
  return ok();
}

// Follows the dialog until its tree is at rest, prints what was added to its transcript since
// `from`, then says what waits: the verb's exit status.
int follow(const server_link& server, const std::string& dialog_id, const transcript_mark& from) {
  auto summary = call_server(server, "GET", "/api/dialogs/" + path_segment(dialog_id));
  if (!summary) return report(summary.err());
  const auto* dialog = object_at(*summary, "dialog");
  if (dialog == nullptr) return report(make_error(errc::io_error, "the server's answer names no dialog"));
  const std::string root_id = json_string_or(*dialog, "rootId");
  if (auto rested = wait_until_at_rest(server, root_id.empty() ? dialog_id : root_id); !rested) {
    return report(rested.err());
  }
  auto now = mark_of(server, dialog_id);
  if (!now) return report(now.err());
  // A new course starts the transcript over: everything of the current one is new then.
  const std::int64_t offset = now->course == from.course ? from.total : 0;
  auto page =
      call_server(server, "GET",
                  "/api/dialogs/" + path_segment(dialog_id) + "/transcript?course=" + std::to_string(now->course) +
                      "&offset=" + std::to_string(offset) + "&limit=500");
  if (!page) return report(page.err());
  if (const auto* messages = array_at(*page, "messages")) {
    for (const auto& message : *messages) {
      if (!message.is_object()) continue;
      auto row = message_of(message.as_object());
      if (!row) return report(row.err());
      print_transcript_line(*row);
    }
  }
  std::printf("%s\n", say_cli(msg::dialog_named, {{"id", dialog_id}}).c_str());
  auto after = call_server(server, "GET", "/api/dialogs/" + path_segment(dialog_id));
  if (!after) return report(after.err());
  if (const auto* row = object_at(*after, "dialog")) {
    const std::string failed = json_string_or(*row, "lastError");
    if (!failed.empty()) {
      const std::string command = hint_command("resume", {dialog_id});
      return report(make_error(
          errc::provider_error,
          say_cli(msg::dialog_stopped_try_again, {{"id", dialog_id}, {"error", failed}, {"command", command}})));
    }
  }
  auto questions = call_server(server, "GET", "/api/questions");
  if (questions) {
    if (const auto* open = array_at(*questions, "questions"); open != nullptr && !open->empty()) {
      const std::string count = std::to_string(open->size());
      const std::string command = hint_command("questions");
      std::printf("%s\n", say_cli(open->size() == 1 ? msg::questions_wait_one : msg::questions_wait_many,
                                  {{"n", count}, {"command", command}})
                              .c_str());
    }
  }
  return kExitOk;
}

std::string verb_name(remote_verb verb) {
  switch (verb) {
    case remote_verb::run:
      return "run";
    case remote_verb::say:
      return "say";
    case remote_verb::answer:
      return "answer";
    case remote_verb::resume:
      return "resume";
    case remote_verb::resume_all:
      return "resume --all";
    case remote_verb::dead:
      return "dead";
    case remote_verb::complete:
      return "complete";
    case remote_verb::archive:
      return "archive";
    case remote_verb::reopen:
      return "reopen";
    case remote_verb::title:
      return "title";
  }
  return "?";
}

int carry_out(const server_link& server, const remote_request& request) {
  const std::string dialog_path = "/api/dialogs/" + path_segment(request.dialog_id);
  switch (request.verb) {
    case remote_verb::run: {
      json::object body{{"content", request.text}, {"msgId", new_uuid()}};
      if (!request.member_id.empty()) body["memberId"] = request.member_id;
      if (!request.title.empty()) body["title"] = request.title;
      if (!request.task_doc_path.empty()) body["taskDocPath"] = request.task_doc_path;
      const json::value sent(std::move(body));
      auto created = call_server(server, "POST", "/api/dialogs", &sent);
      if (!created) return report(created.err());
      const auto* dialog = object_at(*created, "dialog");
      const std::string id = dialog != nullptr ? json_string_or(*dialog, "id") : "";
      if (id.empty()) return report(make_error(errc::io_error, "the server's answer names no dialog"));
      return follow(server, id, transcript_mark{});
    }
    case remote_verb::say:
    case remote_verb::answer: {
      auto before = mark_of(server, request.dialog_id);
      if (!before) return report(before.err());
      if (request.retry) {
        const json::value retried(json::object{{"content", request.text}});
        auto posted = call_server(server, "POST", dialog_path + "/thread/retry", &retried);
        if (!posted) return report(posted.err());
        return follow(server, request.dialog_id, *before);
      }
      json::object body{{"content", request.text}, {"msgId", new_uuid()}};
      if (request.verb == remote_verb::answer) body["questionId"] = request.question_id;
      const json::value sent(std::move(body));
      auto posted = call_server(server, "POST",
                                dialog_path + (request.verb == remote_verb::say ? "/messages" : "/answer"), &sent);
      if (!posted) return report(posted.err());
      return follow(server, request.dialog_id, *before);
    }
    case remote_verb::resume: {
      auto before = mark_of(server, request.dialog_id);
      if (!before) return report(before.err());
      auto resumed = call_server(server, "POST", dialog_path + "/resume");
      if (!resumed) return report(resumed.err());
      return follow(server, request.dialog_id, *before);
    }
    case remote_verb::resume_all: {
      auto resumed = call_server(server, "POST", "/api/resume_all");
      if (!resumed) return report(resumed.err());
      std::vector<std::string> ids;
      if (const auto* list = array_at(*resumed, "resumed")) {
        for (const auto& id : *list) {
          if (id.is_string()) ids.emplace_back(id.as_string());
        }
      }
      const std::string count = std::to_string(ids.size());
      const std::string listed = join(ids, ", ");
      std::printf("%s\n", (ids.empty() ? say_cli(msg::resumed_none)
                                       : say_cli(msg::resumed_some, {{"n", count}, {"ids", listed}}))
                              .c_str());
      return kExitOk;
    }
    case remote_verb::dead: {
      const json::value sent(json::object{{"reason", request.text}});
      auto declared = call_server(server, "POST", dialog_path + "/dead", &sent);
      if (!declared) return report(declared.err());
      std::printf("%s\n", say_cli(msg::dialog_named, {{"id", request.dialog_id}}).c_str());
      return kExitOk;
    }
    case remote_verb::title: {
      const json::value sent(json::object{{"title", request.title}});
      auto titled = call_server(server, "PUT", dialog_path + "/title", &sent);
      if (!titled) return report(titled.err());
      const auto* title = titled->is_object() ? titled->as_object().if_contains("title") : nullptr;
      const std::string stored = title != nullptr && title->is_string() ? std::string(title->as_string()) : "";
      std::printf("%s\n", say_cli(msg::titled, {{"id", request.dialog_id}, {"title", stored}}).c_str());
      return kExitOk;
    }
    case remote_verb::complete:
    case remote_verb::archive:
    case remote_verb::reopen: {
      auto changed = call_server(server, "POST", dialog_path + "/" + verb_name(request.verb));
      if (!changed) return report(changed.err());
      const auto* dialog = object_at(*changed, "dialog");
      const std::string status = dialog != nullptr ? json_string_or(*dialog, "status") : "changed";
      std::printf("%s\n", say_cli(msg::status_now, {{"id", request.dialog_id}, {"status", status}}).c_str());
      return kExitOk;
    }
  }
  return report(make_error(errc::internal, "unknown remote verb"));
}

}  // namespace

std::optional<int> through_running_server(const parsed_args& args, const remote_request& request) {
  auto server = find_server(data_dir_of(args));
  if (!server) return report(server.err());
  if (!*server) return std::nullopt;
  std::fprintf(stderr, "parley: %s\n",
               say_cli(msg::remote_sent, {{"verb", verb_name(request.verb)}, {"through", through(**server)}}).c_str());
  return carry_out(**server, request);
}

}  // namespace parley::cli
