// A member's own tool calls (tool_call_record.hpp, drive_loop.hpp): finding the tool (a built-in
// one, or an MCP server's), checking the arguments against its schema, and either running it —
// timed, for the log's record of an MCP call — or, for a call a crash left owed whose tool is not
// run again, recording that it was interrupted.
#include <algorithm>
#include <chrono>

#include "parley/core/text.hpp"
#include "parley/engine/dominds_pads.hpp"
#include "parley/engine/drive_loop.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/tool_call_record.hpp"
#include "parley/tools/json_schema.hpp"

namespace parley::engine {

namespace asio = boost::asio;

namespace {

tools::tool* member_tool_named(const std::vector<tools::tool*>& tools, std::string_view name) {
  for (auto* candidate : tools) {
    if (candidate->spec().name == name) return candidate;
  }
  return nullptr;
}

}  // namespace

std::optional<events::mcp_call> mcp_call_of(const tools::tool& used, std::optional<std::int64_t> duration_ms) {
  const auto* origin = used.mcp();
  if (origin == nullptr) return std::nullopt;
  return events::mcp_call{origin->server_id, origin->remote_name, duration_ms};
}

tools::tool_outcome interrupted_outcome(const tools::tool& used, std::string_view name) {
  const auto* origin = used.mcp();
  const std::string who = origin != nullptr ? "MCP server '" + origin->server_id + "'" : "the tool";
  return tools::tool_outcome{
      false, "tool '" + std::string(name) +
                 "' was interrupted by a restart of Parley: the process that made this call stopped (or lost its "
                 "log) before the result was recorded, and calls of this tool are not run again. " +
                 who + " may or may not have carried it out. Check whether it took effect before you call it again."};
}

events::tool_result tool_result_of(std::int64_t course, std::int64_t genseq, const llm::tool_call& call,
                                   tool_call_record record) {
  events::tool_result out{course, genseq, call.id, call.name, record.outcome.ok, std::move(record.outcome.content)};
  // Kept with the result so that every later model call of the dialog is sent it too (the request
  // is rebuilt from the log each round).
  if (!record.outcome.media.empty()) {
    auto& image = record.outcome.media.front();
    out.image = events::tool_image{std::move(image.mime), std::move(image.format), std::move(image.data_base64)};
  }
  out.mcp = std::move(record.mcp);
  out.interrupted = record.interrupted;
  return out;
}

asio::awaitable<tool_call_record> drive_loop::run_member_tool(const dialog_runtime& dialog, const member_setup& member,
                                                              const llm::tool_call& asked,
                                                              const tools::tool_context& context, bool left_by_crash) {
  // A file written from a scratch pad: its pad_id becomes the text (dominds_pads.hpp).
  const bool may_use_pads = members_.offers_dominds_control() && member_tool_named(member.tools, asked.name) != nullptr;
  auto from_pad = may_use_pads ? resolve_pad_source(dialog, asked) : pad_source_decision{};
  if (from_pad.refused) co_return tool_call_record{std::move(*from_pad.refused)};
  const llm::tool_call& call = from_pad.sourced ? from_pad.sourced->call : asked;
  tools::tool* found = member_tool_named(member.tools, call.name);
  std::shared_ptr<tools::tool> from_mcp;  // held while it runs: a reload may replace its server's catalog
  if (found == nullptr && member.mcp.any()) {
    from_mcp = members_.find_mcp_tool(member, call.name);
    if (!from_mcp) {  // a call owed since a restart: the servers have not been started yet
      co_await members_.prepare_mcp(member);
      from_mcp = members_.find_mcp_tool(member, call.name);
    }
    found = from_mcp.get();
  }
  const auto& withheld = member.withheld_tools;
  if (found == nullptr && std::find(withheld.begin(), withheld.end(), call.name) != withheld.end()) {
    co_return tool_call_record{{false, shell_tool_refusal(team_, *member.config, call.name)}};
  }
  if (found == nullptr) {
    std::vector<std::string> available;
    for (const auto* candidate : member.tools) available.push_back(candidate->spec().name);
    const std::string down = members_.mcp_problems(member);
    co_return tool_call_record{{false, "unknown tool '" + call.name + "'" + did_you_mean(call.name, available) +
                                           "; call one of the tools you were given" +
                                           (down.empty() ? "" : " (some MCP tools are missing now: " + down + ")")}};
  }
  auto args = tools::parse_tool_arguments(call.arguments, found->spec().parameters);
  if (!args) {  // refused before it ran, crash or not
    co_return tool_call_record{{false, "invalid arguments for tool '" + call.name + "': " + args.err().message +
                                           ". Fix the arguments and call the tool again."}};
  }
  if (left_by_crash && found->has_effects() && !found->rerun_after_crash()) {
    co_return tool_call_record{interrupted_outcome(*found, call.name), mcp_call_of(*found, std::nullopt), true};
  }
  const auto started = std::chrono::steady_clock::now();
  auto outcome = co_await found->invoke(*args, context);
  if (from_pad.sourced && outcome.ok) add_pad_source(outcome, from_pad.sourced->source_yaml);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  co_return tool_call_record{std::move(outcome), mcp_call_of(*found, took.count()), false};
}

}  // namespace parley::engine
