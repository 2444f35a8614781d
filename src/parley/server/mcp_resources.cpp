#include "parley/server/mcp_resources.hpp"

#include <boost/json/array.hpp>

#include <cctype>
#include <string>
#include <vector>

#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/model/events/wire.hpp"
#include "parley/server/dialog_cursor.hpp"
#include "parley/server/mcp_transcript.hpp"
#include "parley/server/rest_support.hpp"
#include "parley/server/store_reads.hpp"

namespace parley::server {

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

constexpr std::string_view kDialogUri = "parley://dialogs/";
constexpr std::string_view kQuestionUri = "parley://questions/";
constexpr std::string_view kDialogsCursor = "dialogs:";
constexpr std::int64_t kResourcePage = 50;
constexpr const char* kMarkdown = "text/markdown";

mcp::rpc_error params_error(std::string message) {
  return mcp::rpc_error{mcp::rpc_code::kInvalidParams, std::move(message), {}};
}

mcp::rpc_error resource_not_found(std::string_view uri) {
  return mcp::rpc_error{kMcpResourceNotFound, "resource not found: " + utf8_excerpt(uri, 200),
                        json::value(json::object{{"uri", utf8_excerpt(uri, 200)}})};
}

// Ids are ours ([0-9a-zA-Z_-]); anything else in a URI names nothing.
bool is_plain_id(std::string_view id) {
  if (id.empty() || id.size() > 128) return false;
  for (const char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

json::object described(std::string uri, std::string name, std::string title, std::string description,
                       std::string_view version) {
  json::object out{{"uri", std::move(uri)}, {"name", std::move(name)}, {"mimeType", kMarkdown}};
  if (mcp_version_has_structured_output(version) && !title.empty()) out["title"] = std::move(title);
  out["description"] = std::move(description);
  return out;
}

json::object dialog_resource(const dialog_row& row, std::string_view version) {
  std::string description = "Dialog with @" + row.member_id + " (" + std::string(events::to_wire(row.status)) + ", " +
                            std::to_string(row.message_count) + " messages)";
  if (!row.title.empty()) description += ": " + row.title;
  return described(std::string(kDialogUri) + row.id, "dialog " + row.id, row.title, std::move(description), version);
}

json::object question_resource(const engine::open_question& asked, std::string_view version) {
  const std::string headline =
      "@" + asked.dialog.member_id + " asks: " + utf8_excerpt(asked.question.mention_list, 120);
  return described(std::string(kQuestionUri) + asked.question.id, "question " + asked.question.id, headline,
                   headline + " (dialog " + asked.dialog.id + ")", version);
}

// The open questions `who` may see, oldest first.
asio::awaitable<result<std::vector<engine::open_question>>> visible_questions(server_context& context,
                                                                              const user& who) {
  auto open = co_await context.engine.questions().open_questions_async();
  if (!open || !context.users.multi_user()) co_return open;
  auto read = [&context, &who, all = std::move(*open)]() mutable {
    std::vector<engine::open_question> out;
    for (auto& asked : all) {
      if (may_see(context, &who, asked.dialog)) out.push_back(std::move(asked));
    }
    return out;
  };
  co_return co_await read_store(context, std::move(read));
}

}  // namespace

asio::awaitable<resource_answer> list_resources(server_context& context, const user& who, const json::object& params,
                                                std::string_view version) {
  json_fields in(params, "params");
  const auto cursor = in.optional_string("cursor");
  for (const auto& member : params) {
    if (member.key() != "cursor") in.fail(member.key(), "unknown member of resources/list");
  }
  if (!in.ok()) co_return params_error(in.message());
  root_listing listing;
  listing.limit = kResourcePage;
  if (context.users.multi_user()) listing.viewer = root_viewer{who.id, who.sees_unowned};
  if (cursor) {
    const bool ours = cursor->rfind(kDialogsCursor, 0) == 0;
    auto key = parse_cursor(std::string_view(*cursor).substr(ours ? kDialogsCursor.size() : 0));
    if (!ours || !key) co_return params_error("params.cursor: not a cursor this server gave");
    listing.after = std::move(*key);
  }
  json::array resources;
  if (!cursor) {
    auto questions = co_await visible_questions(context, who);
    if (!questions) co_return mcp::rpc_error{mcp::rpc_code::kInternalError, questions.err().message, {}};
    for (const auto& asked : *questions) resources.push_back(question_resource(asked, version));
  }
  auto read = [&log = context.log, &listing] { return log.list_roots(listing); };
  auto page = co_await read_store(context, std::move(read));
  if (!page) co_return mcp::rpc_error{mcp::rpc_code::kInternalError, page.err().message, {}};
  for (const auto& row : page->rows) resources.push_back(dialog_resource(row, version));
  json::object out{{"resources", std::move(resources)}};
  if (page->more && !page->rows.empty()) {
    out["nextCursor"] = std::string(kDialogsCursor) + cursor_text(page_key_of(page->rows.back()));
  }
  co_return out;
}

namespace {

asio::awaitable<resource_answer> read_dialog_resource(server_context& context, const user& who, std::string uri,
                                                      std::string id) {
  auto read = [&context, &who, &id]() -> result<std::string> {
    auto row = load_dialog(context.log, id);
    if (!row) return std::move(row).err();
    if (!may_see(context, &who, *row)) return make_error(errc::not_found, "not theirs");
    auto messages = context.log.messages(id, row->course);
    if (!messages) return std::move(messages).err();
    return dialog_markdown(*row, *messages);
  };
  auto text = co_await read_store(context, std::move(read));
  if (!text) {
    if (text.err().code == errc::not_found) co_return resource_not_found(uri);
    co_return mcp::rpc_error{mcp::rpc_code::kInternalError, text.err().message, {}};
  }
  json::array contents{json::object{{"uri", std::move(uri)}, {"mimeType", kMarkdown}, {"text", std::move(*text)}}};
  co_return json::object{{"contents", std::move(contents)}};
}

asio::awaitable<resource_answer> read_question_resource(server_context& context, const user& who, std::string uri,
                                                        std::string id) {
  auto questions = co_await visible_questions(context, who);
  if (!questions) co_return mcp::rpc_error{mcp::rpc_code::kInternalError, questions.err().message, {}};
  for (const auto& asked : *questions) {
    if (asked.question.id != id) continue;
    json::array contents{
        json::object{{"uri", std::move(uri)}, {"mimeType", kMarkdown}, {"text", question_markdown(asked)}}};
    co_return json::object{{"contents", std::move(contents)}};
  }
  co_return resource_not_found(uri);
}

}  // namespace

asio::awaitable<resource_answer> read_resource(server_context& context, const user& who, const json::object& params,
                                               std::string_view /*version*/) {
  json_fields in(params, "params");
  std::string uri = in.string("uri");
  for (const auto& member : params) {
    if (member.key() != "uri") in.fail(member.key(), "unknown member of resources/read");
  }
  if (!in.ok()) co_return params_error(in.message());
  const std::string_view text(uri);
  if (text.rfind(kDialogUri, 0) == 0 && is_plain_id(text.substr(kDialogUri.size()))) {
    std::string id(text.substr(kDialogUri.size()));
    co_return co_await read_dialog_resource(context, who, std::move(uri), std::move(id));
  }
  if (text.rfind(kQuestionUri, 0) == 0 && is_plain_id(text.substr(kQuestionUri.size()))) {
    std::string id(text.substr(kQuestionUri.size()));
    co_return co_await read_question_resource(context, who, std::move(uri), std::move(id));
  }
  co_return resource_not_found(uri);
}

json::object resource_templates(std::string_view version) {
  json::object dialog{{"uriTemplate", std::string(kDialogUri) + "{dialog_id}"},
                      {"name", "dialog"},
                      {"mimeType", kMarkdown},
                      {"description", "A dialog of the team (a root or a subdialog) as Markdown: its current course."}};
  if (mcp_version_has_structured_output(version)) dialog["title"] = "Parley dialog";
  return json::object{{"resourceTemplates", json::array{std::move(dialog)}}};
}

}  // namespace parley::server
