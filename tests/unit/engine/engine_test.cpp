#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>

#include <map>

#include "engine_test_support.hpp"
#include "parley/core/json.hpp"
#include "parley/core/time.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/context_builder.hpp"
#include "parley/engine/engine.hpp"
#include "parley/tools/function_tool.hpp"
#include "support/typed_events.hpp"

namespace parley::engine {
namespace {

namespace asio = boost::asio;
using testing::kOneMemberTeam;
using testing::temp_team;

// A provider that breaks the streaming order contract: saying starts while thinking is open.
class overlapping_provider final : public llm::provider {
 public:
  asio::awaitable<result<llm::model_response>> stream(const llm::model_request&, llm::stream_sink& sink,
                                                      llm::generation_control&) override {
    sink.on_thinking_start();
    sink.on_thinking_chunk("hmm");
    sink.on_saying_start();
    sink.on_saying_chunk("oops");
    co_return llm::model_response{"hmm", "oops", {}, "stop", {}, {}};
  }
  std::string_view kind() const override { return "test"; }
};

result<std::unique_ptr<engine>> make_engine(asio::io_context& io, store& log, const config::team_config& team) {
  auto providers = build_providers(team);
  if (!providers) return std::move(providers).err();
  return engine::create(io.get_executor(), log, team, std::move(*providers), build_builtin_tools());
}

event raw_event(const std::string& dialog, std::int64_t seq, std::string_view type, boost::json::object payload) {
  return test::typed_event(dialog, dialog, seq, type, std::move(payload), now_ms());
}

// Creates a root dialog of lead with `first_message` and runs the engine until it is idle. `id` is
// set as soon as the dialog exists (tools that run meanwhile may read it).
void run_to_idle(asio::io_context& io, engine& eng, std::string first_message, std::string& id) {
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        spec.first_message = std::move(first_message);
        id = (co_await eng.create_root_dialog(std::move(spec))).value();
        co_await eng.runs().wait_until_idle(id);
      },
      asio::detached);
  io.run();
}

// "role:content" of each message of a dialog's first course.
std::vector<std::string> said_in(store& log, const std::string& dialog_id) {
  std::vector<std::string> said;
  for (const auto& msg : log.messages(dialog_id, 1).value())
    said.push_back(std::string(parley::events::to_wire(msg.role)) + ":" + msg.content);
  return said;
}

void append_now(store& log, std::vector<event> batch) {
  std::optional<result<void>> outcome;
  log.append(std::move(batch), [&](result<void> r) { outcome = std::move(r); });
  log.flush();
  ASSERT_TRUE(outcome.has_value() && outcome->has_value());
}

// A team of one scripted member `lead` with `fields` added to its map.
std::string team_with_lead(std::string_view fields) {
  return "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
         "members:\n  lead: {persona: p, provider: offline, model: m, " +
         std::string(fields) + "}\n";
}

// Why the engine refuses a team whose lead has `fields` ("" when it does not refuse it).
std::string refusal_of_lead(std::string_view fields) {
  temp_team files(team_with_lead(fields), "members: {lead: [{emit: [{saying: ok}]}]}\n");
  asio::io_context io;
  auto log = make_memory_store();
  auto eng = make_engine(io, *log, files.load());
  return eng.has_value() ? std::string() : eng.err().message;
}

TEST(Engine, RefusesAMemberWithAnUnknownToolAndSuggestsTheClosest) {
  EXPECT_EQ(refusal_of_lead("tools: [calculat]"), "member 'lead': unknown tool 'calculat' (did you mean 'calculate'?)");
}

TEST(Engine, RefusesAnUnknownToolsetWhereTheListIsWritten) {
  const std::string message = refusal_of_lead("toolsets: [workspace_reed]");
  EXPECT_NE(message.find("team.yaml:5:"), std::string::npos) << message;
  EXPECT_TRUE(
      message.ends_with(": members.lead.toolsets: unknown toolset 'workspace_reed' (did you mean 'workspace_read'?)"))
      << message;
}

TEST(Engine, RefusesADomindsToolsetParleyHasNoToolsForSayingWhatIsMissing) {
  const std::string message = refusal_of_lead("toolsets: [ws_read, team_mgmt]");
  EXPECT_NE(message.find(": members.lead.toolsets: toolset 'team_mgmt' (Dominds) has no equivalent in Parley: "),
            std::string::npos)
      << message;
}

TEST(Engine, RefusesAnUnknownDialogToolName) {
  EXPECT_EQ(refusal_of_lead("dialog_tools: [tellaskSesionless]"),
            "member 'lead': dialog_tools: unknown dialog tool 'tellaskSesionless' (did you mean "
            "'tellaskSessionless'?)");
}

TEST(Engine, SelfReflectIsADialogToolOnlyForAMemberThatReflects) {
  EXPECT_EQ(refusal_of_lead("dialog_tools: [selfReflect]"),
            "member 'lead': dialog_tools: selfReflect is offered only with self_reflection: true");
  EXPECT_EQ(refusal_of_lead("dialog_tools: [selfReflect], self_reflection: true"), "");
}

// Answers each call with the next of its replies and keeps the names of the tools each call offered.
class recording_provider final : public llm::provider {
 public:
  explicit recording_provider(std::vector<llm::model_response> replies) : replies_(std::move(replies)) {}
  asio::awaitable<result<llm::model_response>> stream(const llm::model_request& request, llm::stream_sink&,
                                                      llm::generation_control&) override {
    std::vector<std::string> names;
    if (request.tools) {
      for (const auto& spec : *request.tools) names.push_back(spec.name);
    }
    offered.push_back(std::move(names));
    if (next_ >= replies_.size()) co_return make_error(errc::provider_error, "no reply left");
    co_return replies_[next_++];
  }
  std::string_view kind() const override { return "test"; }

  std::vector<std::vector<std::string>> offered;

 private:
  std::vector<llm::model_response> replies_;
  std::size_t next_ = 0;
};

TEST(Engine, AMemberIsOfferedOnlyTheDialogToolsItsTeamFileLists) {
  temp_team files(team_with_lead("tools: [calculate], dialog_tools: [tellaskSessionless, tellaskBack]"), "");
  llm::model_response asks_for_a_reminder{"", "", {{"c1", "add_reminder", R"({"content":"x"})"}}, "tool_calls", {}, {}};
  llm::model_response answers{"", "done", {}, "stop", {}, {}};
  auto recorder = std::make_shared<recording_provider>(std::vector{asks_for_a_reminder, answers});
  auto log = make_memory_store();
  asio::io_context io;
  auto eng =
      engine::create(io.get_executor(), *log, files.load(), provider_map{{"offline", recorder}}, build_builtin_tools());
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  std::string id;
  run_to_idle(io, **eng, "remember x", id);
  // tellaskBack is listed but a root dialog has no tellasker: its place does not allow it.
  const std::vector<std::string> expected{"calculate", "tellaskSessionless"};
  ASSERT_EQ(recorder->offered.size(), 2U);
  EXPECT_EQ(recorder->offered[0], expected);
  EXPECT_EQ(recorder->offered[1], expected);
  const auto messages = log->messages(id, 1).value();
  ASSERT_EQ(messages.size(), 4U);
  EXPECT_EQ(messages[2].role, parley::events::message_role::tool);
  EXPECT_EQ(messages[2].content, "tool 'add_reminder' is not offered to member 'lead' (team.yaml dialog_tools)");
  EXPECT_EQ(messages[3].content, "done");
}

TEST(Engine, EmptyDialogToolsOfferNone) {
  temp_team files(team_with_lead("dialog_tools: []"), "");
  auto recorder = std::make_shared<recording_provider>(
      std::vector<llm::model_response>{llm::model_response{"", "ok", {}, "stop", {}, {}}});
  auto log = make_memory_store();
  asio::io_context io;
  auto eng =
      engine::create(io.get_executor(), *log, files.load(), provider_map{{"offline", recorder}}, build_builtin_tools());
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  std::string id;
  run_to_idle(io, **eng, "hello", id);
  ASSERT_EQ(recorder->offered.size(), 1U);
  EXPECT_TRUE(recorder->offered[0].empty());
}

TEST(Engine, RecoveryRunsToolCallsLeftWithoutResultsThenFinishes) {
  temp_team files(kOneMemberTeam,
                  "members:\n  lead:\n    - when: {last_tool: \"4\"}\n"
                  "      emit: [{saying: \"two and two is {{last_tool}}\"}]\n");
  auto log = make_memory_store();
  // The log of a process that died right after the model asked for a tool.
  append_now(
      *log,
      {raw_event("d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}}),
       raw_event("d1", 2, event_type::user_message, {{"course", 1}, {"content", "add"}, {"msgId", "m"}}),
       raw_event("d1", 3, event_type::generation_started, {{"course", 1}, {"genseq", 1}, {"round", 1}}),
       raw_event("d1", 4, event_type::generation_finished,
                 {{"course", 1},
                  {"genseq", 1},
                  {"saying", ""},
                  {"toolCalls", boost::json::array{boost::json::object{
                                    {"id", "c1"}, {"name", "calculate"}, {"arguments", R"({"expression":"2+2"})"}}}},
                  {"interrupted", false}})});
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  auto scheduled = (*eng)->runs().recover_all();
  ASSERT_TRUE(scheduled.has_value());
  EXPECT_EQ(*scheduled, 1U);
  io.run();
  log->flush();
  auto messages = log->messages("d1", 1).value();
  ASSERT_EQ(messages.size(), 4U);
  EXPECT_EQ(messages[2].role, parley::events::message_role::tool);
  EXPECT_EQ(messages[2].tool_call_id, "c1");
  EXPECT_EQ(messages[2].content, "4");
  EXPECT_EQ(messages[3].content, "two and two is 4");
  EXPECT_FALSE(log->get_dialog("d1").value()->needs_drive);
}

TEST(Engine, ANewMessageAfterACrashFirstAnswersTheOwedToolCalls) {
  temp_team files(kOneMemberTeam, "members:\n  lead:\n    - emit: [{saying: \"noted\"}]\n");
  auto log = make_memory_store();
  append_now(*log,
             {raw_event("d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}}),
              raw_event("d1", 2, event_type::user_message, {{"course", 1}, {"content", "add"}}),
              raw_event("d1", 3, event_type::generation_finished,
                        {{"course", 1},
                         {"genseq", 1},
                         {"toolCalls",
                          boost::json::array{boost::json::object{
                              {"id", "c1"}, {"name", "calculate"}, {"arguments", R"({"expression":"1+2"})"}}}}})});
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value());
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        EXPECT_TRUE((co_await (*eng)->post_user_message("d1", "and now?")).has_value());
        co_await (*eng)->runs().wait_until_idle("d1");
      },
      asio::detached);
  io.run();
  std::vector<std::string> roles;
  for (const auto& msg : log->messages("d1", 1).value())
    roles.push_back(std::string(parley::events::to_wire(msg.role)) + ":" + msg.content);
  EXPECT_EQ(roles, (std::vector<std::string>{"user:add", "assistant:", "tool:3", "user:and now?", "assistant:noted"}));
}

TEST(Engine, RecoveryLeavesIdleDialogsAlone) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto log = make_memory_store();
  append_now(*log, {raw_event("d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}})});
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value());
  EXPECT_EQ((*eng)->runs().recover_all().value(), 0U);
  io.run();
  EXPECT_EQ(log->read_events("d1").value().size(), 1U);
}

TEST(Engine, AStreamOrderViolationFailsTheDriveAndIsLogged) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto team = files.load();
  auto log = make_memory_store();
  provider_map providers{{"offline", std::make_shared<overlapping_provider>()}};
  asio::io_context io;
  auto eng = engine::create(io.get_executor(), *log, team, std::move(providers), build_builtin_tools());
  ASSERT_TRUE(eng.has_value());
  std::string id;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        EXPECT_TRUE((co_await (*eng)->post_user_message(id, "hi")).has_value());
        co_await (*eng)->runs().wait_until_idle(id);
      },
      asio::detached);
  io.run();
  const auto row = log->get_dialog(id).value();
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->last_error, "stream order violation: saying started while thinking was still open");
  EXPECT_EQ(log->read_events(id).value().back().type(), event_type::drive_failed);
}

TEST(Engine, DialogsAtRestAreUnloadedPastTheLimitAndLoadedAgainFromTheLog) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto log = make_memory_store();
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  (*eng)->dialogs().set_limit(2);
  std::vector<std::string> ids;
  std::size_t most_loaded = 0;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (int i = 0; i < 6; ++i) {
          new_dialog spec{"lead", "", ""};
          spec.first_message = "task " + std::to_string(i);
          ids.push_back((co_await (*eng)->create_root_dialog(std::move(spec))).value());
          co_await (*eng)->runs().wait_until_idle(ids.back());
          most_loaded = std::max(most_loaded, (*eng)->dialogs().size());
        }
      },
      asio::detached);
  io.run();
  // One over the limit at most, until the pass that follows the load that went over it.
  EXPECT_LE(most_loaded, 3U);
  EXPECT_LE((*eng)->dialogs().size(), 2U);
  EXPECT_EQ((*eng)->find(ids.front()), nullptr);

  // The first dialog, unloaded long ago, is loaded from the log and goes on from where it was.
  io.restart();
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        EXPECT_TRUE((co_await (*eng)->post_user_message(ids.front(), "and again")).has_value());
        co_await (*eng)->runs().wait_until_idle(ids.front());
      },
      asio::detached);
  io.run();
  EXPECT_EQ(said_in(*log, ids.front()),
            (std::vector<std::string>{"user:task 0", "assistant:ok", "user:and again", "assistant:ok"}));
  ASSERT_NE((*eng)->find(ids.front()), nullptr);
  EXPECT_EQ((*eng)->find(ids.front())->messages().size(), 4U);
}

// A dialog created with its first message is one commit: no crash can leave it without its task.
// (Humans among themselves, so no drive commits anything after it.)
TEST(Engine, ADialogCreatedWithItsFirstMessageIsOneCommit) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto log = make_memory_store();
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value());
  std::string id;
  std::int64_t commits = 0;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec;
        spec.humans = {"ann", "ben"};
        spec.humans_only = true;
        spec.first_message = "lunch at noon?";
        spec.first_message_id = "m-1";
        spec.first_message_from = "ann";
        const auto before = log->stats().transactions;
        id = (co_await (*eng)->create_root_dialog(std::move(spec))).value();
        commits = log->stats().transactions - before;
      },
      asio::detached);
  io.run();
  EXPECT_EQ(commits, 1);
  const auto events = log->read_events(id).value();
  ASSERT_EQ(events.size(), 2U);
  EXPECT_EQ(events[0].type(), event_type::dialog_created);
  ASSERT_TRUE(events[1].is<events::user_message>());
  EXPECT_EQ(events[1].as<events::user_message>()->msg_id, "m-1");
  EXPECT_EQ(events[1].as<events::user_message>()->from, "ann");
}

// Write-ahead: a tool with effects outside the log runs only once the model output that called it
// is durable; a tool that only reads runs at once, and its call is committed with its result.
TEST(Engine, AToolWithEffectsWaitsForItsCallToBeDurableAndAReadingToolDoesNot) {
  temp_team files(
      "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
      "members:\n  lead: {persona: p, provider: offline, model: m, tools: [probe_write, probe_read]}\n",
      "members:\n  lead:\n"
      "    - when: {round: 1}\n      emit: [{tool_call: {name: probe_write, id: w1}}]\n"
      "    - when: {round: 2}\n      emit: [{tool_call: {name: probe_read, id: r1}}]\n"
      "    - emit: [{saying: done}]\n");
  auto log = make_memory_store();
  std::string id;
  // For each probe: whether the call that ran it was in the store when it ran.
  std::map<std::string, bool> call_was_stored;
  auto probe = [&](const std::string& name, tools::function_tool::effects kind) {
    llm::tool_spec spec{name, "probe", boost::json::object{{"type", "object"}}};
    return std::make_unique<tools::function_tool>(
        std::move(spec),
        [&, name](const boost::json::object&, const tools::tool_context& ctx) {
          bool stored = false;
          for (const auto& ev : log->read_events(ctx.dialog_id).value()) {
            if (ev.type() == event_type::generation_finished &&
                boost::json::serialize(test::wire_of(ev).at("toolCalls")).find(name) != std::string::npos) {
              stored = true;
            }
          }
          call_was_stored[name] = stored;
          return tools::tool_outcome{true, "ok"};
        },
        kind);
  };
  auto registry = build_builtin_tools();
  registry.add(probe("probe_write", tools::function_tool::effects::outside_log));
  registry.add(probe("probe_read", tools::function_tool::effects::none));
  asio::io_context io;
  auto providers = build_providers(files.load());
  ASSERT_TRUE(providers.has_value());
  auto eng = engine::create(io.get_executor(), *log, files.load(), std::move(*providers), std::move(registry));
  ASSERT_TRUE(eng.has_value()) << eng.err().message;
  run_to_idle(io, **eng, "probe", id);
  log->flush();
  EXPECT_TRUE(call_was_stored.at("probe_write"));
  EXPECT_FALSE(call_was_stored.at("probe_read"));
  EXPECT_EQ(said_in(*log, id), (std::vector<std::string>{"user:probe", "assistant:", "tool:ok", "assistant:", "tool:ok",
                                                         "assistant:done"}));
}

TEST(Engine, ADialogCreatedWithItsFirstMessageIsDriven) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: \"on it\"}]}]}\n");
  auto log = make_memory_store();
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value());
  std::string id;
  run_to_idle(io, **eng, "plan the trip", id);
  EXPECT_EQ(said_in(*log, id), (std::vector<std::string>{"user:plan the trip", "assistant:on it"}));
}

TEST(Engine, AnOversizedFirstMessageCreatesNothing) {
  temp_team files(kOneMemberTeam + std::string("limits: {max_message_bytes: 8}\n"),
                  "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto log = make_memory_store();
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value());
  std::optional<result<std::string>> created;
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        new_dialog spec{"lead", "", ""};
        spec.first_message = "far more than eight bytes";
        created = co_await (*eng)->create_root_dialog(std::move(spec));
      },
      asio::detached);
  io.run();
  ASSERT_TRUE(created.has_value());
  ASSERT_FALSE(created->has_value());
  EXPECT_NE(created->err().message.find("limits.max_message_bytes"), std::string::npos) << created->err().message;
  EXPECT_TRUE(log->read_all_events().value().empty());
}

TEST(Engine, StopOfADialogThatIsNotGeneratingIsAConflict) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto log = make_memory_store();
  append_now(*log, {raw_event("d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}})});
  asio::io_context io;
  auto eng = make_engine(io, *log, files.load());
  ASSERT_TRUE(eng.has_value());
  const auto stopped = (*eng)->runs().stop("d1");
  ASSERT_FALSE(stopped.has_value());
  EXPECT_EQ(stopped.err().code, errc::conflict);
  EXPECT_EQ((*eng)->runs().stop("nope").err().code, errc::not_found);
}

TEST(ContextBuilder, PersonaLeadsTheSystemPromptAndMessagesKeepTheirRoles) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  const auto team = files.load();
  auto dialog = dialog_runtime::replay(
      {raw_event("d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}}),
       raw_event("d1", 2, event_type::user_message, {{"course", 1}, {"content", "hello"}}),
       raw_event("d1", 3, event_type::generation_finished,
                 {{"saying", ""},
                  {"thinking", "t"},
                  {"toolCalls",
                   boost::json::array{boost::json::object{{"id", "c"}, {"name", "calculate"}, {"arguments", "{}"}}}}}),
       raw_event("d1", 4, event_type::tool_result, {{"callId", "c"}, {"name", "calculate"}, {"content", "1"}})});
  ASSERT_TRUE(dialog.has_value()) << dialog.err().message;
  const auto request = build_model_request(**dialog, *team.find_member("lead"), {}, 2, prompt_setting{});
  EXPECT_NE(request.system_prompt.find("@lead"), std::string::npos);
  EXPECT_NE(request.system_prompt.find("You lead."), std::string::npos);
  ASSERT_EQ(request.messages.size(), 3U);
  EXPECT_EQ(request.messages[0].role, llm::role::user);
  EXPECT_EQ(request.messages[1].role, llm::role::assistant);
  ASSERT_EQ(request.messages[1].tool_calls.size(), 1U);
  EXPECT_EQ(request.messages[1].tool_calls[0].name, "calculate");
  EXPECT_EQ(request.messages[2].role, llm::role::tool);
  EXPECT_EQ(request.messages[2].tool_call_id, "c");
  EXPECT_EQ(request.round, 2);
  EXPECT_TRUE(request.stream);
}

TEST(ContextBuilder, AMemberWithStreamingOffAsksForWholeAnswers) {
  temp_team files(kOneMemberTeam, "members: {lead: [{emit: [{saying: ok}]}]}\n");
  auto team = files.load();
  auto dialog = dialog_runtime::replay(
      {raw_event("d1", 1, event_type::dialog_created, {{"memberId", "lead"}, {"kind", "root"}})});
  ASSERT_TRUE(dialog.has_value()) << dialog.err().message;
  auto member = *team.find_member("lead");
  member.streaming = false;
  EXPECT_FALSE(build_model_request(**dialog, member, {}, 1, prompt_setting{}).stream);
}

}  // namespace
}  // namespace parley::engine
