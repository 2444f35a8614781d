#include "parley/server/pair_dialogue.hpp"

#include <utility>

#include "parley/core/ids.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/server/records_write_support.hpp"
#include "parley/store/root_listing.hpp"

namespace parley::server {
namespace {

// Pages of roots read while looking for the pair's dialog; the member filter keeps them few.
constexpr std::int64_t kPairSearchPage = 200;

bool is_pair_of(const dialog_row& row, const std::string& user, const std::string& member) {
  return row.kind == events::dialog_kind::root && row.member_id == member && row.members.empty() &&
         row.humans.size() == 1 && row.humans.front() == user && !row.call_kind.has_value();
}

}  // namespace

result<void> check_reuse(const create_dialog_request& body, bool flow_member) {
  if (!body.reuse) return ok();
  if (body.dialogue_type() != events::dialogue_type::human_ai) {
    return make_error(errc::invalid_argument, "reuse: only a human_ai dialog is one per human and AI, not a " +
                                                  std::string(events::to_wire(body.dialogue_type())));
  }
  if (!body.task_doc_path.empty()) {
    return make_error(errc::invalid_argument, "reuse: a dialog with a taskDocPath is a task of its own, never reused");
  }
  if (flow_member) {
    return make_error(errc::invalid_argument, "reuse: a flow member's dialogs are runs of their own, never reused");
  }
  return ok();
}

result<std::optional<dialog_row>> find_pair_dialog(server_context& context, const std::string& user,
                                                   const std::string& member) {
  root_listing listing;
  listing.status = events::dialog_status::running;
  listing.member_id = member;
  listing.limit = kPairSearchPage;
  if (context.users.multi_user()) listing.viewer = root_viewer{user, false};
  for (;;) {
    auto page = context.log.list_roots(listing);
    if (!page) return std::move(page).err();
    for (auto& row : page->rows) {
      if (is_pair_of(row, user, member)) return std::optional<dialog_row>(std::move(row));
    }
    if (!page->more || page->rows.empty()) return std::optional<dialog_row>();
    listing.after = page_key_of(page->rows.back());
  }
}

engine::session_opener reuse_session_opener(server_context& context, std::string dialog_id, std::string& opened_id) {
  return [&context, dialog_id = std::move(dialog_id), &opened_id]() -> result<std::vector<events::event_payload>> {
    using opening = std::vector<events::event_payload>;
    if (context.log.records() == nullptr) return opening();
    auto pending = pending_in(*context.log.records(), dialog_id);
    if (!pending) return std::move(pending).err();
    // A turn never spans two sessions: the message joins the current one.
    if (!records_rules::may_open_session(*pending)) return opening();
    events::record_session_opened opened;
    opened.session_id = new_uuid();
    opened.session_type = "dialogue";
    opened.created_by = "human";
    opened.metadata = boost::json::object{{"triggered_by", "human"}, {"opened_by", "reuse"}};
    opened_id = opened.session_id;
    opening staged;
    staged.emplace_back(std::move(opened));
    return staged;
  };
}

}  // namespace parley::server
