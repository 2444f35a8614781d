// The team's members as the engine runs them: each member's provider, the tools it may call (its
// own and the dialog tools of its place) and its memory folders, checked once when the engine is
// created. It answers what a model call of a dialog sends (request_for) and which provider takes
// work beside the dialogs (the records' analyst, a captioner describing an upload).
//
// Owns the providers, the tool registry and the dialog tools' specs of this team; reads the team
// (owned by the engine) and never the store. Runs on the engine's executor.
#pragma once

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/engine/context_builder.hpp"
#include "parley/engine/dialog_runtime.hpp"
#include "parley/engine/dialog_tools.hpp"
#include "parley/engine/member_toolsets.hpp"
#include "parley/engine/taskdoc.hpp"
#include "parley/llm/provider.hpp"
#include "parley/tools/mcp/mcp_servers.hpp"
#include "parley/tools/tool.hpp"

namespace parley::engine {

using provider_map = std::map<std::string, std::shared_ptr<llm::provider>, std::less<>>;

struct member_setup {
  const config::member_config* config = nullptr;
  const config::model_info* model = nullptr;  // declared context window and prices, if any
  llm::provider* provider = nullptr;
  std::vector<tools::tool*> tools;
  std::vector<llm::tool_spec> tool_specs;   // its own tools
  std::vector<std::string> withheld_tools;  // asked for, but withheld by shell_specialists
  llm::tool_list root_tool_specs;           // its own tools and the dialog tools of a root
  llm::tool_list sub_tool_specs;            // ... of a subdialog
  mcp_grant mcp;                            // the MCP servers whose tools it is given (found at run time)
  // Where its stdio MCP servers run (mcp_sandbox.hpp); with `mcp_refused`, it gets none.
  tools::mcp::sandbox_profile mcp_sandbox;
  std::string mcp_refused;
  memory_folders memories;
  // Dominds' scratch pad tools (dominds_pads.hpp): a `.minds/` member given ws_mod or a pad_* tool.
  bool pads = false;
  // Whether its team.yaml `dialog_tools` lets it call `name` (where its place allows it).
  bool offers_dialog_tool(std::string_view name) const;
};

class member_roster {
 public:
  // Keeps a reference to `team`, which outlives the roster (the engine owns both). Call prepare
  // before anything else: it checks that every member's provider and tools exist.
  member_roster(const config::team_config& team, provider_map providers, tools::tool_registry tools)
      : team_(team), providers_(std::move(providers)), tools_(std::move(tools)) {}
  member_roster(const member_roster&) = delete;  // members point into the registry and the team
  member_roster& operator=(const member_roster&) = delete;
  result<void> prepare();
  // A reloaded team's providers and tools, once the engine has put the new team where `team`
  // refers (engine::replace_team). The current ones are retired, not destroyed: a drive under way
  // holds pointers into them and finishes with its member as it started. Then prepare runs again;
  // on its error the current ones are put back and nothing changed.
  result<void> replace(provider_map providers, tools::tool_registry tools);
  // The team's MCP servers (owned by the engine, which outlives the roster's use of them); set
  // before prepare. Without them, a member's MCP toolsets give no tools.
  void set_mcp(tools::mcp::mcp_servers* servers) { mcp_ = servers; }
  // Parley's data folders a sandboxed stdio MCP server must not see (owned by the engine's drive
  // loop, read when a server starts); set before prepare.
  void set_protected_dirs(const std::vector<tools::protected_dir>* dirs) { protected_dirs_ = dirs; }
  const tools::tool_registry& registry() const noexcept { return tools_; }

  // The member, or null when the team has none of that id.
  const member_setup* find(std::string_view member_id) const;
  // The dialog tool `name` as this team's members are offered it (targetAgentId names them).
  const llm::tool_spec* dialog_spec(std::string_view name) const;
  // Whether the members are offered Dominds' control tools too: a team from `.minds/`
  // (dominds_control.hpp).
  bool offers_dominds_control() const noexcept { return dominds_control_; }
  // Its tools (with those its MCP servers offer now) and the dialog tools of the dialog's place.
  llm::tool_list tools_for(const dialog_runtime& dialog, const member_setup& member) const;

  // MCP (docs/mcp.md "Tools"): the member's servers started and their tools listed, before a
  // model call; a tool of theirs by name (null: none); why some of them offer no tools now ("").
  boost::asio::awaitable<void> prepare_mcp(const member_setup& member) const;
  std::shared_ptr<tools::tool> find_mcp_tool(const member_setup& member, std::string_view name) const;
  std::string mcp_problems(const member_setup& member) const;
  // The MCP servers the member `member_id` is given now (none for an unknown member).
  std::vector<std::string> mcp_servers_of(std::string_view member_id) const;
  // The provider a member's model calls go to, or nullptr: for work beside the dialogs (the analyst).
  llm::provider* provider_of(std::string_view member_id) const;
  std::string_view provider_kind_of(std::string_view member_id) const;

  // What a model call of `dialog` in `round` sends — system prompt, tools, messages.
  llm::model_request request_for(const dialog_runtime& dialog, const member_setup& member, std::int64_t round) const;
  // The same for the dialog's speaking member, built as a drive builds it, without calling the
  // model: to review what models are told (snapshot tests).
  result<llm::model_request> model_request_for(const dialog_runtime& dialog, std::int64_t round = 1) const;

  // Where media of image and audio messages are read from (the server's uploads).
  void set_attachment_reader(attachment_reader reader) { read_attachment_ = std::move(reader); }
  // media_description.cpp: fills a missing caption/transcription from the team's media members.
  boost::asio::awaitable<void> describe_attachment(events::attachment& attachment) const;

 private:
  // The member's own tools, `extra` (its MCP servers'), and the dialog tools of `place`.
  llm::tool_list assemble(const member_setup& member, dialog_place place,
                          const std::vector<llm::tool_spec>& extra) const;

  const config::team_config& team_;
  provider_map providers_;
  tools::tool_registry tools_;
  std::vector<llm::tool_spec> dialog_specs_;  // every dialog tool, for this team (team_dialog_tool_specs)
  bool dominds_control_ = false;
  std::map<std::string, member_setup, std::less<>> members_;
  attachment_reader read_attachment_;
  tools::mcp::mcp_servers* mcp_ = nullptr;
  const std::vector<tools::protected_dir>* protected_dirs_ = nullptr;
  // Per member with MCP servers: its tool lists with its servers' tools, as of a pool version. A
  // new list is made only when the servers' tools differ, so that a prompt's version stays put.
  struct mcp_lists {
    std::uint64_t version = ~std::uint64_t{0};
    std::vector<llm::tool_spec> extra;
    llm::tool_list root;
    llm::tool_list sub;
  };
  mutable std::map<std::string, mcp_lists, std::less<>> mcp_lists_;
  // What replace took out: kept for the life of the roster (a few KB per reload of the team).
  struct retired_parts {
    provider_map providers;
    tools::tool_registry tools;
    std::vector<llm::tool_spec> dialog_specs;
    std::map<std::string, member_setup, std::less<>> members;
    std::map<std::string, mcp_lists, std::less<>> member_lists;
  };
  std::vector<std::unique_ptr<retired_parts>> retired_;
};

}  // namespace parley::engine
