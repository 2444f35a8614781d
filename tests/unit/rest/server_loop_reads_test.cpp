// No store read of the server runs on the thread of its event loop (issue 20 item 3). A read of the
// SQLite store first waits for the writer to bring the projections up to the log — a commit and its
// fsync — and on the one thread that runs every dialog and socket that wait stalls every stream.
// Here a store that notes the thread of every read serves a real server (engine, PubChan, REST,
// WebSocket, turn windows); every route and WebSocket input that reads is driven over the network,
// and no read may have run on the thread that runs the io_context.
#include <gtest/gtest.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/server/http_server.hpp"
#include "parley/server/pubchan.hpp"
#include "parley/server/server_context.hpp"
#include "parley/server/server_options.hpp"
#include "parley/server/store_reads.hpp"
#include "parley/server/turn_window_timers.hpp"
#include "parley/server/users.hpp"
#include "parley/store/store.hpp"
#include "parley/tot/run_board.hpp"
#include "server/rest_client.hpp"
#include "server/ws_client.hpp"
#include "support/read_journal_store.hpp"

namespace parley::server {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using test::eventually;
using test::rest_client;
using test::ws_client;

using recording_store = parley::test::journaling_store;

// The REST tests' team: the lead delegates to the clerk, who asks the human which day.
constexpr const char* kTeam = R"yaml(version: 1
default_member: lead
providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {name: Lead, persona: "You lead.", provider: offline, model: scripted, toolsets: [basic]}
  clerk: {name: Clerk, persona: "You book trips.", gofor: booking trips, provider: offline, model: scripted}
)yaml";
constexpr const char* kScript = R"yaml(chunk_size: 8
members:
  lead:
    - when: {last_tool: "【最终完成】"}
      emit: [{saying: "Trip booked: {{last_tool}}"}]
    - when: {last_user: "delegate"}
      emit:
        - tool_call: {name: tellaskSessionless, arguments: {targetAgentId: clerk, tellaskContent: "Book a trip."}}
    - emit: [{saying: "ok: {{last_user}}"}]
  clerk:
    - when: {last_tool_regex: "(Monday|Friday)"}
      emit: [{saying: "【最终完成】\nbooked for {{capture.1}}"}]
    - emit:
        - tool_call: {name: askHuman, arguments: {tellaskContent: "Which day?\nMonday or Friday."}}
)yaml";

class scratch_dir {
 public:
  scratch_dir() {
    std::random_device device;
    path_ = std::filesystem::temp_directory_path() / ("parley-loop-reads-" + std::to_string(device()));
    std::filesystem::create_directories(path_);
  }
  ~scratch_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// What an earlier process left in the log: a root that answered, and a root whose clerk waits for
// the human's answer to its question.
struct earlier_work {
  std::string answered_root;
  std::string waiting_root;
  std::string asking_sub;
  std::string question_id;
};

struct server_loop_reads : ::testing::Test {
  void SetUp() override {
    std::ofstream(dir.path() / "team.yaml") << kTeam;
    std::ofstream(dir.path() / "script.yaml") << kScript;
    auto loaded = config::load_team_file(dir.path() / "team.yaml");
    ASSERT_TRUE(loaded.has_value()) << loaded.err().message;
    team = std::move(*loaded);
    sqlite_options store_options;
    store_options.durable = false;
    auto opened = open_sqlite_store((dir.path() / "data").string(), store_options);
    ASSERT_TRUE(opened.has_value()) << opened.err().message;
    log = std::make_unique<recording_store>(std::move(*opened));
  }

  void TearDown() override { stop_server(); }

  result<std::unique_ptr<engine::engine>> make_engine(asio::io_context& on) {
    auto providers = engine::build_providers(team);
    if (!providers) return std::move(providers).err();
    return engine::engine::create(on.get_executor(), *log, team, std::move(*providers), engine::build_builtin_tools());
  }

  // An earlier process, run to the end on this thread before the server starts.
  earlier_work run_earlier_process() {
    earlier_work out;
    asio::io_context earlier_io(1);
    auto eng = make_engine(earlier_io);
    EXPECT_TRUE(eng.has_value()) << eng.err().message;
    if (!eng) return out;
    auto& e = **eng;
    asio::co_spawn(
        earlier_io,
        [&]() -> asio::awaitable<void> {
          engine::new_dialog answered{"lead", "", ""};
          answered.first_message = "hello";
          out.answered_root = (co_await e.create_root_dialog(std::move(answered))).value();
          co_await e.runs().wait_until_idle(out.answered_root);
          engine::new_dialog waiting{"lead", "", ""};
          waiting.first_message = "delegate";
          out.waiting_root = (co_await e.create_root_dialog(std::move(waiting))).value();
          co_await e.runs().wait_until_settled(out.waiting_root);
        },
        asio::detached);
    earlier_io.run();
    log->flush();
    auto open = e.questions().open_questions();
    EXPECT_TRUE(open.has_value() && open->size() == 1U);
    if (open && !open->empty()) {
      out.asking_sub = open->front().dialog.id;
      out.question_id = open->front().question.id;
    }
    return out;
  }

  // The server as `parley serve` assembles it, its loop run by a thread of its own.
  void start_server() {
    log->journal().clear();
    auto eng = make_engine(io);
    ASSERT_TRUE(eng.has_value()) << eng.err().message;
    engine = std::move(*eng);
    options.port = 0;
    channels = std::make_unique<pubchan>(*engine, *log, options);
    tot_runs = std::make_unique<tot::run_board>(*engine, tot::run_logs::in(dir.path() / "data" / "logs"));
    context = std::make_unique<server_context>(
        server_context{*engine, *log, options, *channels, single_operator(), true, "test", nullptr, tot_runs.get()});
    context->reads = &reads;
    engine->dialogs().set_reads(&reads);
    channels->set_store_reads(&reads, io.get_executor());
    // Read once before the loop serves anything, as `parley serve` starts them.
    windows = std::make_unique<turn_window_timers>(
        io.get_executor(), *engine, *log->records(), [] { return now_ms(); }, &reads);
    ASSERT_TRUE(windows->start().has_value());
    auto listening = http_server::listen(io.get_executor(), *context);
    ASSERT_TRUE(listening.has_value()) << listening.err().message;
    listener = std::move(*listening);
    listener->start();
    loop = std::thread([this, done = std::move(loop_ran_out)]() mutable {
      io.run();
      done.set_value();
    });
    loop_thread = loop.get_id();
  }

  // Stops accepting, closes the sockets and lets the loop run out, so that no coroutine is left to
  // outlive what it refers to; a loop that does not run out in time is stopped.
  void stop_server() {
    if (!loop.joinable()) return;
    asio::post(io, [this] {
      windows->stop();
      listener->stop();
      channels->close_all();
    });
    work.reset();
    if (loop_done.wait_for(30s) != std::future_status::ready) {
      ADD_FAILURE() << "the server's loop did not run out after its shutdown";
      io.stop();
    }
    loop.join();
  }

  rest_client client() const { return rest_client(listener->port()); }

  // The body of a reply that must have `status`, or a note of what came instead.
  json::object ok_body(const test::http_reply& reply, int status, const std::string& what) const {
    EXPECT_EQ(reply.status, status) << what << ": " << reply.body;
    const auto body = reply.json();
    return body.is_object() ? body.as_object() : json::object{};
  }
  json::object get_ok(const std::string& target) const { return ok_body(client().get(target), 200, target); }
  json::object post_ok(const std::string& target, const json::object& body, int status = 200) const {
    return ok_body(client().post(target, json::value(body)), status, target);
  }

  bool transcript_says(const std::string& id, const std::string& words) const {
    return client().get("/api/dialogs/" + id + "/transcript").body.find(words) != std::string::npos;
  }

  // The reads that ran on the loop's thread, for a failure message.
  std::string reads_on_loop() const {
    std::string out;
    for (const auto& name : log->journal().on(loop_thread)) out += name + " ";
    return out;
  }

  scratch_dir dir;
  config::team_config team;
  std::unique_ptr<recording_store> log;
  asio::io_context io{1};
  asio::executor_work_guard<asio::io_context::executor_type> work = asio::make_work_guard(io);
  store_reads reads;
  server_options options;
  std::unique_ptr<engine::engine> engine;
  std::unique_ptr<pubchan> channels;
  std::unique_ptr<tot::run_board> tot_runs;
  std::unique_ptr<server_context> context;
  std::unique_ptr<turn_window_timers> windows;
  std::unique_ptr<http_server> listener;
  std::promise<void> loop_ran_out;
  std::future<void> loop_done = loop_ran_out.get_future();
  std::thread loop;
  std::thread::id loop_thread;
};
using ServerLoopReads = server_loop_reads;

json::object dialog_ref(const std::string& id) { return json::object{{"selfId", id}}; }

TEST_F(ServerLoopReads, WebSocketSubscribePostAndAnswerOnDialogsOfAnEarlierProcessReadOffTheLoop) {
  const auto earlier = run_earlier_process();
  ASSERT_FALSE(earlier.question_id.empty());
  start_server();

  ws_client ws;
  ASSERT_TRUE(ws.connect(listener->port()));
  ASSERT_TRUE(ws.next_of("welcome"));
  // A root written before the server started: neither the engine nor the PubChan knows it.
  ws.send(json::object{{"type", "subscribe"}, {"dialog", dialog_ref(earlier.answered_root)}});
  ASSERT_TRUE(ws.next_of("resync"));
  ws.send(json::object{{"type", "drive_dlg_by_user_msg"},
                       {"dialog", dialog_ref(earlier.answered_root)},
                       {"content", "again"},
                       {"msgId", "m-again"}});
  const auto ack = ws.next_of("ack");
  ASSERT_TRUE(ack);
  EXPECT_EQ(ack->at("ref"), "m-again");
  const auto state = ws.next_of("dialog_state_evt");
  ASSERT_TRUE(state) << "the drive's state reached the subscriber";
  EXPECT_TRUE(eventually([&] { return transcript_says(earlier.answered_root, "ok: again"); }));

  // The clerk's final saying goes to the lead, its caller: the engine loads a caller it does not
  // hold within the drive (engine/tellask_router.cpp, the engine's own read, not the server's),
  // so the root is brought into memory first, as the web UI's GET of it does.
  ASSERT_EQ(client().get("/api/dialogs/" + earlier.waiting_root).status, 200);
  ws.send(json::object{{"type", "subscribe"}, {"dialog", dialog_ref(earlier.waiting_root)}});
  ASSERT_TRUE(ws.next_of("resync"));
  ws.send(json::object{{"type", "drive_dialog_by_user_answer"},
                       {"dialog", dialog_ref(earlier.asking_sub)},
                       {"content", "Friday"},
                       {"msgId", "a-friday"},
                       {"questionId", earlier.question_id},
                       {"continuationType", "answer"}});
  const auto answered = ws.next_of("ack");
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->at("ref"), "a-friday");
  EXPECT_TRUE(eventually([&] { return transcript_says(earlier.waiting_root, "Trip booked"); }));

  // A dialog nobody may see is refused with what the PubChan says of it, after a read.
  ws.send(json::object{{"type", "subscribe"}, {"dialog", dialog_ref("no-such-dialog")}});
  const auto refused = ws.next_of("error");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->at("code"), "not_found");
  ws.drop();
  stop_server();

  // The rows checked and the hierarchies learnt were read — elsewhere.
  EXPECT_GT(log->journal().count("get_dialog"), 0U);
  EXPECT_GT(log->journal().count("list_dialogs"), 0U);
  EXPECT_EQ(reads_on_loop(), "") << "these reads ran on the event loop's thread";
}

TEST_F(ServerLoopReads, DialogRoutesFlowToTPromptsAndOverviewReadOffTheLoop) {
  const auto earlier = run_earlier_process();
  ASSERT_FALSE(earlier.question_id.empty());
  start_server();

  const auto& root = earlier.answered_root;
  const auto& sub = earlier.asking_sub;
  get_ok("/api/status");
  get_ok("/api/usage");
  get_ok("/api/dialogs");
  get_ok("/api/dialogs/" + root);
  get_ok("/api/dialogs/" + sub);
  get_ok("/api/dialogs/" + earlier.waiting_root + "/children");
  get_ok("/api/dialogs/" + earlier.waiting_root + "/hierarchy");
  get_ok("/api/dialogs/" + root + "/transcript");
  get_ok("/api/dialogs/" + root + "/reminders");
  get_ok("/api/dialogs/" + root + "/prompts");
  get_ok("/api/dialogs/" + earlier.waiting_root + "/registry");
  // A root without a Taskdoc: read, then refused.
  EXPECT_EQ(client().get("/api/dialogs/" + root + "/taskdoc").status, 404);
  // Not a flow's dialog: read, then refused.
  EXPECT_EQ(client().get("/api/dialogs/" + root + "/thread").status, 404);
  get_ok("/api/tot?rootDialog=" + root);
  EXPECT_EQ(client().get("/api/dialogs/no-such-dialog").status, 404);

  const auto created = post_ok("/api/dialogs", json::object{{"content", "fresh"}, {"msgId", "c-1"}}, 201);
  ASSERT_TRUE(created.contains("dialog"));
  const std::string fresh(created.at("dialog").at("id").as_string());
  // A retry of the create answers with the dialog it made.
  post_ok("/api/dialogs", json::object{{"content", "fresh"}, {"msgId", "c-1"}}, 201);
  EXPECT_TRUE(eventually([&] { return transcript_says(fresh, "ok: fresh"); }));
  post_ok("/api/dialogs/" + root + "/messages", json::object{{"content", "more"}}, 202);
  EXPECT_TRUE(eventually([&] { return transcript_says(root, "ok: more"); }));
  post_ok("/api/dialogs/" + earlier.waiting_root + "/complete", json::object{}, 409);
  // Completed once its drive has let go of it.
  EXPECT_TRUE(eventually(
      [&] { return client().post("/api/dialogs/" + fresh + "/complete", std::string("{}")).status == 200; }));
  post_ok("/api/dialogs/" + fresh + "/reopen", json::object{});
  stop_server();

  for (const char* read : {"get_dialog", "list_dialogs", "list_roots", "read_events", "messages", "find_input"}) {
    EXPECT_GT(log->journal().count(read), 0U) << read << " was read";
  }
  EXPECT_EQ(reads_on_loop(), "") << "these reads ran on the event loop's thread";
}

TEST_F(ServerLoopReads, RecordsReadsAndWritesWithTheirReadBackReadOffTheLoop) {
  const auto earlier = run_earlier_process();
  ASSERT_FALSE(earlier.question_id.empty());
  start_server();

  const auto& root = earlier.answered_root;
  const auto dialogue = get_ok("/api/dialogues/" + root);
  ASSERT_TRUE(dialogue.contains("dialogue")) << json::serialize(dialogue);
  get_ok("/api/dialogues/" + root + "/sessions");
  const auto latest = get_ok("/api/dialogues/" + root + "/latest_session");
  get_ok("/api/dialogues/" + root + "/unresponded_turns");
  get_ok("/api/dialogues/" + root + "/system_utterances");
  get_ok("/api/messages/search?q=hello");
  get_ok("/api/humans/operator/dialogues");
  get_ok("/api/ai/lead/sessions");
  const std::string first_session(latest.at("session").at("id").as_string());
  get_ok("/api/sessions/" + first_session);
  const auto turns = get_ok("/api/sessions/" + first_session + "/turns");
  ASSERT_FALSE(turns.at("turns").as_array().empty());
  const std::string first_turn(turns.at("turns").at(0).at("id").as_string());
  get_ok("/api/turns/" + first_turn);
  const auto messages = get_ok("/api/turns/" + first_turn + "/messages");
  ASSERT_FALSE(messages.at("messages").as_array().empty());
  get_ok("/api/messages/" + std::string(messages.at("messages").at(0).at("id").as_string()));

  // Writes: each checks what it writes into, appends, and reads its row back.
  const auto session = post_ok("/api/sessions", json::object{{"dialogue_id", root}, {"created_by", "ai"}}, 201);
  ASSERT_TRUE(session.contains("session")) << json::serialize(session);
  const std::string session_id(session.at("session").at("id").as_string());
  const auto turn =
      post_ok("/api/turns",
              json::object{{"session_id", session_id}, {"initiator_role", "human"}, {"responder_role", "ai"}}, 201);
  ASSERT_TRUE(turn.contains("turn")) << json::serialize(turn);
  const std::string turn_id(turn.at("turn").at("id").as_string());
  post_ok("/api/messages", json::object{{"turn_id", turn_id}, {"sender_role", "human"}, {"content", "which?"}}, 201);
  post_ok("/api/turns/" + turn_id + "/close", json::object{{"status", "unresponded"}});
  post_ok("/api/sessions/" + session_id + "/close", json::object{});
  stop_server();

  for (const char* read : {"records.dialogue", "records.session", "records.turn", "records.message", "records.search",
                           "records.pending_turn_of"}) {
    EXPECT_GT(log->journal().count(read), 0U) << read << " was read";
  }
  EXPECT_EQ(reads_on_loop(), "") << "these reads ran on the event loop's thread";
}

// What a PubChan subscriber was sent.
class recorder final : public pubchan_subscriber {
 public:
  void deliver(const packet_ptr& packet) override {
    auto parsed = json::parse(packet->json);
    if (parsed.is_object()) packets.push_back(std::move(parsed.as_object()));
  }
  bool sees_root(const dialog_row&) const override { return true; }
  void close(std::uint16_t, std::string_view) override {}
  std::vector<json::object> packets;
};

// A state packet about a dialog whose hierarchy the PubChan has not read (a drive the engine began
// on its own, as after a restart) does not wait for the store: it goes out with what is known, the
// hierarchy is read on the read thread, and the state goes out again once it says there are
// children.
TEST_F(ServerLoopReads, AStateOfAnUnreadHierarchyGoesOutAtOnceAndAgainOnceItsChildrenAreKnown) {
  const auto earlier = run_earlier_process();
  ASSERT_FALSE(earlier.asking_sub.empty());
  log->journal().clear();
  auto eng = make_engine(io);
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  engine = std::move(*eng);
  engine->dialogs().set_reads(&reads);
  channels = std::make_unique<pubchan>(*engine, *log, options);
  channels->set_store_reads(&reads, io.get_executor());
  recorder watcher;
  channels->attach(watcher);
  channels->subscribe(watcher, earlier.waiting_root, earlier.waiting_root, std::nullopt, "");
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        auto loaded = co_await engine->dialogs().load_async(earlier.waiting_root);
        EXPECT_TRUE(loaded.has_value());
        channels->on_drive_finished(earlier.waiting_root);
      },
      asio::detached);
  work.reset();
  loop = std::thread([this] { io.run(); });
  loop_thread = loop.get_id();
  loop.join();
  channels->detach(watcher);

  std::vector<bool> has_children;
  for (const auto& packet : watcher.packets) {
    if (packet.at("type") == "dialog_state_evt") has_children.push_back(packet.at("state").at("hasChildren").as_bool());
  }
  EXPECT_EQ(has_children, (std::vector<bool>{false, true}));
  EXPECT_GT(log->journal().count("list_dialogs"), 0U) << "the hierarchy was read";
  EXPECT_EQ(reads_on_loop(), "") << "these reads ran on the event loop's thread";
}

}  // namespace
}  // namespace parley::server
