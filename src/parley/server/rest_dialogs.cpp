// Reading dialogs (list, one, children, hierarchy, transcript) and creating a root dialog.
#include <boost/json/array.hpp>

#include <algorithm>
#include <array>
#include <set>

#include "parley/engine/taskdoc.hpp"
#include "parley/server/dialog_cursor.hpp"
#include "parley/server/dialog_requests.hpp"
#include "parley/server/json_views.hpp"
#include "parley/server/pair_dialogue.hpp"
#include "parley/server/rest_flow.hpp"
#include "parley/server/rest_handlers.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/store/fork_history.hpp"

namespace parley::server::rest {

namespace {

constexpr std::int64_t kMaxPage = 500;
// A search is a few words, not a document.
constexpr std::size_t kMaxQueryBytes = 1000;

// The rows of one hierarchy and the set of ids that are someone's parent, for hasChildren.
struct hierarchy_rows {
  std::vector<dialog_row> rows;
  std::set<std::string> parents;
};

result<hierarchy_rows> load_hierarchy(store& log, const std::string& root_id) {
  dialog_filter filter;
  filter.root_id = root_id;
  auto rows = log.list_dialogs(filter);
  if (!rows) return std::move(rows).err();
  hierarchy_rows out;
  out.rows = std::move(*rows);
  for (const auto& row : out.rows) {
    if (!row.parent_id.empty()) out.parents.insert(row.parent_id);
  }
  return out;
}

boost::json::object summary_in(const hierarchy_rows& tree, const dialog_row& row) {
  return dialog_summary_json(row, tree.parents.count(row.id) != 0);
}

// Seed 002's dialogue types, from `type`, `participants` (other users), `members` (AIs) and `host`.
struct dialogue_people {
  std::vector<std::string> humans;  // the creator first
  std::vector<std::string> members;
  std::string host;  // a human_group_ai's hosting member; "" when an AI answers only when mentioned
  bool humans_only = false;
};

// `host`: only a group of humans with AIs has one, and it is one of those AIs.
result<std::string> read_host(const create_dialog_request& body) {
  if (!body.host) return std::string();
  const auto type = body.dialogue_type();
  if (type != events::dialogue_type::human_group_ai) {
    return make_error(errc::invalid_argument,
                      "host: only a human_group_ai dialog has a host, not a " + std::string(events::to_wire(type)));
  }
  if (body.host->empty()) return make_error(errc::invalid_argument, "host: expected the id of one of members");
  if (std::find(body.members.begin(), body.members.end(), *body.host) == body.members.end()) {
    return make_error(errc::invalid_argument, "host: '" + *body.host + "' is not one of members");
  }
  return *body.host;
}

result<dialogue_people> read_dialogue_people(server_context& context, const user& creator,
                                             const create_dialog_request& body) {
  using events::dialogue_type;
  const dialogue_type kind = body.dialogue_type();
  const std::string type(events::to_wire(kind));  // for the refusals
  const std::string& member_id = body.member_id;
  const auto& participants = body.participants;
  const auto& members = body.members;
  const bool with_others = events::is_humans_only(kind) || kind == dialogue_type::human_group_ai;
  const bool with_members = kind == dialogue_type::lio_group || kind == dialogue_type::human_group_ai;
  if (with_others && participants.empty()) {
    return make_error(errc::invalid_argument, "participants: a " + type + " dialog needs at least one other user");
  }
  if (!with_others && !participants.empty()) {
    return make_error(errc::invalid_argument, "participants: a " + type + " dialog has one human, its creator");
  }
  if (kind == dialogue_type::human_human_group && participants.size() < 2) {
    return make_error(errc::invalid_argument,
                      "participants: a human_human_group dialog needs at least two other users (two people are a "
                      "private human_human dialog)");
  }
  const std::size_t fewest_members = kind == dialogue_type::lio_group ? 2 : 1;
  if (with_members && members.size() < fewest_members) {
    return make_error(errc::invalid_argument, "members: a " + type + " dialog needs at least " +
                                                  std::to_string(fewest_members) + " AI member(s)");
  }
  if (!with_members && !members.empty()) {
    return make_error(errc::invalid_argument, "members: only lio_group and human_group_ai dialogs have members");
  }
  if (!member_id.empty() && events::is_humans_only(kind)) {
    return make_error(errc::invalid_argument, "memberId: a " + type + " dialog has no AI");
  }
  if (!member_id.empty() && kind == dialogue_type::lio_group &&
      std::find(members.begin(), members.end(), member_id) == members.end()) {
    return make_error(errc::invalid_argument, "memberId: the default responder must be one of members");
  }
  if (!member_id.empty() && kind == dialogue_type::human_group_ai) {
    return make_error(errc::invalid_argument,
                      "memberId: in a human_group_ai dialog an AI answers when @mentioned, or as its host (host)");
  }
  auto host = read_host(body);
  if (!host) return std::move(host).err();
  dialogue_people out;
  out.humans.push_back(creator.id);
  for (std::size_t i = 0; i < participants.size(); ++i) {
    const auto& id = participants[i];
    const std::string where = "participants[" + std::to_string(i) + "]";
    if (context.users.find(id) == nullptr) {
      return make_error(errc::invalid_argument, where + ": no user '" + id + "' on this server");
    }
    if (std::find(out.humans.begin(), out.humans.end(), id) != out.humans.end()) {
      return make_error(errc::invalid_argument, where + ": '" + id + "' is already in the dialog");
    }
    out.humans.push_back(id);
  }
  for (std::size_t i = 0; i < members.size(); ++i) {
    const auto& id = members[i];
    const std::string where = "members[" + std::to_string(i) + "]";
    if (context.engine.team().find_member(id) == nullptr) {
      return make_error(errc::invalid_argument, where + ": no member '" + id + "' in the team");
    }
    if (std::find(out.members.begin(), out.members.end(), id) != out.members.end()) {
      return make_error(errc::invalid_argument, where + ": '" + id + "' is listed twice");
    }
    out.members.push_back(id);
  }
  out.host = std::move(*host);
  out.humans_only = events::is_humans_only(kind);
  return out;
}

// The seq of a root's first message, committed with its dialog_created (engine::create_root_dialog).
constexpr std::int64_t kFirstMessageSeq = 2;

// `reuse`: the message goes to the pair's existing dialog, in a new session, and the answer says
// so with 200. A retried create whose first try reached this dialog answers as that try did —
// 201 if it made the dialog — without posting again.
handler_result continue_pair_dialog(server_context& context, const rest_request& request, const std::string& id,
                                    user_input input, boost::json::object attachment) {
  bool retried = false;
  bool made_by_first_try = false;
  if (input.msg_id_from_client) {
    // Named, not built inside the co_await (GCC 12 miscompiles such temporaries).
    const engine::sent_input sent{.msg_id = input.msg_id, .from = request.who->id, .content = input.content};
    auto earlier = co_await context.engine.inputs().dialog_of_retry(sent);
    if (!earlier) co_return error_response(earlier.err());
    retried = *earlier == id;
    if (retried) {
      auto find = [&log = context.log, msg_id = input.msg_id] { return log.find_input(msg_id); };
      auto first = co_await read_store(context, std::move(find));
      if (!first) co_return error_response(first.err());
      made_by_first_try = *first && (*first)->seq == kFirstMessageSeq;
    }
  }
  boost::json::value session_id = nullptr;
  if (!retried) {
    if (auto shared = share_attachment(context, attachment, id); !shared) co_return error_response(shared.err());
    // The new session and the message are one commit: a refused message leaves no empty session.
    std::string opened;
    auto open = reuse_session_opener(context, id, opened);
    auto posted = co_await context.engine.post_user_message_in_new_session(
        id, input.content, input.msg_id, request.who->id, std::move(attachment), std::move(open));
    if (!posted) co_return error_response(posted.err());
    if (!opened.empty()) session_id = opened;
  }
  auto summary = co_await read_dialog_summary(context, request, id);
  if (!summary) co_return error_response(summary.err());
  if (made_by_first_try) {
    co_return json_response(201, boost::json::object{{"dialog", std::move(*summary)}, {"reused", false}});
  }
  co_return json_response(
      200, boost::json::object{{"dialog", std::move(*summary)}, {"reused", true}, {"sessionId", session_id}});
}

// A retry of a create whose reply was lost gets the first result, and nothing is made again;
// nullopt when this create is no such retry.
boost::asio::awaitable<std::optional<rest_response>> answer_of_retried_create(server_context& context,
                                                                              const rest_request& request,
                                                                              const user_input& input,
                                                                              const boost::json::object& attachment) {
  if (!input.msg_id_from_client) co_return std::nullopt;
  const engine::sent_input sent{.msg_id = input.msg_id, .from = request.who->id, .content = input.content};
  auto earlier = co_await context.engine.inputs().dialog_of_retry(sent);
  if (!earlier) co_return error_response(earlier.err());
  if (!*earlier) co_return std::nullopt;
  auto row = co_await read_dialog(context, request, **earlier);
  if (!row) co_return error_response(row.err());
  // The first attempt may have been cut between its commit and sharing its upload.
  if (auto shared = share_attachment(context, attachment, row->root_id); !shared)
    co_return error_response(shared.err());
  auto summary = co_await read_summary(context, std::move(*row));
  co_return json_response(201, boost::json::object{{"dialog", std::move(summary)}});
}

engine::new_dialog root_spec_of(const create_dialog_request& body, dialogue_people people, const user_input& input,
                                const std::string& from, const boost::json::object& attachment) {
  // A hosting AI is the group's default responder (group_routing.hpp).
  engine::new_dialog spec{people.host.empty() ? body.member_id : people.host, body.title, body.task_doc_path};
  spec.humans = std::move(people.humans);
  spec.members = std::move(people.members);
  spec.humans_only = people.humans_only;
  // The message, with its attachment if any, is committed with the dialog: a crash never leaves a
  // dialog whose create a retry would not find by its msgId.
  spec.first_message = input.content;
  spec.first_message_id = input.msg_id;
  spec.first_message_from = from;
  spec.first_message_attachment = attachment;
  return spec;
}

}  // namespace

// Roots newest first, answered by the store's indexes (store/root_listing.hpp): pages follow
// each other by `cursor` (the `nextCursor` of the page before); `offset` still works for old
// clients. `total` counts every root that passes the filters, on pages asked for without a
// cursor only: a client that pages by cursor has it from its first page, and counting again on
// every page would cost each page the whole list.
handler_result list_dialogs(server_context& context, const rest_request& request, std::string /*dialog_id*/) {
  root_listing listing;
  if (const auto status = request.query.find("status"); status != request.query.end()) {
    listing.status = events::from_wire<events::dialog_status>(status->second);
    if (!listing.status) {
      co_return field_error(make_error(
          errc::invalid_argument, "status: expected running, completed or archived, got '" + status->second + "'"));
    }
  }
  if (const auto member = request.query.find("member"); member != request.query.end()) {
    listing.member_id = member->second;
  }
  if (const auto q = request.query.find("q"); q != request.query.end()) {
    if (q->second.size() > kMaxQueryBytes) {
      co_return field_error(
          make_error(errc::invalid_argument, "q: at most " + std::to_string(kMaxQueryBytes) + " bytes"));
    }
    if (q->second.find('\0') != std::string::npos) {
      co_return field_error(make_error(errc::invalid_argument, "q: contains a NUL character"));
    }
    listing.text = q->second;
  }
  if (const auto cursor = request.query.find("cursor"); cursor != request.query.end() && !cursor->second.empty()) {
    auto key = parse_cursor(cursor->second);
    if (!key) co_return field_error(key.err());
    listing.after = std::move(*key);
  }
  const auto limit = query_integer(request, "limit", 50, 1, kMaxPage);
  if (!limit) co_return field_error(limit.err());
  const auto offset = query_integer(request, "offset", 0, 0, INT64_MAX);
  if (!offset) co_return field_error(offset.err());
  listing.limit = *limit;
  listing.offset = *offset;
  listing.with_total = !listing.after;
  if (context.users.multi_user()) listing.viewer = root_viewer{request.who->id, request.who->sees_unowned};

  auto read = [&]() -> rest_response {
    auto page = context.log.list_roots(listing);
    if (!page) return error_response(page.err());
    boost::json::array rows;
    for (const auto& row : page->rows) rows.push_back(summary_of(context.log, row));
    boost::json::object body{{"dialogs", std::move(rows)}};
    body["nextCursor"] = page->more && !page->rows.empty()
                             ? boost::json::value(cursor_text(page_key_of(page->rows.back())))
                             : boost::json::value(nullptr);
    if (page->total) body["total"] = *page->total;
    return json_response(200, std::move(body));
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result create_dialog(server_context& context, const rest_request& request, std::string /*dialog_id*/) {
  rest_response failure;
  // Every field is checked before anything is created, so a bad request leaves nothing behind.
  auto body = read_body<create_dialog_request>(request, false, failure);
  if (!body) co_return failure;
  auto input =
      to_user_input(context.engine, body->content, body->msg_id, body->attachment.has_value(), request.idempotency_key);
  if (!input) co_return field_error(input.err());
  if (!body->member_id.empty() && context.engine.team().find_member(body->member_id) == nullptr) {
    co_return field_error(field_problem("memberId", "no member '" + body->member_id + "' in the team"));
  }
  // A flow member's dialog is run by the flow host; without memberId, a human_ai root goes to the
  // team's default member, which may be a flow.
  const std::string& answering = body->member_id.empty() && body->dialogue_type() == events::dialogue_type::human_ai
                                     ? context.engine.team().default_member
                                     : body->member_id;
  if (auto valid = check_reuse(*body, is_flow_member(context, answering)); !valid) co_return field_error(valid.err());
  if (is_flow_member(context, answering)) {
    co_return co_await create_flow_dialog(context, request, answering, *input, body->attachment.has_value(),
                                          !body->task_doc_path.empty());
  }
  auto people = read_dialogue_people(context, *request.who, *body);
  if (!people) co_return field_error(people.err());
  auto attachment = read_attachment(context, request, body->attachment);
  if (!attachment) co_return field_error(attachment.err());
  if (!body->task_doc_path.empty()) {
    if (auto valid = engine::check_task_doc_path(context.engine.team().workspace, body->task_doc_path); !valid) {
      co_return field_error(field_problem("taskDocPath", valid.err().message));
    }
  }

  if (body->reuse) {
    auto find = [&context, user = request.who->id, member = answering] {
      return find_pair_dialog(context, user, member);
    };
    auto pair = co_await read_store(context, std::move(find));
    if (!pair) co_return error_response(pair.err());
    if (*pair) {
      co_return co_await continue_pair_dialog(context, request, (*pair)->id, std::move(*input), std::move(*attachment));
    }
  }
  auto retried = co_await answer_of_retried_create(context, request, *input, *attachment);
  if (retried) co_return std::move(*retried);
  engine::new_dialog spec = root_spec_of(*body, std::move(*people), *input, request.who->id, *attachment);
  auto created = co_await context.engine.create_root_dialog(std::move(spec));
  if (!created) co_return error_response(created.err());
  const std::string id = *created;
  // Shared once the dialog exists (the upload's readers are its root's people); a kill before
  // this line is repaired by the retry above.
  if (auto shared = share_attachment(context, *attachment, id); !shared) co_return error_response(shared.err());
  // Read back once the projections have the new dialog: on the read thread, which waits for that
  // commit instead of the loop.
  auto respond = [&]() -> rest_response {
    auto row = find_dialog(context, request, id);
    if (!row) return error_response(row.err());
    boost::json::object answer{{"dialog", summary_of(context.log, *row)}};
    if (body->reuse) answer["reused"] = false;
    return json_response(201, std::move(answer));
  };
  co_return co_await read_reply(context, std::move(respond));
}

handler_result get_dialog(server_context& context, const rest_request& request, std::string dialog_id) {
  auto read = [&]() -> result<boost::json::object> {
    auto row = find_dialog(context, request, dialog_id);
    if (!row) return std::move(row).err();
    auto summary = summary_of(context.log, *row);
    PARLEY_TRY(add_fork_origin(context.log, summary, dialog_id));
    return summary;
  };
  auto summary = co_await read_store(context, std::move(read));
  if (!summary) co_return error_response(summary.err());
  // The engine's part of the summary is the loop's to read.
  if (auto loaded = co_await context.engine.dialogs().load_async(dialog_id)) add_resume_state(*summary, **loaded);
  co_return json_response(200, boost::json::object{{"dialog", std::move(*summary)}});
}

handler_result get_children(server_context& context, const rest_request& request, std::string dialog_id) {
  auto read = [&]() -> rest_response {
    auto row = find_dialog(context, request, dialog_id);
    if (!row) return error_response(row.err());
    auto tree = load_hierarchy(context.log, row->root_id);
    if (!tree) return error_response(tree.err());
    boost::json::array children;
    for (const auto& candidate : tree->rows) {
      if (candidate.parent_id == dialog_id) children.push_back(summary_in(*tree, candidate));
    }
    return json_response(200, boost::json::object{{"children", std::move(children)}});
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_hierarchy(server_context& context, const rest_request& request, std::string dialog_id) {
  auto read = [&]() -> rest_response {
    auto row = find_dialog(context, request, dialog_id);
    if (!row) return error_response(row.err());
    if (row->kind != events::dialog_kind::root) {
      return error_response(
          400, "bad_request",
          "dialog " + dialog_id + " is a subdialog; ask for the hierarchy of its root " + row->root_id);
    }
    auto tree = load_hierarchy(context.log, dialog_id);
    if (!tree) return error_response(tree.err());
    boost::json::array dialogs;
    for (const auto& candidate : tree->rows) {
      if (candidate.id != dialog_id) dialogs.push_back(summary_in(*tree, candidate));
    }
    return json_response(200, boost::json::object{{"root", summary_in(*tree, *row)}, {"dialogs", std::move(dialogs)}});
  };
  co_return co_await read_reply(context, std::move(read));
}

handler_result get_transcript(server_context& context, const rest_request& request, std::string dialog_id) {
  auto read = [&]() -> rest_response {
    auto row = find_dialog(context, request, dialog_id);
    if (!row) return error_response(row.err());
    const auto course = query_integer(request, "course", row->course, 1, row->course);
    if (!course) return field_error(course.err());
    const auto limit = query_integer(request, "limit", 200, 1, kMaxPage);
    if (!limit) return field_error(limit.err());
    const auto offset = query_integer(request, "offset", 0, 0, INT64_MAX);
    if (!offset) return field_error(offset.err());
    auto messages = read_dialog_messages(context.log, dialog_id, *course);
    if (!messages) return error_response(messages.err());
    const auto total = static_cast<std::int64_t>(messages->size());
    boost::json::array page;
    for (auto i = *offset; i < total && i < *offset + *limit; ++i) {
      page.push_back(message_json((*messages)[static_cast<std::size_t>(i)]));
    }
    return json_response(
        200, boost::json::object{
                 {"course", *course}, {"courses", row->course}, {"messages", std::move(page)}, {"total", total}});
  };
  co_return co_await read_reply(context, std::move(read));
}

}  // namespace parley::server::rest
