// A tool is a name, a description, a JSON schema for its arguments and an async invoke.
// Arguments are validated against the schema before invoke is called; a failing tool returns
// ok=false with text that tells the model what went wrong.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/json/object.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parley/access/access_rules.hpp"
#include "parley/access/shell_policy.hpp"
#include "parley/core/result.hpp"
#include "parley/core/tool_spec.hpp"

namespace parley::tools {

// A folder the file tools refuse wherever it is, inside the workspace or reached through a link:
// Parley's own data (the store, the uploads), which one write_file could otherwise destroy.
struct protected_dir {
  std::filesystem::path path;  // absolute; compared in canonical form
  std::string what;            // "Parley's data directory": how refusals name it
};

struct tool_context {
  std::string dialog_id;
  std::string member_id;
  std::filesystem::path workspace;  // file tools never leave it
  // The member's access rules; nullptr: none beyond the built-in denials. Owned by the caller,
  // which outlives the call (the engine's team).
  const access::access_rules* access = nullptr;
  // Refused to every file tool, reads and writes alike; nullptr: none. Owned by the caller.
  const std::vector<protected_dir>* protected_dirs = nullptr;
  // What its shell tools may run; nullptr: the defaults (no allow or deny patterns, no sandbox).
  const access::shell_policy* shell = nullptr;
  // Emitted when the dialog is stopped while its tools run: a running command is killed.
  boost::asio::cancellation_slot cancel;
  // The member's model takes images (team.yaml `vision`): read_file of a PNG or JPEG gives it the image.
  bool takes_images = false;
  // The call's idempotency key, the same on every process that runs this call from the log (after
  // a takeover, a restart or a resume): engine/idempotency_key.hpp. A tool with effects hands it
  // to whatever carries them out — the shell tools export it as PARLEY_IDEMPOTENCY_KEY; a tool
  // that calls a service over HTTP sends it as `Idempotency-Key` — so the effect can be
  // deduplicated: a call may run more than once, always with the same key. Empty outside a drive.
  std::string idempotency_key;
};

struct tool_outcome {
  bool ok = true;
  std::string content;
  // Images for the model beside `content` (read_file of a PNG for a member whose model sees).
  std::vector<media_part> media = {};
};

// The MCP server that carries out a tool's calls: its id in the configuration and its own name for
// the tool. Logged with every result of the tool (events::mcp_call).
struct mcp_origin {
  std::string server_id;
  std::string remote_name;
};

class tool {
 public:
  virtual ~tool() = default;
  virtual const tool_spec& spec() const = 0;
  virtual boost::asio::awaitable<tool_outcome> invoke(const boost::json::object& args, const tool_context& ctx) = 0;
  // Whether a call changes anything outside the log (files, other systems). The model output that
  // made such a call is durable before it runs (write-ahead). A tool that only reads may run at
  // once: if the process dies before the output is durable, the call simply was never made.
  // A call with effects whose result is not durable when its process dies is run again by the
  // process that goes on with the tree, with the same tool_context::idempotency_key: at least
  // once, never silently dropped — unless rerun_after_crash says no.
  virtual bool has_effects() const { return true; }
  // Whether such a call, left without a result by the process that ran it, is run again. A tool
  // that has nowhere to carry the idempotency key, so that nothing can deduplicate its effect (an
  // MCP server's: the protocol has no field for it), says no: recovery records a failed result
  // that says the call was interrupted by a restart, and the model decides whether to repeat it.
  virtual bool rerun_after_crash() const { return true; }
  // The MCP server behind the tool; nullptr for Parley's own tools.
  virtual const mcp_origin* mcp() const { return nullptr; }
};

class tool_registry {
 public:
  // Replaces any tool of the same name.
  void add(std::unique_ptr<tool> t);
  // A tool whose schema comes from outside Parley (an MCP server's): added only when its schema is
  // one the argument checks enforce whole (schema_check.hpp); the error names the tool, the
  // keyword and where it is.
  result<void> add_checked(std::unique_ptr<tool> t);
  tool* find(std::string_view name) const;
  std::vector<std::string> names() const;
  // Takes a tool out (nullptr when absent): how a tool offered under the same name with other
  // arguments wraps the one it replaces (Dominds' read_file, shell_cmd ...: dominds_tools.hpp).
  std::unique_ptr<tool> release(std::string_view name);
  // Named groups of tools a member can be given at once (Dominds "toolsets"). A toolset added
  // `in_wildcard` is one of those a member's `toolsets: ["*"]` stands for (Dominds' names).
  void add_toolset(std::string name, std::vector<std::string> tool_names, bool in_wildcard = false);
  const std::vector<std::string>* toolset(std::string_view name) const;
  std::vector<std::string> toolset_names() const;
  // A toolset name a team may write (a Dominds one) that Parley has no tools for: naming it is an
  // error that says what is missing, rather than "unknown toolset".
  void add_unavailable_toolset(std::string name, std::string missing);
  const std::string* unavailable_toolset(std::string_view name) const;
  // The tool names a member's `toolsets:` list stands for, in order and each once: `*` is every
  // wildcard toolset, `!name` leaves `name` out (as Dominds resolves them). The error is a
  // sentence naming the toolset and what is wrong.
  result<std::vector<std::string>> resolve_toolsets(const std::vector<std::string>& names) const;

 private:
  struct toolset_entry {
    std::vector<std::string> tool_names;
    bool in_wildcard = false;
  };
  std::map<std::string, std::unique_ptr<tool>, std::less<>> tools_;
  std::map<std::string, toolset_entry, std::less<>> toolsets_;
  std::map<std::string, std::string, std::less<>> unavailable_toolsets_;
};

}  // namespace parley::tools
