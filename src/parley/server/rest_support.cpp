#include "parley/server/rest_support.hpp"

#include <algorithm>
#include <charconv>

#include "parley/core/ids.hpp"
#include "parley/core/json_check.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/server/json_views.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/server/uploads.hpp"

namespace parley::server {

rest_response error_response(unsigned status, std::string_view code, std::string message) {
  // Messages quote what the client sent (an id from the path, a header), which is any bytes once
  // percent-decoded; the body is JSON text, which must be UTF-8 for the client to read it.
  if (!is_valid_utf8(message)) message = repair_utf8(message).text;
  boost::json::object inner{{"code", code}, {"message", std::move(message)}};
  return rest_response{status, boost::json::object{{"error", std::move(inner)}}, {}};
}

rest_response error_response(const error& err) {
  switch (err.code) {
    case errc::invalid_argument:
    case errc::config_error:
    case errc::limit_exceeded:
      return error_response(400, "bad_request", err.message);
    case errc::not_found:
      return error_response(404, "not_found", err.message);
    case errc::conflict:
      return error_response(409, "conflict", err.message);
    case errc::storage_full:
      return error_response(507, "storage_full", err.message);
    case errc::unavailable: {
      auto refused = error_response(503, "unavailable", err.message);
      refused.retry_after_seconds = kStoreRetryAfterSeconds;
      return refused;
    }
    default:
      return error_response(500, "internal", err.message);
  }
}

rest_response field_error(const error& err) { return error_response(400, "bad_field", err.message); }

rest_response json_response(unsigned status, boost::json::object body) {
  return rest_response{status, std::move(body), {}};
}

std::optional<boost::json::object> parse_body_object(const std::string& body, bool empty_is_object,
                                                     rest_response& failure) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) {
    if (empty_is_object) return boost::json::object{};
    failure = error_response(400, "bad_json", "body: expected a JSON object, got an empty body");
    return std::nullopt;
  }
  auto parsed = parse_json(body);
  if (!parsed) {
    failure = error_response(400, "bad_json", "body: not valid JSON: " + parsed.err().message);
    return std::nullopt;
  }
  if (!parsed->is_object()) {
    failure =
        error_response(400, "bad_request", std::string("body: expected a JSON object, got ") + json_kind_name(*parsed));
    return std::nullopt;
  }
  // A number past double's range parses as infinity, which JSON text cannot carry back: refused
  // here, naming the field, so that nothing unreadable reaches the log.
  if (auto problem = find_unwritable_json(parsed->as_object())) {
    failure = error_response(400, "bad_field", problem->message());
    return std::nullopt;
  }
  return std::move(parsed->as_object());
}

result<std::string> required_text(const boost::json::object& body, std::string_view key) {
  const auto* value = body.if_contains(key);
  if (value == nullptr) return make_error(errc::invalid_argument, std::string(key) + ": required, a non-empty string");
  if (!value->is_string() || value->as_string().empty()) {
    return make_error(errc::invalid_argument,
                      std::string(key) + ": expected a non-empty string" +
                          (value->is_string() ? "" : std::string(", got ") + json_kind_name(*value)));
  }
  return std::string(value->as_string());
}

std::string joined(std::span<const std::string_view> values) {
  std::string out;
  for (const auto value : values) out += (out.empty() ? "" : ", ") + std::string(value);
  return out;
}

result<void> only_fields(const boost::json::object& body, std::span<const std::string_view> allowed) {
  for (const auto& field : body) {
    if (std::find(allowed.begin(), allowed.end(), field.key()) == allowed.end()) {
      return make_error(errc::invalid_argument,
                        std::string(field.key()) + ": unknown field; expected one of " + joined(allowed));
    }
  }
  return ok();
}

result<std::string> optional_text(const boost::json::object& body, std::string_view key) {
  const auto* value = body.if_contains(key);
  if (value == nullptr || value->is_null()) return std::string{};
  if (!value->is_string()) {
    return make_error(errc::invalid_argument, std::string(key) + ": expected a string, got " + json_kind_name(*value));
  }
  return std::string(value->as_string());
}

result<std::vector<std::string>> optional_text_list(const boost::json::object& body, std::string_view key) {
  std::vector<std::string> out;
  const auto* value = body.if_contains(key);
  if (value == nullptr || value->is_null()) return out;
  if (!value->is_array()) {
    return make_error(errc::invalid_argument,
                      std::string(key) + ": expected an array of strings, got " + json_kind_name(*value));
  }
  for (std::size_t i = 0; i < value->get_array().size(); ++i) {
    const auto& item = value->get_array()[i];
    if (!item.is_string()) {
      return make_error(errc::invalid_argument, std::string(key) + "[" + std::to_string(i) +
                                                    "]: expected a string, got " + json_kind_name(item));
    }
    out.emplace_back(item.get_string());
  }
  return out;
}

result<std::int64_t> query_integer(const rest_request& request, std::string_view key, std::int64_t fallback,
                                   std::int64_t min, std::int64_t max) {
  const auto found = request.query.find(key);
  if (found == request.query.end()) return fallback;
  const auto& text = found->second;
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < min || value > max) {
    return make_error(errc::invalid_argument, std::string(key) + ": expected an integer " + std::to_string(min) + ".." +
                                                  std::to_string(max) + ", got '" + text + "'");
  }
  return value;
}

result<dialog_row> load_dialog(store& log, std::string_view dialog_id) {
  auto row = log.get_dialog(dialog_id);
  if (!row) return std::move(row).err();
  if (!*row) return make_error(errc::not_found, "no dialog with id '" + std::string(dialog_id) + "'");
  return std::move(**row);
}

bool may_see(server_context& context, const user* who, const dialog_row& row) {
  if (!context.users.multi_user()) return true;
  if (who == nullptr) return false;
  if (row.parent_id.empty()) return context.users.may_see(*who, row);
  auto root = context.log.get_dialog(row.root_id);
  return root && *root && context.users.may_see(*who, **root);
}

bool may_see_dialog_id(server_context& context, const rest_request& request, std::string_view dialog_id) {
  if (!context.users.multi_user()) return true;
  auto row = context.log.get_dialog(dialog_id);
  return row && *row && may_see(context, request.who, **row);
}

bool may_see_dialogue(server_context& context, const rest_request& request, std::string_view dialogue_id) {
  if (!context.users.multi_user()) return true;
  auto* records = context.log.records();
  if (records == nullptr) return false;
  auto dialogue = records->dialogue(dialogue_id);
  return dialogue && *dialogue && may_see_dialog_id(context, request, (*dialogue)->dialog_id);
}

result<dialog_row> find_dialog(server_context& context, const rest_request& request, std::string_view dialog_id) {
  auto row = load_dialog(context.log, dialog_id);
  if (!row) return row;
  // The same answer as for an unknown id: another user's dialog does not exist for this one.
  if (!may_see(context, request.who, *row)) {
    return make_error(errc::not_found, "no dialog with id '" + std::string(dialog_id) + "'");
  }
  return row;
}

bool has_children(store& log, const dialog_row& row) {
  dialog_filter filter;
  filter.root_id = row.root_id;
  auto tree = log.list_dialogs(filter);
  if (!tree) return false;
  for (const auto& other : *tree) {
    if (other.parent_id == row.id) return true;
  }
  return false;
}

boost::json::object summary_of(store& log, const dialog_row& row) {
  return dialog_summary_json(row, has_children(log, row));
}

boost::asio::awaitable<result<dialog_row>> read_dialog(server_context& context, const rest_request& request,
                                                       std::string dialog_id) {
  auto read = [&context, &request, id = std::move(dialog_id)] { return find_dialog(context, request, id); };
  co_return co_await read_store(context, std::move(read));
}

boost::asio::awaitable<boost::json::object> read_summary(server_context& context, dialog_row row) {
  auto read = [&log = context.log, row = std::move(row)] { return summary_of(log, row); };
  co_return co_await read_store(context, std::move(read));
}

boost::asio::awaitable<std::vector<std::string>> read_visible_ids(server_context& context, const rest_request& request,
                                                                  std::vector<dialog_row> rows) {
  if (!context.users.multi_user()) {
    std::vector<std::string> all;
    all.reserve(rows.size());
    for (auto& row : rows) all.push_back(std::move(row.id));
    co_return all;
  }
  auto read = [&context, &request, rows = std::move(rows)] {
    std::vector<std::string> visible;
    for (const auto& row : rows) {
      if (may_see(context, request.who, row)) visible.push_back(row.id);
    }
    return visible;
  };
  co_return co_await read_store(context, std::move(read));
}

boost::asio::awaitable<result<boost::json::object>> read_dialog_summary(server_context& context,
                                                                        const rest_request& request,
                                                                        std::string dialog_id) {
  auto read = [&context, &request, id = std::move(dialog_id)]() -> result<boost::json::object> {
    auto row = find_dialog(context, request, id);
    if (!row) return std::move(row).err();
    return summary_of(context.log, *row);
  };
  co_return co_await read_store(context, std::move(read));
}

std::string new_message_id() { return new_uuid(); }

namespace {
constexpr std::size_t kMaxMessageIdBytes = 200;  // a UUID is 36; room for a client's own scheme
}  // namespace

result<user_input> read_user_input(const engine::engine& eng, const boost::json::object& body,
                                   std::string_view idempotency_key) {
  const bool with_attachment = body.contains("attachment");
  auto content = with_attachment ? optional_text(body, "content") : required_text(body, "content");
  if (!content) return std::move(content).err();
  auto msg_id = optional_text(body, "msgId");
  if (!msg_id) return std::move(msg_id).err();
  return to_user_input(eng, std::move(*content), std::move(*msg_id), with_attachment, idempotency_key);
}

result<user_input> to_user_input(const engine::engine& eng, const std::optional<std::string>& given_content,
                                 std::string given_msg_id, bool with_attachment, std::string_view idempotency_key) {
  if (!given_content && !with_attachment) {
    return make_error(errc::invalid_argument, "content: required, a non-empty string");
  }
  if (given_content && given_content->empty() && !with_attachment) {
    return make_error(errc::invalid_argument, "content: expected a non-empty string");
  }
  auto content = std::optional<std::string>(given_content.value_or(""));
  if (auto valid = eng.inputs().check_user_message(*content, with_attachment); !valid) {
    return make_error(errc::invalid_argument, "content: " + valid.err().message);
  }
  auto msg_id = std::optional<std::string>(std::move(given_msg_id));
  if (msg_id->empty()) {
    // A header is any bytes; the id goes into the log (user_message.msgId), which takes only
    // UTF-8. Refused rather than repaired: two keys must not become one id.
    if (auto bad = first_invalid_utf8(idempotency_key)) {
      return make_error(errc::invalid_argument,
                        "Idempotency-Key: " + describe_invalid_utf8(idempotency_key, *bad) + "; use UTF-8 text");
    }
    *msg_id = std::string(idempotency_key);
  }
  if (msg_id->size() > kMaxMessageIdBytes) {
    return make_error(errc::invalid_argument, "msgId: " + std::to_string(msg_id->size()) +
                                                  " bytes, over the limit of " + std::to_string(kMaxMessageIdBytes));
  }
  if (msg_id->empty()) return user_input{std::move(*content), new_message_id(), false, {}};
  return user_input{std::move(*content), std::move(*msg_id), true, {}};
}

result<boost::json::object> read_attachment(server_context& context, const rest_request& request,
                                            const boost::json::object& body) {
  const auto* value = body.if_contains("attachment");
  if (value == nullptr || value->is_null()) return boost::json::object{};
  if (!value->is_object()) {
    return make_error(errc::invalid_argument,
                      std::string("attachment: expected an object {uploadId, caption?, transcription?}, got ") +
                          json_kind_name(*value));
  }
  return read_attachment(context, request, std::optional<boost::json::object>(value->get_object()));
}

result<boost::json::object> read_attachment(server_context& context, const rest_request& request,
                                            const std::optional<boost::json::object>& attachment) {
  if (!attachment) return boost::json::object{};
  const auto& given = *attachment;
  for (const auto& field : given) {
    if (field.key() != "uploadId" && field.key() != "caption" && field.key() != "transcription") {
      return make_error(errc::invalid_argument, "attachment." + std::string(field.key()) +
                                                    ": unknown field (expected uploadId, caption, transcription)");
    }
  }
  auto upload_id = required_text(given, "uploadId");
  if (!upload_id) return make_error(errc::invalid_argument, "attachment." + upload_id.err().message);
  if (context.uploads == nullptr) return make_error(errc::invalid_argument, "attachment: this server keeps no uploads");
  auto info = context.uploads->find(*upload_id);
  // Only the uploader attaches their upload: another user's id is as unknown as a made-up one.
  if (!info || (context.users.multi_user() && info->owner != request.who->id)) {
    return make_error(errc::invalid_argument, "attachment.uploadId: no upload '" + *upload_id + "'");
  }
  boost::json::object out{
      {"uploadId", info->id},     {"url", upload_url(info->id)},  {"kind", to_name(info->media.kind)},
      {"mime", info->media.mime}, {"format", info->media.format}, {"sizeKb", (info->size_bytes + 1023) / 1024}};
  for (const auto* field : {"caption", "transcription"}) {
    auto text = optional_text(given, field);
    if (!text) return make_error(errc::invalid_argument, "attachment." + text.err().message);
    if (text->size() > 64 * 1024) {
      return make_error(errc::invalid_argument, "attachment." + std::string(field) + ": longer than 64 KiB");
    }
    if (!text->empty()) out[field] = std::move(*text);
  }
  return out;
}

result<void> share_attachment(server_context& context, const boost::json::object& attachment,
                              const std::string& root_id) {
  if (attachment.empty() || context.uploads == nullptr) return ok();
  // read_attachment made this object: uploadId is always a string.
  json_fields made(attachment, "attachment");
  const std::string upload_id = made.string("uploadId");
  PARLEY_TRY(made.status());
  return context.uploads->share_with_root(upload_id, root_id);
}

}  // namespace parley::server
