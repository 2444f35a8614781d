// Helpers every REST handler shares: error responses in the documented shape, reading and checking
// JSON bodies, fields and query parameters, and dialog lookups. Internal to the server module.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/model/records.hpp"
#include "parley/server/request_reader.hpp"
#include "parley/server/rest_router.hpp"

namespace parley::server {

// {"error": {"code", "message"}} with the given status.
rest_response error_response(unsigned status, std::string_view code, std::string message);
// Maps an engine or store error to its status: invalid input 400, unknown ids 404, state 409, else 500.
rest_response error_response(const error& err);
// A field problem: 400 bad_field.
rest_response field_error(const error& err);
rest_response json_response(unsigned status, boost::json::object body);

// Parses the body as a JSON object. An empty body counts as {} when `empty_is_object`. On failure
// fills `failure` with the 400 (bad_json for syntax, bad_request for a non-object) and returns nothing.
std::optional<boost::json::object> parse_body_object(const std::string& body, bool empty_is_object,
                                                     rest_response& failure);

// A typed request from the body (request_reader.hpp). On failure fills `failure` with the 400 —
// bad_json or bad_request for the body itself, bad_field naming the field — and returns nothing.
template <class T>
std::optional<T> read_body(const rest_request& request, bool empty_is_object, rest_response& failure,
                           unknown_fields unknown = unknown_fields::refuse) {
  auto body = parse_body_object(request.body, empty_is_object, failure);
  if (!body) return std::nullopt;
  auto typed = read_request<T>(*body, unknown);
  if (!typed) {
    failure = field_error(typed.err());
    return std::nullopt;
  }
  return std::move(typed).value();
}

// Fields of a request body. Messages name the field and what was expected.
result<std::string> required_text(const boost::json::object& body, std::string_view key);
result<std::string> optional_text(const boost::json::object& body, std::string_view key);
// "a, b, c"
std::string joined(std::span<const std::string_view> values);
// Every route refuses fields it does not know, naming the field and the ones it takes: a
// misspelt field is an error, never silently ignored.
result<void> only_fields(const boost::json::object& body, std::span<const std::string_view> allowed);
// An array of strings; empty when absent.
result<std::vector<std::string>> optional_text_list(const boost::json::object& body, std::string_view key);

// A query parameter that must be an integer in [min, max]; `fallback` when absent.
result<std::int64_t> query_integer(const rest_request& request, std::string_view key, std::int64_t fallback,
                                   std::int64_t min, std::int64_t max);

// The lookups below read the store and so wait for its catch-up: a handler calls them inside
// `read_store` (store_reads.hpp), or awaits the read_* forms, which do.

// A dialog by id, without asking who wants it (for the server's own use).
result<dialog_row> load_dialog(store& log, std::string_view dialog_id);
// Whether `who` may see `row`: they take part in its root (users.hpp).
bool may_see(server_context& context, const user* who, const dialog_row& row);
// A dialog the requesting user may see; another user's is "not found", like an unknown id.
result<dialog_row> find_dialog(server_context& context, const rest_request& request, std::string_view dialog_id);
// Whether the requesting user may see the dialog a records `dialogue` row records.
bool may_see_dialog_id(server_context& context, const rest_request& request, std::string_view dialog_id);
// Same, from a record's dialogue_id (a UUID); false when the dialogue is unknown.
bool may_see_dialogue(server_context& context, const rest_request& request, std::string_view dialogue_id);
// Whether any dialog of the row's hierarchy has it as parent.
bool has_children(store& log, const dialog_row& row);
boost::json::object summary_of(store& log, const dialog_row& row);

// find_dialog, summary_of, and the two, read on the store's read thread while the loop serves.
boost::asio::awaitable<result<dialog_row>> read_dialog(server_context& context, const rest_request& request,
                                                       std::string dialog_id);
boost::asio::awaitable<boost::json::object> read_summary(server_context& context, dialog_row row);
// The ids of those of `rows` the requesting user may see (a subdialog's root is read for it), in
// their order; every one of them without a read when the server has one user.
boost::asio::awaitable<std::vector<std::string>> read_visible_ids(server_context& context, const rest_request& request,
                                                                  std::vector<dialog_row> rows);
boost::asio::awaitable<result<boost::json::object>> read_dialog_summary(server_context& context,
                                                                        const rest_request& request,
                                                                        std::string dialog_id);

// A fresh id for an input the client sent without msgId, so the response can name it.
std::string new_message_id();

// The user text of a request that drives a dialog: `content` (required, checked like any user
// message) and `msgId` (optional; a fresh id when absent).
struct user_input {
  std::string content;  // may be empty beside an attachment
  std::string msg_id;
  bool msg_id_from_client = false;  // a retry with it returns the first result (input_checks::dialog_of_retry)
  boost::json::object attachment;   // see read_attachment
};
// `msgId` in the body, else the Idempotency-Key header, names the message for retries; without
// either it gets a fresh id.
result<user_input> read_user_input(const engine::engine& eng, const boost::json::object& body,
                                   std::string_view idempotency_key = {});
// The same from fields a typed request already read: `content` (absent: nullopt) and `msgId`.
result<user_input> to_user_input(const engine::engine& eng, const std::optional<std::string>& content,
                                 std::string msg_id, bool with_attachment, std::string_view idempotency_key = {});
// `attachment: {uploadId, caption?, transcription?}`: an upload of the asking user, as the
// engine's user_message attachment (model/event.hpp); empty when the body has none.
result<boost::json::object> read_attachment(server_context& context, const rest_request& request,
                                            const boost::json::object& body);
// The same from the `attachment` object a typed request read (nullopt: none).
result<boost::json::object> read_attachment(server_context& context, const rest_request& request,
                                            const std::optional<boost::json::object>& attachment);
// Lets everyone who sees `root_id` read the attachment's upload (nothing when there is none).
result<void> share_attachment(server_context& context, const boost::json::object& attachment,
                              const std::string& root_id);

}  // namespace parley::server
