// What an MCP server answers, as typed data (the MCP schema, revision 2025-11-25, read so that the
// older revisions Parley accepts read too): its tools, a tool call's result, its resources and
// prompts. result_reader.hpp reads them strictly from the server's JSON; nothing else in Parley
// sees the server's JSON.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace parley::tools::mcp {

// The revision Parley offers, and the older ones it accepts when a server answers with one (those
// the official TypeScript SDK still accepts, less 2024-10-07, which no released server speaks).
inline constexpr const char* kLatestProtocolVersion = "2025-11-25";
inline constexpr const char* kSupportedProtocolVersions[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
bool is_supported_protocol_version(std::string_view version);

struct server_identity {
  std::string protocol_version;
  std::string name;     // serverInfo.name
  std::string version;  // serverInfo.version
  std::string instructions;
  bool has_tools = false;  // capabilities
  bool has_resources = false;
  bool has_prompts = false;
};

struct tool_info {
  std::string name;
  std::string title;
  std::string description;
  boost::json::object input_schema;
};

// One block of a tool result (or of a prompt message).
struct content_block {
  enum class kind { text, image, audio, resource_link, resource };
  kind what = kind::text;
  std::string text;       // text; an embedded text resource
  std::string data;       // image, audio: base64; an embedded blob resource: base64
  std::string mime_type;  // image, audio, resource_link, resource (may be empty for the last two)
  std::string uri;        // resource_link, resource
  std::string name;       // resource_link
  std::string description;
  bool blob = false;  // resource: the embedded contents are binary (data), not text
};

struct tool_call_result {
  std::vector<content_block> content;
  bool is_error = false;
  std::optional<boost::json::object> structured_content;
};

struct resource_info {
  std::string uri;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
};

struct resource_template_info {
  std::string uri_template;
  std::string name;
  std::string title;
  std::string description;
  std::string mime_type;
};

struct resource_contents {
  std::string uri;
  std::string mime_type;
  std::string text;  // when !blob
  std::string blob;  // base64, when blob
  bool is_blob = false;
};

struct prompt_argument {
  std::string name;
  std::string description;
  bool required = false;
};

struct prompt_info {
  std::string name;
  std::string title;
  std::string description;
  std::vector<prompt_argument> arguments;
};

struct prompt_message {
  std::string role;  // user | assistant
  content_block content;
};

struct prompt_result {
  std::string description;
  std::vector<prompt_message> messages;
};

// A page of a list (`nextCursor` when there is more), with the entries that could not be read
// left out and named in `skipped` (one sentence each), so one bad entry costs only itself.
template <class T>
struct listed_page {
  std::vector<T> items;
  std::optional<std::string> next_cursor;
  std::vector<std::string> skipped;
};

}  // namespace parley::tools::mcp
