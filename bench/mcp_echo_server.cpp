// parley-bench mcp-echo-server [--tool NAME] [--http 0|PORT]: the MCP server `parley-bench mcp`
// calls, as small as a server can be so that its own cost stays out of the way (and out of Parley's
// process: the bench runs it as a child). One tool, NAME (default `echo`), that answers its `text`
// argument back as one text block. Over stdio by default: one JSON-RPC message a line on stdin,
// one answer a line on stdout. With --http it serves MCP's streamable HTTP at /mcp on 127.0.0.1
// (port 0: any free one), prints the port on its first stdout line, answers every request with one
// JSON body (never an event stream), notifications with 202, the GET stream with 405; a thread per
// connection, keep-alive. It dies with its parent (PR_SET_PDEATHSIG).
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "bench_verbs.hpp"

namespace parley::bench {
namespace {

namespace json = boost::json;

json::object echo_tool_listing(const std::string& tool) {
  json::object text_schema{{"type", "string"}};
  json::object schema{{"type", "object"},
                      {"properties", json::object{{"text", std::move(text_schema)}}},
                      {"required", json::array{"text"}}};
  return json::object{{"name", tool}, {"description", "Answers its text back."}, {"inputSchema", std::move(schema)}};
}

json::value echo_call_result(const json::object& params) {
  const auto* arguments = params.if_contains("arguments");
  const json::value* text =
      arguments != nullptr && arguments->is_object() ? arguments->as_object().if_contains("text") : nullptr;
  const json::string said = text != nullptr && text->is_string() ? text->as_string() : json::string("");
  json::object block{{"type", "text"}, {"text", said}};
  return json::object{{"content", json::array{std::move(block)}}};
}

// The answer to one message, or nothing (a notification, a response, a line that is not JSON-RPC).
std::optional<std::string> echo_answer(std::string_view line, const std::string& tool) {
  boost::system::error_code ec;
  json::value message = json::parse(line, ec);
  if (ec || !message.is_object()) return std::nullopt;
  const json::object& request = message.as_object();
  const auto* id = request.if_contains("id");
  const auto* method = request.if_contains("method");
  if (id == nullptr || method == nullptr || !method->is_string()) return std::nullopt;
  const auto* params_value = request.if_contains("params");
  const json::object params =
      params_value != nullptr && params_value->is_object() ? params_value->as_object() : json::object{};
  json::object answer{{"jsonrpc", "2.0"}, {"id", *id}};
  const json::string& name = method->as_string();
  if (name == "initialize") {
    const auto* asked = params.if_contains("protocolVersion");
    answer["result"] = json::object{{"protocolVersion", asked != nullptr ? *asked : json::value("2025-11-25")},
                                    {"capabilities", json::object{{"tools", json::object{}}}},
                                    {"serverInfo", json::object{{"name", "parley-bench-echo"}, {"version", "1"}}}};
  } else if (name == "tools/list") {
    answer["result"] = json::object{{"tools", json::array{echo_tool_listing(tool)}}};
  } else if (name == "tools/call") {
    answer["result"] = echo_call_result(params);
  } else if (name == "ping") {
    answer["result"] = json::object{};
  } else {
    answer["error"] = json::object{{"code", -32601}, {"message", "method not found"}};
  }
  return json::serialize(answer);
}

int serve_stdio(const std::string& tool) {
  std::ios::sync_with_stdio(false);
  std::string line;
  while (std::getline(std::cin, line)) {
    if (auto answer = echo_answer(line, tool)) {
      std::cout << *answer << '\n';
      std::cout.flush();
    }
  }
  return 0;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t wrote = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (wrote <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(wrote));
  }
  return true;
}

std::string lowercase_ascii(std::string text) {
  for (char& c : text) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return text;
}

std::string http_reply(int status, std::string_view reason, std::string_view extra_headers, std::string_view body) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + std::string(reason) + "\r\n";
  out += extra_headers;
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out += body;
  return out;
}

// One request's head: its method and Content-Length (-1 when the head is not one this server reads).
struct echo_request_head {
  std::string method;
  long content_length = 0;
};

echo_request_head read_head(std::string_view head) {
  echo_request_head out;
  out.method = std::string(head.substr(0, head.find(' ')));
  const std::string lower = lowercase_ascii(std::string(head));
  const auto at = lower.find("\r\ncontent-length:");
  if (at != std::string::npos) out.content_length = std::strtol(lower.c_str() + at + 17, nullptr, 10);
  if (out.content_length < 0 || out.content_length > (64L << 20)) out.content_length = -1;
  return out;
}

std::string answer_http(const echo_request_head& head, std::string_view body, const std::string& tool) {
  if (head.method == "GET") return http_reply(405, "Method Not Allowed", "Allow: POST, DELETE\r\n", "");
  if (head.method == "DELETE") return http_reply(200, "OK", "", "");
  if (head.method != "POST") return http_reply(405, "Method Not Allowed", "Allow: POST, DELETE\r\n", "");
  auto answer = echo_answer(body, tool);
  if (!answer) return http_reply(202, "Accepted", "", "");
  const bool opening = body.find("\"initialize\"") != std::string_view::npos;
  const std::string headers =
      std::string("Content-Type: application/json\r\n") + (opening ? "Mcp-Session-Id: bench-session\r\n" : "");
  return http_reply(200, "OK", headers, *answer);
}

void serve_connection(int fd, std::string tool) {
  std::string buffer;
  char chunk[16384];
  for (;;) {
    auto end = buffer.find("\r\n\r\n");
    while (end == std::string::npos) {
      const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
      if (got <= 0) return (void)::close(fd);
      buffer.append(chunk, static_cast<std::size_t>(got));
      end = buffer.find("\r\n\r\n");
    }
    const echo_request_head head = read_head(std::string_view(buffer).substr(0, end + 2));
    if (head.content_length < 0) return (void)::close(fd);
    const std::size_t total = end + 4 + static_cast<std::size_t>(head.content_length);
    while (buffer.size() < total) {
      const ssize_t got = ::recv(fd, chunk, sizeof chunk, 0);
      if (got <= 0) return (void)::close(fd);
      buffer.append(chunk, static_cast<std::size_t>(got));
    }
    const std::string reply = answer_http(head, std::string_view(buffer).substr(end + 4, total - end - 4), tool);
    buffer.erase(0, total);
    if (!write_all(fd, reply)) return (void)::close(fd);
  }
}

int serve_http(const std::string& tool, int port) {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      ::listen(listener, 64) != 0 || ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    std::perror("parley-bench mcp-echo-server");
    return 1;
  }
  std::printf("%d\n", ntohs(address.sin_port));
  std::fflush(stdout);
  for (;;) {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) continue;
    std::thread(serve_connection, fd, tool).detach();
  }
}

}  // namespace

int run_mcp_echo_server(const bench_args& args) {
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);  // never outlive the bench that started it
  const std::string tool = args.string_or("tool", "echo");
  if (args.values.count("http") != 0) return serve_http(tool, args.int_or("http", 0));
  return serve_stdio(tool);
}

}  // namespace parley::bench
