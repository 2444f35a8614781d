// The MCP server configuration: Dominds' `.minds/mcp.yaml` read as it is, Parley's extra keys, the
// one-line errors (file:line:column: key: problem), and how a wrong server or a wrong file
// surfaces in both team loaders.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "parley/config/mcp_config.hpp"
#include "parley/config/team.hpp"
#include "temp_tree.hpp"

namespace parley::config {
namespace {

using testing::temp_tree;
using namespace std::chrono_literals;

class McpConfig : public ::testing::Test {
 protected:
  result<mcp_config> read(std::string_view text) { return read_mcp_file(tree_.write("mcp.yaml", text)); }

  // The one problem of the one server of `text`; the file itself must be accepted.
  std::string problem_of(std::string_view text) {
    auto config = read(text);
    if (!config) {
      ADD_FAILURE() << "the whole file was refused: " << config.err().message;
      return {};
    }
    EXPECT_TRUE(config->servers.empty());
    EXPECT_EQ(config->refused.size(), 1U);
    if (config->problems.size() != 1U) {
      ADD_FAILURE() << "expected one problem, got " << config->problems.size();
      return {};
    }
    EXPECT_EQ(config->refused[0].problem, config->problems[0]);
    return config->problems[0];
  }

  // The error that refuses the whole of `text`.
  std::string error_of(std::string_view text) {
    auto config = read(text);
    if (config) {
      ADD_FAILURE() << "expected the file to be refused, it was read";
      return {};
    }
    EXPECT_EQ(config.err().code, errc::config_error);
    return config.err().message;
  }

  std::string at(std::string_view position) const {
    return (tree_.root() / "mcp.yaml").string() + ":" + std::string(position) + ": ";
  }

  temp_tree tree_;
};

// Every bad-server test below appends to this file; its line numbers are the ones asserted.
//  1 version: 1
//  2 servers:
//  3   fs:
//  4     transport: stdio
//  5     command: node
constexpr std::string_view kStdioServer = R"(version: 1
servers:
  fs:
    transport: stdio
    command: node
)";
//  3   web:
//  4     transport: streamable_http
//  5     url: https://mcp.example.com/mcp
constexpr std::string_view kHttpServer = R"(version: 1
servers:
  web:
    transport: streamable_http
    url: https://mcp.example.com/mcp
)";

std::string with(std::string_view base, std::string_view more) { return std::string(base) + std::string(more); }

TEST_F(McpConfig, DomindsDocumentationExamplesReadToTheirValues) {
  const std::filesystem::path file =
      std::filesystem::path(PARLEY_SOURCE_DIR) / "tests/unit/config/mcp_examples/dominds_docs.yaml";
  auto config = read_mcp_file(file);
  ASSERT_TRUE(config) << config.err().message;
  EXPECT_EQ(config->source, file);
  EXPECT_TRUE(config->problems.empty());
  EXPECT_TRUE(config->disabled.empty());
  ASSERT_EQ(config->servers.size(), 2U);

  const mcp_server_config& playwright = config->servers[0];
  EXPECT_EQ(playwright.id, "playwright");
  EXPECT_TRUE(playwright.enabled);
  EXPECT_FALSE(playwright.truely_stateless);
  EXPECT_EQ(playwright.transport, mcp_transport::stdio);
  EXPECT_EQ(playwright.command, "npx");
  EXPECT_EQ(playwright.args, (std::vector<std::string>{"-y", "@playwright/mcp@latest"}));
  EXPECT_EQ(playwright.cwd, std::filesystem::path("."));
  EXPECT_TRUE(playwright.env.empty());
  EXPECT_EQ(playwright.tools.whitelist, (std::vector<std::string>{"browser_*", "page_*"}));
  EXPECT_EQ(playwright.tools.blacklist, (std::vector<std::string>{"*_unsafe"}));
  EXPECT_FALSE(playwright.tools.transform.has_value());  // inherits the server's
  ASSERT_EQ(playwright.transform.size(), 1U);
  EXPECT_EQ(playwright.transform[0].what, mcp_name_transform::kind::prefix_add);
  EXPECT_EQ(playwright.transform[0].add, "playwright_");
  EXPECT_EQ(playwright.source, file);
  EXPECT_EQ(playwright.line, 6);
  // Parley's limits, not given: their defaults.
  EXPECT_EQ(playwright.start_timeout, 30s);
  EXPECT_EQ(playwright.call_timeout, 120s);
  EXPECT_EQ(playwright.max_result_bytes, std::size_t{1} << 20);

  const mcp_server_config& workstation = config->servers[1];
  EXPECT_EQ(workstation.id, "workstation");
  EXPECT_EQ(workstation.transport, mcp_transport::streamable_http);
  EXPECT_EQ(workstation.url, "http://127.0.0.1:43178/mcp");
  ASSERT_EQ(workstation.headers.size(), 1U);
  EXPECT_EQ(workstation.headers[0].name, "Authorization");
  EXPECT_EQ(workstation.headers[0].value.literal, "Bearer dw");
  EXPECT_FALSE(workstation.headers[0].value.from_env());
  ASSERT_EQ(workstation.transform.size(), 1U);
  EXPECT_EQ(workstation.transform[0].add, "workstation_");
  EXPECT_EQ(workstation.prompts.whitelist, (std::vector<std::string>{"workstation.*"}));
  EXPECT_FALSE(workstation.prompts.transform.has_value());
  EXPECT_EQ(workstation.resources.whitelist,
            (std::vector<std::string>{"workstation-handbook://*", "workstation-skill://*"}));
  EXPECT_EQ(workstation.resources.blacklist, (std::vector<std::string>{"*secret*"}));
  EXPECT_EQ(workstation.resource_mime_types, (std::vector<std::string>{"text/markdown", "text/plain"}));
  EXPECT_EQ(workstation.resource_max_bytes, std::optional<std::size_t>{50000});
  EXPECT_TRUE(workstation.resource_skills.enabled);
  EXPECT_EQ(workstation.resource_skills.filter.whitelist, (std::vector<std::string>{"workstation-skill://*"}));
  EXPECT_EQ(config->find("workstation"), &config->servers[1]);
  EXPECT_EQ(config->find("nothing"), nullptr);
}

// docs/mcp.md's example, which shows every key, is a valid file.
TEST_F(McpConfig, DocumentedExampleReads) {
  std::ifstream doc(std::filesystem::path(PARLEY_SOURCE_DIR) / "docs/mcp.md");
  ASSERT_TRUE(doc.good());
  const std::string text{std::istreambuf_iterator<char>(doc), std::istreambuf_iterator<char>()};
  const auto start = text.find("```yaml\n");
  ASSERT_NE(start, std::string::npos);
  const auto end = text.find("```\n", start + 8);
  ASSERT_NE(end, std::string::npos);
  auto config = read(text.substr(start + 8, end - start - 8));
  ASSERT_TRUE(config) << config.err().message;
  EXPECT_TRUE(config->problems.empty()) << config->problems.front();
  ASSERT_EQ(config->servers.size(), 2U);
  EXPECT_EQ(config->servers[0].manual_content_file, std::filesystem::path(".minds/manuals/files"));
  EXPECT_EQ(config->servers[1].headers.size(), 3U);
}

TEST_F(McpConfig, EveryOtherKeyReadsToItsValue) {
  auto config = read(R"(version: 1
servers:
  local:
    enabled: true
    truely-stateless: true
    transport: stdio
    command: /usr/bin/env
    args: [node, server.js, '']
    cwd: ' tools/mcp '
    env:
      PLAIN: 'some value'
      MULTI: "line one\nline two"
      TOKEN: {env: HOST_TOKEN}
    transform:
      - prefix: {remove: 'stock_', add: 'my_'}
      - suffix: '_local'
    tools:
      whitelist: ['read_*', '  ']
      transform: []
    prompts:
      blacklist: ['secret_*']
      transform:
        - prefix: 'prompt_'
    resources:
      skills:
        enabled: false
        transform:
          - suffix: '_skill'
    manual:
      content: "  What it is for.  "
      contentFile: .minds/manuals/local
      sections:
        - title: When To Use
          content: Use when reading.
    start_timeout_ms: 5000
    call_timeout_ms: 600000
    max_result_bytes: 65536
  remote:
    transport: streamable_http
    url: ' https://mcp.example.com:8443/v1/mcp?x=1 '
    sessionId: abc-123
    headers:
      Authorization: {prefix: 'Bearer ', env: MCP_TOKEN}
      X-Key: {env: MCP_KEY}
      X-Client-Name: parley
    manual:
      sections:
        Guardrails: Never write.
        Errors: Retry once.
  short:
    transport: stdio
    command: npx
    manual: '  Short note.  '
)");
  ASSERT_TRUE(config) << config.err().message;
  EXPECT_TRUE(config->problems.empty()) << config->problems[0];
  ASSERT_EQ(config->servers.size(), 3U);

  const mcp_server_config& local = config->servers[0];
  EXPECT_TRUE(local.truely_stateless);
  EXPECT_EQ(local.command, "/usr/bin/env");
  EXPECT_EQ(local.args, (std::vector<std::string>{"node", "server.js", ""}));  // an empty argument is one
  EXPECT_EQ(local.cwd, std::filesystem::path("tools/mcp"));  // trimmed, as Dominds trims it; still relative
  ASSERT_EQ(local.env.size(), 3U);
  EXPECT_EQ(local.env[0].name, "PLAIN");
  EXPECT_EQ(local.env[0].value.literal, "some value");
  EXPECT_EQ(local.env[1].value.literal, "line one\nline two");
  EXPECT_EQ(local.env[2].name, "TOKEN");
  EXPECT_TRUE(local.env[2].value.from_env());
  EXPECT_EQ(local.env[2].value.env_name, "HOST_TOKEN");
  ASSERT_EQ(local.transform.size(), 2U);
  EXPECT_EQ(local.transform[0].what, mcp_name_transform::kind::prefix_replace);
  EXPECT_EQ(local.transform[0].remove, "stock_");
  EXPECT_EQ(local.transform[0].add, "my_");
  EXPECT_EQ(local.transform[1].what, mcp_name_transform::kind::suffix_add);
  EXPECT_EQ(local.transform[1].add, "_local");
  EXPECT_EQ(local.tools.whitelist, (std::vector<std::string>{"read_*"}));  // blank patterns dropped
  ASSERT_TRUE(local.tools.transform.has_value());  // `[]`: no transform for tools, not the server's
  EXPECT_TRUE(local.tools.transform->empty());
  EXPECT_EQ(local.prompts.blacklist, (std::vector<std::string>{"secret_*"}));
  ASSERT_TRUE(local.prompts.transform.has_value());
  EXPECT_EQ(local.prompts.transform->at(0).add, "prompt_");
  EXPECT_FALSE(local.resources.transform.has_value());
  EXPECT_FALSE(local.resource_skills.enabled);
  ASSERT_TRUE(local.resource_skills.filter.transform.has_value());
  EXPECT_EQ(local.resource_skills.filter.transform->at(0).what, mcp_name_transform::kind::suffix_add);
  EXPECT_EQ(local.manual, "What it is for.\n\n#### When To Use\n\nUse when reading.");
  EXPECT_EQ(local.manual_content_file, std::filesystem::path(".minds/manuals/local"));
  EXPECT_EQ(local.start_timeout, 5000ms);
  EXPECT_EQ(local.call_timeout, 600000ms);
  EXPECT_EQ(local.max_result_bytes, 65536U);

  const mcp_server_config& remote = config->servers[1];
  EXPECT_EQ(remote.url, "https://mcp.example.com:8443/v1/mcp?x=1");
  EXPECT_EQ(remote.session_id, "abc-123");
  ASSERT_EQ(remote.headers.size(), 3U);
  EXPECT_EQ(remote.headers[0].value.prefix, "Bearer ");
  EXPECT_EQ(remote.headers[0].value.env_name, "MCP_TOKEN");
  EXPECT_EQ(remote.headers[1].value.prefix, "");
  EXPECT_EQ(remote.headers[1].value.env_name, "MCP_KEY");
  EXPECT_EQ(remote.headers[2].value.literal, "parley");
  EXPECT_EQ(remote.manual, "#### Guardrails\n\nNever write.\n\n#### Errors\n\nRetry once.");

  EXPECT_EQ(config->servers[2].manual, "Short note.");
}

TEST_F(McpConfig, MissingFileIsNoServersNotAnError) {
  auto config = read_mcp_file(tree_.root() / "none" / "mcp.yaml");
  ASSERT_TRUE(config) << config.err().message;
  EXPECT_TRUE(config->source.empty());
  EXPECT_TRUE(config->servers.empty());
  EXPECT_TRUE(config->problems.empty());
}

TEST_F(McpConfig, FileWithoutServersHasNone) {
  auto config = read("version: 1\n");
  ASSERT_TRUE(config) << config.err().message;
  EXPECT_TRUE(config->servers.empty());
  EXPECT_EQ(config->source, tree_.root() / "mcp.yaml");
}

TEST_F(McpConfig, DisabledServersAreListedNotStarted) {
  auto config = read(R"(version: 1
servers:
  off:
    enabled: false
    transport: stdio
    command: node
  on:
    transport: stdio
    command: node
  parked:
    enabled: false
    transport: stdio
)");
  ASSERT_TRUE(config) << config.err().message;
  EXPECT_EQ(config->disabled, std::vector<std::string>{"off"});
  ASSERT_EQ(config->servers.size(), 1U);
  EXPECT_EQ(config->servers[0].id, "on");
  EXPECT_EQ(config->find("off"), nullptr);
  // A disabled server is checked all the same (Dominds would skip it): wrong, it is refused.
  ASSERT_EQ(config->refused.size(), 1U);
  EXPECT_EQ(config->refused[0].id, "parked");
}

TEST_F(McpConfig, OneWrongServerLeavesTheOthersLoaded) {
  auto config = read(R"(version: 1
servers:
  first:
    transport: stdio
    command: node
  broken:
    transport: stdio
  last:
    transport: streamable_http
    url: http://localhost:3000/mcp
)");
  ASSERT_TRUE(config) << config.err().message;
  ASSERT_EQ(config->servers.size(), 2U);
  EXPECT_EQ(config->servers[0].id, "first");
  EXPECT_EQ(config->servers[1].id, "last");
  ASSERT_EQ(config->refused.size(), 1U);
  EXPECT_EQ(config->refused[0].id, "broken");
  EXPECT_EQ(config->problems,
            std::vector<std::string>{at("6:3") +
                                     "servers.broken: missing required key 'command' (expected the program that runs "
                                     "the MCP server)"});
}

// --- A server refused, with its one line -------------------------------------------------------

TEST_F(McpConfig, UnknownKeyRefusesTheServer) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    argz: [x]\n")),
            at("6:5") + "servers.fs.argz: unknown key 'argz' (did you mean 'args'?)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    tools: {whitelist: [a], allow: [b]}\n")),
            at("6:29") +
                "servers.fs.tools.allow: unknown key 'allow' (expected one of: whitelist, blacklist or "
                "transform)");
}

TEST_F(McpConfig, MissingTransportOrCommand) {
  EXPECT_EQ(problem_of("version: 1\nservers:\n  fs:\n    command: node\n"),
            at("3:3") + "servers.fs: missing required key 'transport' (expected stdio or streamable_http)");
  EXPECT_EQ(problem_of("version: 1\nservers:\n  fs:\n    transport: sse\n    url: http://x/\n"),
            at("4:16") + "servers.fs.transport: unknown transport 'sse' (expected one of: stdio or streamable_http)");
  EXPECT_EQ(problem_of("version: 1\nservers:\n  fs:\n    transport: stdio\n"),
            at("3:3") + "servers.fs: missing required key 'command' (expected the program that runs the MCP server)");
  EXPECT_EQ(problem_of("version: 1\nservers:\n  fs:\n    transport: stdio\n    command: '  '\n"),
            at("5:14") + "servers.fs.command: blank (expected the program that runs the MCP server)");
}

TEST_F(McpConfig, KeysOfTheOtherTransportAreRefused) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    url: http://localhost:3000/mcp\n")),
            at("6:5") + "servers.fs.url: key 'url' applies to transport streamable_http only (this server's is stdio)");
  EXPECT_EQ(problem_of(with(kHttpServer, "    command: node\n")),
            at("6:5") +
                "servers.web.command: key 'command' applies to transport stdio only (this server's is "
                "streamable_http)");
}

TEST_F(McpConfig, UrlMustBeHttpOrHttps) {
  const std::string head = "version: 1\nservers:\n  web:\n    transport: streamable_http\n";
  EXPECT_EQ(problem_of(head + "    url: ftp://files.example.com/mcp\n"),
            at("5:10") + "servers.web.url: scheme 'ftp' (expected an http:// or https:// URL)");
  EXPECT_EQ(problem_of(head + "    url: not a url\n"),
            at("5:10") + "servers.web.url: not a URL (expected an http:// or https:// URL)");
  EXPECT_EQ(problem_of(head + "    url: 'http:///mcp'\n"),
            at("5:10") + "servers.web.url: no host (expected an http:// or https:// URL)");
  EXPECT_EQ(problem_of(head + "    url: 'http://localhost:70000/mcp'\n"),
            at("5:10") + "servers.web.url: bad port '70000' (expected 1 to 65535)");
  EXPECT_EQ(problem_of(head),
            at("3:3") +
                "servers.web: missing required key 'url' (expected the http:// or https:// URL of the MCP "
                "endpoint)");
}

TEST_F(McpConfig, ArgsMustBeAListOfStrings) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    args: -y\n")),
            at("6:11") + "servers.fs.args: got '-y' (expected a list of strings)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    args: [server.js, {port: 1}]\n")),
            at("6:23") + "servers.fs.args[1]: got a mapping (expected a string; quote numbers and booleans)");
  // JavaScript sees a number here, and Dominds refuses it; so does Parley, saying how to write it.
  EXPECT_EQ(problem_of(with(kStdioServer, "    args: [--port, 8080]\n")),
            at("6:20") + "servers.fs.args[1]: got '8080' (expected a string; quote numbers and booleans)");
}

TEST_F(McpConfig, EnvValueIsTextOrEnvReference) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    env:\n      PORT: [1]\n")),
            at("7:13") + "servers.fs.env.PORT: got a list (expected a string or {env: NAME})");
  EXPECT_EQ(problem_of(with(kStdioServer, "    env:\n      TOKEN: {name: HOST}\n")),
            at("7:15") + "servers.fs.env.TOKEN.name: unknown key 'name' (expected one of: env)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    env:\n      TOKEN: {}\n")),
            at("7:14") + "servers.fs.env.TOKEN: no 'env' (expected a string or {env: NAME})");
  EXPECT_EQ(problem_of(with(kStdioServer, "    env:\n      PORT: 8080\n")),
            at("7:13") + "servers.fs.env.PORT: got '8080' (expected a string or {env: NAME})");
  EXPECT_EQ(problem_of(with(kStdioServer, "    env:\n      'A=B': x\n")),
            at("7:7") + "servers.fs.env.A=B: '=' in an environment variable name");
}

TEST_F(McpConfig, EnabledMustBeABoolean) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    enabled: maybe\n")),
            at("6:14") + "servers.fs.enabled: got 'maybe' (expected true or false)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    truely-stateless: 'yes'\n")),
            at("6:23") + "servers.fs.truely-stateless: got 'yes' (expected true or false)");
}

TEST_F(McpConfig, TransformEntryNeedsPrefixOrSuffix) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    transform:\n      - {}\n")),
            at("7:9") + "servers.fs.transform[0]: neither 'prefix' nor 'suffix' (expected one of them)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    transform:\n      - infix: x\n")),
            at("7:9") + "servers.fs.transform[0].infix: unknown key 'infix' (expected one of: prefix or suffix)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    transform:\n      - {prefix: a_, suffix: _b}\n")),
            at("7:9") + "servers.fs.transform[0]: both 'prefix' and 'suffix' (expected one per entry)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    transform:\n      - prefix: {add: x_}\n")),
            at("7:9") +
                "servers.fs.transform[0].prefix: missing required key 'remove' (expected a string (may be "
                "empty: ''))");
  EXPECT_EQ(problem_of(with(kStdioServer, "    transform:\n      - prefix:\n")),
            at("7:9") + "servers.fs.transform[0].prefix: got null (expected a string or {remove: '...', add: '...'})");
  EXPECT_EQ(problem_of(with(kStdioServer, "    transform: {prefix: x_}\n")),
            at("6:16") +
                "servers.fs.transform: got a mapping (expected a list of {prefix: ...} or {suffix: ...} "
                "entries)");
}

TEST_F(McpConfig, ManualIsTextOrContentSections) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    manual: {}\n")),
            at("6:5") + "servers.fs.manual: no 'content', 'contentFile' or 'sections' (expected at least one)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    manual: {content: x, title: y}\n")),
            at("6:26") +
                "servers.fs.manual.title: unknown key 'title' (expected one of: content, contentFile or "
                "sections)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    manual:\n      sections:\n        - title: T\n")),
            at("8:11") + "servers.fs.manual.sections[0]: missing required key 'content' (expected non-blank text)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    manual: [a]\n")),
            at("6:13") + "servers.fs.manual: got a list (expected text, or {content, contentFile, sections})");
}

TEST_F(McpConfig, ParleyLimitsArePositiveAndBounded) {
  EXPECT_EQ(problem_of(with(kStdioServer, "    call_timeout_ms: 0\n")),
            at("6:22") + "servers.fs.call_timeout_ms: got '0' (expected a whole number from 1 to 3600000)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    start_timeout_ms: 600001\n")),
            at("6:23") + "servers.fs.start_timeout_ms: got '600001' (expected a whole number from 1 to 600000)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    max_result_bytes: 1.5\n")),
            at("6:23") + "servers.fs.max_result_bytes: got '1.5' (expected a whole number from 1 to 67108864)");
}

TEST_F(McpConfig, ControlCharactersAreRefused) {
  EXPECT_EQ(problem_of("version: 1\nservers:\n  fs:\n    transport: stdio\n    command: \"node\\e[2J\"\n"),
            at("5:14") + "servers.fs.command: control character U+001B at byte 4 (not allowed in a command)");
  EXPECT_EQ(problem_of(with(kStdioServer, "    args: [\"a\\tb\"]\n")),
            at("6:12") + "servers.fs.args[0]: control character U+0009 at byte 1 (not allowed in an argument)");
  EXPECT_EQ(problem_of(with(kHttpServer, "    headers:\n      X-Name: \"a\\r\\nInjected: yes\"\n")),
            at("7:15") +
                "servers.web.headers.X-Name: control character U+000D at byte 1 (not allowed in an HTTP "
                "header)");
  EXPECT_EQ(problem_of(with(kHttpServer, "    headers:\n      'X Name': a\n")),
            at("7:7") +
                "servers.web.headers.X Name: invalid HTTP header name (expected letters, digits and "
                "!#$%&'*+-.^_`|~)");
}

TEST_F(McpConfig, HeadersTheTransportWritesAreRefused) {
  EXPECT_EQ(problem_of(with(kHttpServer, "    headers:\n      Content-Length: '5'\n")),
            at("7:7") +
                "servers.web.headers.Content-Length: header 'Content-Length' is written by the transport "
                "itself");
  EXPECT_EQ(problem_of(with(kHttpServer, "    headers:\n      X-A: a\n      x-a: b\n")),
            at("8:7") + "servers.web.headers.x-a: header 'x-a' given twice (as 'X-A'; header names ignore case)");
  EXPECT_EQ(problem_of(with(kHttpServer, "    headers:\n      Authorization: {prefix: 'Bearer '}\n")),
            at("7:22") +
                "servers.web.headers.Authorization: no 'env' (expected a string, {env: NAME} or {prefix: "
                "'Bearer ', env: NAME})");
}

TEST_F(McpConfig, ServerIdsAreToolsetNames) {
  EXPECT_EQ(problem_of("version: 1\nservers:\n  'my server':\n    transport: stdio\n    command: node\n"),
            at("3:3") +
                "servers.my server: invalid server id 'my server' (expected 1 to 64 letters, digits, '_' or "
                "'-': it is the toolset name)");
  EXPECT_FALSE(problem_of("version: 1\nservers:\n  " + std::string(65, 'a') + ":\n    transport: stdio\n").empty());
}

// --- The whole file refused --------------------------------------------------------------------

TEST_F(McpConfig, VersionMustBeOne) {
  EXPECT_EQ(error_of("version: 2\nservers: {}\n"),
            at("1:10") + "version: got '2' (expected 1, the only version of this format)");
  EXPECT_EQ(error_of("version: '1'\nservers: {}\n"),
            at("1:10") + "version: got '1' (expected 1, the only version of this format)");
  EXPECT_EQ(error_of("servers: {}\n"), at("1:1") + "missing required key 'version' (expected 1)");
  EXPECT_EQ(error_of(""), at("1:1") + "missing required key 'version' (expected 1)");
}

TEST_F(McpConfig, NotYamlIsRefused) {
  EXPECT_EQ(error_of("version: 1\nservers: {fs: [\n"), at("3:1") + "YAML syntax error: end of sequence flow not found");
  EXPECT_EQ(error_of("- version\n"), at("1:1") + "got a list (expected a mapping)");
}

TEST_F(McpConfig, UnknownTopLevelKeyIsRefused) {
  EXPECT_EQ(error_of("version: 1\nserver:\n  fs: {}\n"),
            at("2:1") + "server: unknown key 'server' (did you mean 'servers'?)");
}

TEST_F(McpConfig, ServersMustBeAMapping) {
  EXPECT_EQ(error_of("version: 1\nservers: [fs]\n"), at("2:10") + "servers: got a list (expected a mapping)");
}

TEST_F(McpConfig, DuplicateServerIdIsRefused) {
  EXPECT_EQ(error_of(R"(version: 1
servers:
  fs:
    transport: stdio
    command: node
  fs:
    transport: stdio
    command: npx
)"),
            at("6:3") + "servers.fs: duplicate server id 'fs' (first defined at 3:3)");
}

// --- In the team loaders -----------------------------------------------------------------------

constexpr std::string_view kWorkspaceTeam = "members:\n  alice:\n    provider: local\n    model: m\n";
constexpr std::string_view kWorkspaceLlm = R"(providers:
  local:
    apiType: openai-compatible
    baseUrl: http://127.0.0.1:1234/v1
    apiKeyEnvVar: LOCAL_KEY
    models:
      m: {}
)";

class McpInTeams : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("LANG", "C.UTF-8", 1);
    tree_.write(".minds/team.yaml", kWorkspaceTeam);
    tree_.write(".minds/llm.yaml", kWorkspaceLlm);
    tree_.write("script.yaml", "turns: []\n");
  }

  std::string minds_file(std::string_view name) const { return (tree_.root() / ".minds" / name).string(); }

  temp_tree tree_;
};

TEST_F(McpInTeams, DomindsWorkspaceReadsMcpYaml) {
  tree_.write(".minds/mcp.yaml", R"(version: 1
servers:
  files:
    transport: stdio
    command: npx
    args: ['-y', '@modelcontextprotocol/server-filesystem', '.']
  parked:
    enabled: false
    transport: stdio
    command: npx
)");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->mcp.source, tree_.root() / ".minds" / "mcp.yaml");
  ASSERT_EQ(team->mcp.servers.size(), 1U);
  EXPECT_EQ(team->mcp.servers[0].id, "files");
  EXPECT_EQ(team->mcp.servers[0].args.back(), ".");
  EXPECT_EQ(team->mcp.disabled, std::vector<std::string>{"parked"});
  EXPECT_TRUE(team->problems.empty());
}

TEST_F(McpInTeams, DomindsWorkspaceWithoutMcpYamlHasNoServers) {
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_TRUE(team->mcp.servers.empty());
  EXPECT_TRUE(team->mcp.source.empty());
  EXPECT_TRUE(team->problems.empty());
}

TEST_F(McpInTeams, DomindsWorkspaceSaysAWrongServerOnceAndKeepsTheOthers) {
  tree_.write(".minds/mcp.yaml", R"(version: 1
servers:
  files:
    transport: stdio
    command: npx
  web:
    transport: streamable_http
    url: ftp://example.com/mcp
)");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  ASSERT_EQ(team->mcp.servers.size(), 1U);
  EXPECT_EQ(team->mcp.servers[0].id, "files");
  ASSERT_EQ(team->mcp.refused.size(), 1U);
  EXPECT_EQ(team->mcp.refused[0].id, "web");
  EXPECT_EQ(
      problem_texts(team->problems),
      std::vector<std::string>{minds_file("mcp.yaml") +
                               ":8:10: servers.web.url: scheme 'ftp' (expected an http:// or https:// URL) (MCP server "
                               "'web' is refused: its toolset gives no tools)"});
}

// Dominds runs without MCP when mcp.yaml is refused whole, and says so as a Problem: so does Parley.
TEST_F(McpInTeams, DomindsWorkspaceWithARefusedFileLoadsWithoutServers) {
  tree_.write(".minds/mcp.yaml", "version: 2\nservers:\n  files:\n    transport: stdio\n    command: npx\n");
  auto team = load_dominds_workspace(tree_.root());
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_TRUE(team->mcp.servers.empty());
  EXPECT_EQ(problem_texts(team->problems),
            std::vector<std::string>{minds_file("mcp.yaml") +
                                     ":1:10: version: got '2' (expected 1, the only version of this format) (the "
                                     "whole file is refused: no MCP server is used)"});
}

constexpr std::string_view kParleyTeam = R"(providers:
  offline: {kind: scripted, script: script.yaml}
members:
  lead: {persona: "You lead.", provider: offline, model: scripted-1, toolsets: [files]}
)";

TEST_F(McpInTeams, TeamFileInlineSection) {
  const auto file = tree_.write("team.yaml", std::string(kParleyTeam) + R"(mcp:
  servers:
    files:
      transport: stdio
      command: npx
      call_timeout_ms: 1000
    broken:
      transport: stdio
      comand: npx
)");
  auto team = load_team_file(file);
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->mcp.source, file);
  ASSERT_EQ(team->mcp.servers.size(), 1U);
  EXPECT_EQ(team->mcp.servers[0].call_timeout, 1000ms);
  EXPECT_EQ(team->mcp.servers[0].line, 7);
  EXPECT_EQ(problem_texts(team->problems),
            std::vector<std::string>{file.string() +
                                     ":13:7: mcp.servers.broken.comand: unknown key 'comand' (did you mean "
                                     "'command'?) (MCP server 'broken' is refused: its toolset gives no tools)"});
}

// In Parley's own file, what refuses the whole section refuses the team, as any other error there.
TEST_F(McpInTeams, TeamFileInlineSectionRefusedWhole) {
  const auto file = tree_.write("team.yaml", std::string(kParleyTeam) + "mcp:\n  version: 2\n");
  auto team = load_team_file(file);
  ASSERT_FALSE(team);
  EXPECT_EQ(team.err().message,
            file.string() + ":6:12: mcp.version: got '2' (expected 1, the only version of this format)");
  auto listed = load_team_file(tree_.write("team.yaml", std::string(kParleyTeam) + "mcp: [files]\n"));
  ASSERT_FALSE(listed);
  EXPECT_EQ(listed.err().message,
            file.string() + ":5:6: mcp: got a list (expected a mapping with `servers:`, or the path of an mcp.yaml)");
}

TEST_F(McpInTeams, TeamFileNamesAnMcpYaml) {
  tree_.write("conf/mcp.yaml", "version: 1\nservers:\n  files:\n    transport: stdio\n    command: npx\n");
  const auto file = tree_.write("team.yaml", std::string(kParleyTeam) + "mcp: conf/mcp.yaml\n");
  auto team = load_team_file(file);
  ASSERT_TRUE(team) << team.err().message;
  EXPECT_EQ(team->mcp.source, tree_.root() / "conf" / "mcp.yaml");
  ASSERT_EQ(team->mcp.servers.size(), 1U);
  EXPECT_EQ(team->mcp.servers[0].source, tree_.root() / "conf" / "mcp.yaml");

  auto missing = load_team_file(tree_.write("team.yaml", std::string(kParleyTeam) + "mcp: conf/none.yaml\n"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().message,
            file.string() + ":5:6: mcp: file not found: " + (tree_.root() / "conf" / "none.yaml").string());

  tree_.write("conf/mcp.yaml", "servers: {}\n");  // a file of its own says its version
  auto unversioned = load_team_file(tree_.write("team.yaml", std::string(kParleyTeam) + "mcp: conf/mcp.yaml\n"));
  ASSERT_FALSE(unversioned);
  EXPECT_EQ(unversioned.err().message,
            (tree_.root() / "conf" / "mcp.yaml").string() + ":1:1: missing required key 'version' (expected 1)");
}

}  // namespace
}  // namespace parley::config
