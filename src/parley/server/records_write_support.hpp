// What the records write routes share (rest_records_write.cpp, rest_records_reflection.cpp): rows
// that must exist, the dialogue a request may see, and the one way a write reaches the log —
// appended under the dialog's lock once its check allows it. Internal to the server module.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/events/event_payload.hpp"
#include "parley/model/records_write_rules.hpp"
#include "parley/server/rest_router.hpp"
#include "parley/server/server_context.hpp"
#include "parley/store/records_query.hpp"

namespace parley::server {

// 500: the store keeps no conversation records (the in-memory store).
rest_response no_records();
// A refused write: a field problem is 400 bad_field, anything else by its code.
rest_response refused(const error& err);

template <class Row>
result<Row> existing(result<std::optional<Row>> row, std::string_view what, std::string_view id) {
  if (!row) return std::move(row).err();
  if (!*row) return make_error(errc::not_found, "no " + std::string(what) + " with id '" + std::string(id) + "'");
  return std::move(**row);
}

// The dialogue of a record the request names (`what` `asked`): another user's is answered as if
// the record did not exist.
result<record_dialogue> visible_dialogue_of(server_context& context, const rest_request& request,
                                            records_query& records, std::string_view dialogue_id, std::string_view what,
                                            std::string_view asked);

// The dialogue's open turn, as the write rules see it.
result<std::optional<records_rules::open_turn>> pending_in(records_query& records, std::string_view dialog_id);

// Appends the write to the dialog's log once `check` allows it. Callers pass a named
// `event_payload` (std::move of a local), never a temporary built inside the co_await expression:
// g++ 12 mishandles such temporaries (see engine/log_writer.cpp), and a `record_memory_link{...}`
// written inline here had its strings freed while the store's writer thread still projected the
// event — the intermittent failure of RecordsViewsRest.ASelfReflectionSession... (valgrind showed
// the read after free in apply_records).
boost::asio::awaitable<result<void>> append_write(server_context& context, std::string dialog_id,
                                                  events::event_payload write, std::function<result<void>()> check);

}  // namespace parley::server
