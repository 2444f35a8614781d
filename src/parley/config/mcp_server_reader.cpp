// One `servers.<id>` entry of an MCP configuration, read as Dominds' loader reads it
// (dominds@1.29.0 dist/mcp/config.js parseServerConfig): how the server is reached (stdio or
// streamable HTTP) and Parley's limits, but strictly: unknown keys, the other transport's keys and
// values of the wrong type are refused, naming the key. The names and the manual are read by
// mcp_names_reader.cpp.
#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <algorithm>
#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "parley/config/mcp_reader.hpp"
#include "parley/config/team_rules.hpp"
#include "parley/config/yaml_value.hpp"
#include "parley/core/text.hpp"

namespace parley::config::detail {
namespace {

const std::vector<std::string> kServerKeys{
    "enabled", "truely-stateless", "transport",       "command",         "args",    "cwd",       "env",
    "url",     "headers",          "sessionId",       "tools",           "prompts", "resources", "transform",
    "manual",  "start_timeout_ms", "call_timeout_ms", "max_result_bytes"};
const std::vector<std::string> kStdioKeys{"command", "args", "cwd", "env"};
const std::vector<std::string> kHttpKeys{"url", "headers", "sessionId"};
const std::vector<std::string> kEnvRefKeys{"env"};
const std::vector<std::string> kHeaderRefKeys{"prefix", "env"};
// Headers the transport writes itself: the message framing, the connection, and MCP's own
// (`sessionId` gives the session; the protocol version is negotiated).
const std::vector<std::string> kTransportHeaders{
    "host",       "content-length",   "transfer-encoding", "connection",          "upgrade", "te", "trailer",
    "keep-alive", "proxy-connection", "mcp-session-id",    "mcp-protocol-version"};

// An environment variable's name: what execve and getenv can hold.
result<void> check_env_name(const map_reader& map, const map_reader::entry& item, std::string_view name, bool at_key) {
  std::string problem;
  if (name.empty()) problem = "an empty environment variable name";
  if (name.find('=') != std::string_view::npos) problem = "'=' in an environment variable name";
  if (const auto bad = first_control_character(name)) problem = *bad + " in an environment variable name";
  if (problem.empty()) return ok();
  return at_key ? map.fail_at_key(item, problem) : map.fail_at_value(item, problem);
}

// Any text but NUL, which ends a C string.
result<void> check_env_value(const map_reader& map, const map_reader::entry& item, std::string_view text) {
  if (text.find('\0') == std::string_view::npos) return ok();
  return map.fail_at_value(item, "a NUL character (not allowed in an environment value)");
}

// `{env: NAME}` (and for headers `prefix`): the mapping form of a value.
result<mcp_value_source> read_value_ref(const map_reader& values, const map_reader::entry& item, bool header,
                                        std::string_view expected) {
  auto opened = values.child_of(item, values.path_of(item.key));
  if (!opened) return std::move(opened).err();
  const map_reader& ref = *opened;
  PARLEY_TRY(ref.check_keys(header ? kHeaderRefKeys : kEnvRefKeys));
  mcp_value_source source;
  const map_reader::entry* name = ref.find("env");
  if (name == nullptr) return values.fail_at_value(item, "no 'env' (expected " + std::string(expected) + ")");
  PARLEY_TRY_ASSIGN(source.env_name, read_mcp_text(ref, *name, "the name of an environment variable"));
  PARLEY_TRY(check_env_name(ref, *name, source.env_name, /*at_key=*/false));
  if (const map_reader::entry* prefix = ref.find("prefix")) {
    if (!is_yaml_string(prefix->value)) return type_error(ref, *prefix, kMcpStringHint);
    source.prefix = prefix->value.Scalar();
    PARLEY_TRY(check_mcp_controls(ref, *prefix, source.prefix, "an HTTP header", "\t"));
  }
  return source;
}

// RFC 9110 token: what a header name may be made of.
bool is_header_token(std::string_view name) {
  constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [&](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           kSymbols.find(c) != std::string_view::npos;
  });
}

result<void> check_header_name(const map_reader& headers, const map_reader::entry& item,
                               const std::vector<mcp_named_value>& earlier) {
  if (!is_header_token(item.key)) {
    std::string problem = "invalid HTTP header name";
    if (const auto bad = first_control_character(item.key)) problem += " (" + *bad + ")";
    return headers.fail_at_key(item, problem + " (expected letters, digits and !#$%&'*+-.^_`|~)");
  }
  const std::string lower = ascii_lowercase(item.key);
  if (std::find(kTransportHeaders.begin(), kTransportHeaders.end(), lower) != kTransportHeaders.end()) {
    return headers.fail_at_key(item, "header '" + item.key + "' is written by the transport itself" +
                                         (lower == "mcp-session-id" ? " (give the session as sessionId)" : ""));
  }
  for (const auto& other : earlier) {
    if (iequals_ascii(other.name, item.key)) {
      return headers.fail_at_key(
          item, "header '" + item.key + "' given twice (as '" + other.name + "'; header names ignore case)");
    }
  }
  return ok();
}

// `env` (stdio) or `headers` (streamable_http): name → text or {env: NAME} ({prefix, env} too for
// headers).
result<std::vector<mcp_named_value>> read_named_values(const map_reader& server, std::string_view key) {
  const bool header = key == "headers";
  const std::string expected =
      header ? "a string, {env: NAME} or {prefix: 'Bearer ', env: NAME}" : "a string or {env: NAME}";
  std::vector<mcp_named_value> values;
  auto opened = server.child(key);
  if (!opened) return std::move(opened).err();
  if (!opened->has_value()) return values;
  const map_reader& map = **opened;
  PARLEY_TRY(map.check_unique(header ? "header" : "environment variable"));
  for (const auto& item : map.entries()) {
    if (header) {
      PARLEY_TRY(check_header_name(map, item, values));
    } else {
      PARLEY_TRY(check_env_name(map, item, item.key, /*at_key=*/true));
    }
    mcp_named_value value{item.key, {}};
    if (is_yaml_string(item.value)) {
      value.value.literal = item.value.Scalar();
      // A header value ends at CR or LF; an environment value at NUL.
      PARLEY_TRY(header ? check_mcp_controls(map, item, value.value.literal, "an HTTP header", "\t")
                        : check_env_value(map, item, value.value.literal));
    } else if (item.value.IsMap()) {
      PARLEY_TRY_ASSIGN(value.value, read_value_ref(map, item, header, expected));
    } else {
      return type_error(map, item, expected);
    }
    values.push_back(std::move(value));
  }
  return values;
}

// Dominds takes what `new URL()` accepts with an http: or https: scheme.
result<std::string> read_url(const map_reader& server) {
  const map_reader::entry* item = server.find("url");
  if (item == nullptr) return server.missing("url", "the http:// or https:// URL of the MCP endpoint");
  std::string written;
  PARLEY_TRY_ASSIGN(written, read_mcp_text(server, *item, "an http:// or https:// URL"));
  const std::string url(trim(written));
  const auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return server.fail_at_value(*item, "not a URL (expected an http:// or https:// URL)");
  const std::string scheme = ascii_lowercase(std::string(parsed->scheme()));
  if (scheme != "http" && scheme != "https") {
    return server.fail_at_value(*item, "scheme '" + scheme + "' (expected an http:// or https:// URL)");
  }
  if (!parsed->has_authority() || parsed->host().empty()) {
    return server.fail_at_value(*item, "no host (expected an http:// or https:// URL)");
  }
  if (parsed->has_port()) {
    const auto digits = parsed->port();
    unsigned port = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (ec != std::errc{} || end != digits.data() + digits.size() || port == 0 || port > 65535) {
      return server.fail_at_value(*item, "bad port '" + std::string(digits) + "' (expected 1 to 65535)");
    }
  }
  return url;
}

result<void> read_stdio(const map_reader& server, mcp_server_config& config) {
  const map_reader::entry* command = server.find("command");
  if (command == nullptr) return server.missing("command", "the program that runs the MCP server");
  PARLEY_TRY_ASSIGN(config.command, read_mcp_text(server, *command, "the program that runs the MCP server"));
  PARLEY_TRY(check_mcp_controls(server, *command, config.command, "a command"));
  PARLEY_TRY_ASSIGN(config.args, read_mcp_strings(server, "args", /*keep_blank=*/true, "an argument"));
  if (const map_reader::entry* cwd = server.find("cwd")) {
    std::string dir;
    PARLEY_TRY_ASSIGN(dir, read_mcp_text(server, *cwd, "a folder (relative to the workspace)"));
    PARLEY_TRY(check_mcp_controls(server, *cwd, dir, "a path"));
    config.cwd = std::string(trim(dir));
  }
  PARLEY_TRY_ASSIGN(config.env, read_named_values(server, "env"));
  return ok();
}

result<void> read_http(const map_reader& server, mcp_server_config& config) {
  PARLEY_TRY_ASSIGN(config.url, read_url(server));
  PARLEY_TRY_ASSIGN(config.headers, read_named_values(server, "headers"));
  if (const map_reader::entry* session = server.find("sessionId")) {
    PARLEY_TRY_ASSIGN(config.session_id, read_mcp_text(server, *session, "an MCP session id"));
    // The MCP spec: a session id holds visible ASCII only (it travels as a header).
    const bool visible =
        std::all_of(config.session_id.begin(), config.session_id.end(), [](char c) { return c > 0x20 && c < 0x7F; });
    if (!visible) return server.fail_at_value(*session, "not visible ASCII (expected an MCP session id)");
  }
  return ok();
}

// The keys of the other transport are refused rather than ignored: they would do nothing.
result<void> refuse_other_transport(const map_reader& server, mcp_transport transport) {
  const bool stdio = transport == mcp_transport::stdio;
  for (const auto& key : stdio ? kHttpKeys : kStdioKeys) {
    if (const map_reader::entry* item = server.find(key)) {
      return server.fail_at_key(*item, "key '" + key + "' applies to transport " +
                                           (stdio ? "streamable_http" : "stdio") + " only (this server's is " +
                                           (stdio ? "stdio" : "streamable_http") + ")");
    }
  }
  return ok();
}

// Parley's limits: a positive whole number up to `max`.
template <typename Out>
result<void> read_limit(const map_reader& server, std::string_view key, std::int64_t max, Out& out) {
  const map_reader::entry* item = server.find(key);
  if (item == nullptr) return ok();
  const typed_scalar value = resolve_scalar(item->value);
  if (!item->value.IsScalar() || value.kind != scalar_kind::integer || value.integer <= 0 || value.integer > max) {
    return type_error(server, *item, "a whole number from 1 to " + std::to_string(max));
  }
  out = Out(value.integer);
  return ok();
}

}  // namespace

bool is_yaml_string(const YAML::Node& node) {
  return node.IsScalar() && resolve_scalar(node).kind == scalar_kind::string;
}

error mcp_node_error(const map_reader& map, const YAML::Node& node, const std::string& path, std::string_view problem) {
  return yaml_error(map.file(), node.Mark(), path, problem);
}

error mcp_node_type_error(const map_reader& map, const YAML::Node& node, const std::string& path,
                          std::string_view expected) {
  return mcp_node_error(map, node, path, "got " + describe_node(node) + " (expected " + std::string(expected) + ")");
}

// A text value that must not be blank.
result<std::string> read_mcp_text(const map_reader& map, const map_reader::entry& item, std::string_view what) {
  if (!is_yaml_string(item.value)) return type_error(map, item, what);
  if (trim(item.value.Scalar()).empty()) return map.fail_at_value(item, "blank (expected " + std::string(what) + ")");
  return item.value.Scalar();
}

// `text` must have no control characters (`allowed` excepted), or it is refused at `item`.
result<void> check_mcp_controls(const map_reader& map, const map_reader::entry& item, std::string_view text,
                                std::string_view what, std::string_view allowed) {
  if (const auto bad = first_control_character(text, allowed)) {
    return map.fail_at_value(item, *bad + " (not allowed in " + std::string(what) + ")");
  }
  return ok();
}

// A list of strings; blank ones are dropped, as Dominds drops them, unless `keep_blank`.
result<std::vector<std::string>> read_mcp_strings(const map_reader& map, std::string_view key, bool keep_blank,
                                                  std::string_view controls_in) {
  std::vector<std::string> values;
  const map_reader::entry* item = map.find(key);
  if (item == nullptr) return values;
  if (!item->value.IsSequence()) return type_error(map, *item, "a list of strings");
  for (std::size_t i = 0; i < item->value.size(); ++i) {
    const YAML::Node element = item->value[i];
    const std::string path = map.path_of(key) + "[" + std::to_string(i) + "]";
    if (!is_yaml_string(element)) return mcp_node_type_error(map, element, path, kMcpStringHint);
    const std::string& text = element.Scalar();
    if (!controls_in.empty()) {
      if (const auto bad = first_control_character(text)) {
        return mcp_node_error(map, element, path, *bad + " (not allowed in " + std::string(controls_in) + ")");
      }
    }
    if (keep_blank || !trim(text).empty()) values.push_back(text);
  }
  return values;
}

result<mcp_server_config> read_mcp_server(const map_reader& map, const std::string& id) {
  PARLEY_TRY(map.check_keys(kServerKeys));
  mcp_server_config config;
  config.id = id;
  config.source = map.file();
  config.line = map.anchor().line < 0 ? 1 : map.anchor().line + 1;
  PARLEY_TRY(map.read("enabled", config.enabled));
  PARLEY_TRY(map.read("truely-stateless", config.truely_stateless));

  if (!map.has("transport")) return map.missing("transport", "stdio or streamable_http");
  std::string transport;
  PARLEY_TRY(read_choice(map, "transport", {"stdio", "streamable_http"}, transport));
  config.transport = transport == "stdio" ? mcp_transport::stdio : mcp_transport::streamable_http;
  PARLEY_TRY(refuse_other_transport(map, config.transport));
  PARLEY_TRY(config.transport == mcp_transport::stdio ? read_stdio(map, config) : read_http(map, config));

  PARLEY_TRY(read_mcp_names(map, config));

  PARLEY_TRY(read_limit(map, "start_timeout_ms", kMaxMcpStartTimeoutMs, config.start_timeout));
  PARLEY_TRY(read_limit(map, "call_timeout_ms", kMaxMcpCallTimeoutMs, config.call_timeout));
  PARLEY_TRY(read_limit(map, "max_result_bytes", kMaxMcpResultBytes, config.max_result_bytes));
  return config;
}

}  // namespace parley::config::detail
