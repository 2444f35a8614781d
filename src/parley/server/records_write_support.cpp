#include "parley/server/records_write_support.hpp"

#include "parley/server/rest_support.hpp"

namespace parley::server {

rest_response no_records() { return error_response(500, "internal", "this store keeps no conversation records"); }

rest_response refused(const error& err) {
  return err.code == errc::invalid_argument ? field_error(err) : error_response(err);
}

result<record_dialogue> visible_dialogue_of(server_context& context, const rest_request& request,
                                            records_query& records, std::string_view dialogue_id, std::string_view what,
                                            std::string_view asked) {
  auto dialogue = existing(records.dialogue(dialogue_id), "dialogue", dialogue_id);
  if (dialogue && !may_see_dialog_id(context, request, dialogue->dialog_id)) {
    return make_error(errc::not_found, "no " + std::string(what) + " with id '" + std::string(asked) + "'");
  }
  return dialogue;
}

result<std::optional<records_rules::open_turn>> pending_in(records_query& records, std::string_view dialog_id) {
  auto pending = records.pending_turn_of(dialog_id);
  if (!pending) return std::move(pending).err();
  if (!*pending) return std::optional<records_rules::open_turn>{};
  return std::optional<records_rules::open_turn>{
      records_rules::open_turn{(*pending)->turn_id, (*pending)->deadline_ms}};
}

boost::asio::awaitable<result<void>> append_write(server_context& context, std::string dialog_id,
                                                  events::event_payload write, std::function<result<void>()> check) {
  co_return co_await context.engine.records().append_record_write(std::move(dialog_id), std::move(write),
                                                                  std::move(check));
}

}  // namespace parley::server
