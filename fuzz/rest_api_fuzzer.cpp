// Every REST route's request handling (server/rest_router.hpp) against a real engine, a SQLite
// store and the scripted model, without sockets. An input is a request written like HTTP:
//
//   POST /api/dialogs/{dialog}/messages?x=1
//   Idempotency-Key: k1
//
//   {"content": "hello"}
//
// Only what Beast's parser lets through is used. The target is percent-decoded and the query split
// as http_server does; {dialog}, {dialogue},
// {session}, {turn}, {message}, {question} and {upload} in the target or body stand for things
// made at start-up. Content-Type is application/json unless a header says otherwise.
//  - No request makes a 500: a body, a path or a header a client chose is never an internal error.
//  - The status is one the API documents; the body is JSON text can carry (it goes to the client
//    as is); an error is {"error": {"code", "message"}}; only an upload is sent raw.
//  - No request makes the engine write an event the log refuses: every batch is checked with
//    check_appendable before the store sees it, and every append must succeed.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <optional>
#include <string>

#include "fuzz_support.hpp"
#include "parley/config/team.hpp"
#include "parley/core/json.hpp"
#include "parley/core/json_check.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/http/request_target.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/rest_router.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/static_files.hpp"
#include "parley/server/uploads.hpp"
#include "parley/server/users.hpp"
#include "parley/store/append_check.hpp"
#include "parley/store/store.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;
namespace asio = boost::asio;

// The SQLite store, with every batch checked as it goes in and every append required to succeed.
class checking_store final : public store {
 public:
  explicit checking_store(std::unique_ptr<store> inner) : inner_(std::move(inner)) {}

  void append(std::vector<event> batch, append_callback on_durable) override {
    check(batch);
    inner_->append(std::move(batch), must_succeed(std::move(on_durable)));
  }
  void append_deferred(std::vector<event> batch, append_callback on_durable) override {
    check(batch);
    inner_->append_deferred(std::move(batch), must_succeed(std::move(on_durable)));
  }
  void flush() override { inner_->flush(); }
  result<std::vector<event>> read_events(std::string_view dialog_id, std::int64_t after_seq) override {
    return inner_->read_events(dialog_id, after_seq);
  }
  result<std::vector<event>> read_all_events() override { return inner_->read_all_events(); }
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override {
    return inner_->list_dialogs(filter);
  }
  result<std::optional<dialog_row>> get_dialog(std::string_view dialog_id) override {
    return inner_->get_dialog(dialog_id);
  }
  result<std::vector<message_row>> messages(std::string_view dialog_id, std::int64_t course) override {
    return inner_->messages(dialog_id, course);
  }
  result<void> rebuild_projections() override { return inner_->rebuild_projections(); }
  store_stats stats() const override { return inner_->stats(); }
  result<std::vector<damaged_event>> damaged_events() override { return inner_->damaged_events(); }
  result<std::optional<input_record>> find_input(std::string_view msg_id) override {
    return inner_->find_input(msg_id);
  }
  std::string health_problem() const override { return inner_->health_problem(); }
  records_query* records() noexcept override { return inner_->records(); }

 private:
  static void check(const std::vector<event>& batch) {
    if (auto appendable = check_appendable(batch); !appendable) {
      FUZZ_CHECK(false, "the engine wrote an event the log refuses: " + appendable.err().message);
    }
  }
  static append_callback must_succeed(append_callback on_durable) {
    return [next = std::move(on_durable)](result<void> done) {
      FUZZ_CHECK(done.has_value(), "an append failed: " + (done ? std::string() : done.err().message));
      if (next) next(std::move(done));
    };
  }

  std::unique_ptr<store> inner_;
};

constexpr const char* kTeam = R"(version: 1
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead.", provider: offline, model: m, toolsets: [basic]}
  helper: {persona: "You help.", provider: offline, model: m}
)";

// Asks the human when told to (once: the answer is a tool result); answers everything else at once.
constexpr const char* kScript = R"(members:
  "*":
    - when: {last_tool_regex: "."}
      emit: [{saying: "thanks"}]
    - when: {last_user: "ask me"}
      emit:
        - tool_call: {name: askHuman, arguments: {tellaskContent: "Which one?"}}
    - emit: [{saying: "ok"}]
)";

struct world {
  fuzz::temp_dir dir{"parley-fuzz-rest"};
  asio::io_context io{1};
  asio::executor_work_guard<asio::io_context::executor_type> keep{io.get_executor()};
  std::unique_ptr<store> log;
  std::unique_ptr<engine::engine> eng;
  server::server_options options;
  std::unique_ptr<server::pubchan> channels;
  server::user_directory users;
  std::unique_ptr<server::upload_store> uploads;
  std::unique_ptr<server::server_context> context;
  std::map<std::string, std::string, std::less<>> ids;  // "{dialog}" → the id

  world() {
    fuzz::write_file(dir.path() / "team.yaml", kTeam);
    fuzz::write_file(dir.path() / "script.yaml", kScript);
    auto team = config::load_team_file(dir.path() / "team.yaml");
    if (!team) die("team: " + team.err().message);
    sqlite_options durability;
    durability.durable = false;
    auto opened = open_sqlite_store((dir.path() / "data").string(), durability);
    if (!opened) die("store: " + opened.err().message);
    log = std::make_unique<checking_store>(std::move(*opened));
    auto providers = engine::build_providers(*team);
    if (!providers) die("providers: " + providers.err().message);
    auto created =
        engine::engine::create(io.get_executor(), *log, *team, std::move(*providers), engine::build_builtin_tools());
    if (!created) die("engine: " + created.err().message);
    eng = std::move(*created);
    eng->dialogs().set_limit(64);
    uploads = std::make_unique<server::upload_store>(dir.path() / "uploads");
    eng->members().set_attachment_reader([this](std::string_view id) { return uploads->read_bytes(id); });
    channels = std::make_unique<server::pubchan>(*eng, *log, options);
    context = std::make_unique<server::server_context>(
        server::server_context{*eng, *log, options, *channels, users, true, "fuzz", uploads.get()});
    make_things();
  }

  // Drives still going end first (the scripted model answers at once), so nothing runs against the
  // engine and the store as they go. Should something wait for good, the process leaves without
  // tearing down rather than hang the run (this only happens at exit, after the last input).
  ~world() {
    keep.reset();
    io.run_for(std::chrono::seconds(20));
    if (!io.stopped()) std::_Exit(0);
    log->flush();
  }
  world(const world&) = delete;
  world& operator=(const world&) = delete;

  [[noreturn]] static void die(const std::string& why) {
    std::fprintf(stderr, "rest_api_fuzzer: setup failed: %s\n", why.c_str());
    std::abort();
  }

  server::rest_response run(server::rest_request request) {
    std::optional<server::rest_response> answer;
    asio::co_spawn(io, server::handle_rest_request(*context, std::move(request)),
                   [&](std::exception_ptr failure, server::rest_response response) {
                     if (failure) std::rethrow_exception(failure);
                     answer = std::move(response);
                   });
    while (!answer) io.run_one();
    // Let the drives the request started go on (they finish on later inputs or here).
    io.poll();
    // A view read off the loop comes serialized already (store_reads.hpp `read_reply`): read back
    // what a client would get, so the checks below see it. Text that is not JSON is a finding.
    if (!answer->serialized_body.empty()) {
      boost::system::error_code ec;
      answer->body = boost::json::parse(answer->serialized_body, ec);
      FUZZ_CHECK(!ec, "a serialized reply that is not JSON (" + ec.message() + "): " + answer->serialized_body);
    }
    return std::move(*answer);
  }

  server::rest_response call(std::string method, std::string path, std::string body = {}) {
    server::rest_request request;
    request.method = std::move(method);
    auto target = parley::http::parse_request_target(path);
    if (!target) die("a set-up request's target: " + target.err().message);
    request.path = std::move(target->path);
    request.segments = std::move(target->segments);
    request.body = std::move(body);
    request.content_type = "application/json";
    return run(std::move(request));
  }

  void settle() {
    log->flush();
    for (int i = 0; i < 100; ++i) io.poll();
  }

  // Returns body[a][b] as a string, or dies naming the response.
  static std::string field(const server::rest_response& response, std::string_view a, std::string_view b) {
    const auto* outer = response.body.is_object() ? json_object_at(response.body.get_object(), a) : nullptr;
    const std::string id = outer != nullptr ? json_string_or(*outer, b) : std::string();
    if (id.empty()) die(std::string(a) + "." + std::string(b) + " not in " + boost::json::serialize(response.body));
    return id;
  }

  // A dialog with an open question; another, answered, with records of its own (a session, a
  // turn, a message); an upload.
  void make_things() {
    const auto asking = call("POST", "/api/dialogs", R"({"content": "please ask me", "memberId": "lead"})");
    ids["{dialog}"] = field(asking, "dialog", "id");
    const auto answered = call("POST", "/api/dialogs", R"({"content": "hello", "memberId": "helper"})");
    const std::string answered_id = field(answered, "dialog", "id");
    settle();
    const auto questions = call("GET", "/api/questions");
    const auto* list = questions.body.is_object() ? json_array_at(questions.body.get_object(), "questions") : nullptr;
    if (list == nullptr || list->empty() || !list->front().is_object()) {
      die("no open question: " + boost::json::serialize(questions.body));
    }
    ids["{question}"] = json_string_or(list->front().get_object(), "id");
    const auto dialogues = call("GET", "/api/humans/operator/dialogues");
    const auto* rows = dialogues.body.is_object() ? json_array_at(dialogues.body.get_object(), "dialogues") : nullptr;
    for (const auto& row : rows != nullptr ? *rows : json::array{}) {
      if (row.is_object() && json_string_or(row.get_object(), "dialog_id") == answered_id) {
        ids["{dialogue}"] = json_string_or(row.get_object(), "id");
      }
    }
    if (ids["{dialogue}"].empty())
      die("no dialogue for " + answered_id + ": " + boost::json::serialize(dialogues.body));
    const auto session = call("POST", "/api/sessions", R"({"dialogue_id": ")" + ids["{dialogue}"] + R"("})");
    ids["{session}"] = field(session, "session", "id");
    const auto turn =
        call("POST", "/api/turns",
             R"({"session_id": ")" + ids["{session}"] + R"(", "initiator_role": "human", "responder_role": "ai"})");
    ids["{turn}"] = field(turn, "turn", "id");
    const auto message = call("POST", "/api/messages",
                              R"({"turn_id": ")" + ids["{turn}"] + R"(", "sender_role": "human", "content": "hi"})");
    ids["{message}"] = field(message, "message", "id");
    server::rest_request upload;
    upload.method = "POST";
    upload.path = "/api/uploads";
    upload.segments = {"api", "uploads"};
    upload.content_type = "image/png";
    upload.body = std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\1\0\0\0\1\x08\x06\0\0\0\x1f\x15\xc4\x89", 33);
    const auto uploaded = run(std::move(upload));
    ids["{upload}"] = field(uploaded, "upload", "id");
    settle();
  }

  std::string with_ids(std::string text) const {
    for (const auto& [name, id] : ids) {
      for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + id.size())) {
        text.replace(at, name.size(), id);
      }
    }
    return text;
  }
};

std::optional<server::rest_request> read_request(const world& w, std::string_view input) {
  server::rest_request request;
  const auto line_end = input.find('\n');
  std::string_view line = input.substr(0, line_end);
  input = line_end == std::string_view::npos ? std::string_view{} : input.substr(line_end + 1);
  const auto space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  request.method = std::string(line.substr(0, space));
  const std::string target = w.with_ids(std::string(line.substr(space + 1)));
  // What Beast's parser lets through: no control characters or spaces in the target (obs-text is
  // fine), none but tab in a header value.
  const auto control = [](char c, bool tab_ok) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && !(tab_ok && c == '\t')) || byte == 0x7F;
  };
  if (std::any_of(target.begin(), target.end(), [&](char c) { return c == ' ' || control(c, false); })) {
    return std::nullopt;
  }
  // As http_server reads it (http/request_target.hpp); a target it refuses never reaches the routes.
  auto parsed = parley::http::parse_request_target(target);
  if (!parsed) {
    FUZZ_CHECK(parsed.err().code == errc::invalid_argument, parsed.err().message);
    return std::nullopt;
  }
  request.path = std::move(parsed->path);
  request.segments = std::move(parsed->segments);
  request.query = std::move(parsed->query);
  request.content_type = "application/json";
  while (!input.empty()) {
    const auto end = input.find('\n');
    line = input.substr(0, end);
    input = end == std::string_view::npos ? std::string_view{} : input.substr(end + 1);
    if (line.empty()) break;
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t' || value.back() == '\r')) {
      value.remove_suffix(1);
    }
    if (std::any_of(value.begin(), value.end(), [&](char c) { return control(c, true); })) return std::nullopt;
    const std::string_view name = line.substr(0, colon);
    if (name == "Idempotency-Key") request.idempotency_key = std::string(value);
    if (name == "Content-Type") request.content_type = std::string(value);
    if (name == "Authorization") request.authorization = std::string(value);
  }
  request.body = w.with_ids(std::string(input));
  return request;
}

void check_response(const server::rest_response& response, const std::string& what) {
  const std::string body = boost::json::serialize(response.body);
  FUZZ_CHECK(response.status != 500, what + " → 500 " + body);
  static constexpr unsigned kDocumented[] = {200, 201, 202, 400, 401, 404, 405, 409, 413, 415};
  FUZZ_CHECK(std::find(std::begin(kDocumented), std::end(kDocumented), response.status) != std::end(kDocumented),
             what + " → status " + std::to_string(response.status));
  if (!response.raw_content_type.empty()) {
    FUZZ_CHECK(response.status == 200, what + ": a raw body with status " + std::to_string(response.status));
    return;
  }
  if (auto problem = find_unwritable_json(response.body, "body")) {
    FUZZ_CHECK(false, what + ": the response cannot be sent as JSON: " + problem->message());
  }
  FUZZ_CHECK(response.body.is_object(), what + ": the body is not an object: " + body);
  if (response.status >= 400) {
    const auto* error = json_object_at(response.body.get_object(), "error");
    FUZZ_CHECK(error != nullptr && !json_string_or(*error, "code").empty() && error->contains("message") &&
                   error->at("message").is_string(),
               what + ": an error without code and message: " + body);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static world w;
  auto request = read_request(w, as_text(data, size));
  if (!request) return 0;
  const std::string what = request->method + " " + request->path;
  check_response(w.run(std::move(*request)), what);
  return 0;
}
