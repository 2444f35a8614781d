#include "failover_nodes.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "spawn_serve.hpp"

namespace parley::bench {

namespace fs = std::filesystem;
namespace http = boost::beast::http;

http_reply http_call(unsigned short port, const std::string& token, const std::string& method,
                     const std::string& target, const std::string& body) {
  http_reply reply;
  try {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    req.set(http::field::authorization, "Bearer " + token);
    if (method == "POST") {
      req.set(http::field::content_type, "application/json");
      req.body() = body;
      req.prepare_payload();
    }
    http::write(socket, req);
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(socket, buffer, res);
    reply.status = static_cast<int>(res.result_int());
    reply.body = std::move(res.body());
  } catch (const std::exception&) {
    reply.status = 0;  // a node killed or paused under the request: the caller counts it
  }
  return reply;
}

unsigned short free_loopback_port() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

std::set<int> local_tcp_ports(pid_t pid) {
  const fs::path proc = "/proc/" + std::to_string(pid);
  std::set<std::string> inodes;
  std::error_code error;
  for (fs::directory_iterator it(proc / "fd", error), end; !error && it != end; it.increment(error)) {
    const auto target = fs::read_symlink(it->path(), error).string();
    if (!error && target.starts_with("socket:[")) inodes.insert(target.substr(8, target.size() - 9));
  }
  std::set<int> ports;
  for (const char* table : {"net/tcp", "net/tcp6"}) {
    std::ifstream in(proc / table);
    std::string line;
    std::getline(in, line);  // the header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
      const auto colon = local.rfind(':');
      if (colon != std::string::npos && inodes.count(inode) != 0)
        ports.insert(std::stoi(local.substr(colon + 1), nullptr, 16));
    }
  }
  return ports;
}

node_set::node_set(node_config config, int count)
    : config_(std::move(config)), nodes_(static_cast<std::size_t>(count)) {
  fs::create_directories(config_.dir);
}

node_set::~node_set() {
  for (int i = 0; i < count(); ++i) {
    if (nodes_[i].paused) resume(i);
    if (running(i)) stop(i);
  }
}

std::string node_set::log_of(int i) const {
  return (config_.dir / ("node" + std::to_string(i) + "-start" + std::to_string(nodes_[i].starts) + ".log")).string();
}

bool node_set::start(int i) {
  auto& n = nodes_[i];
  ++n.starts;
  n.port = free_loopback_port();
  n.paused = false;
  n.pid = spawn_serve(config_.parley,
                      {"--team", config_.team.string(), "--data", (config_.dir / ("node" + std::to_string(i))).string(),
                       "--store", config_.store_url, "--port", std::to_string(n.port), "--token", config_.token},
                      log_of(i));
  if (n.pid == 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (http_call(n.port, config_.token, "GET", "/readyz").status == 200) return true;
    int status = 0;
    if (::waitpid(n.pid, &status, WNOHANG) == n.pid) {
      n.pid = 0;
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

void node_set::reap(int i) {
  int status = 0;
  while (::waitpid(nodes_[i].pid, &status, 0) < 0 && errno == EINTR) {
  }
  nodes_[i].pid = 0;
  nodes_[i].paused = false;
}

void node_set::stop(int i) {
  if (!running(i)) return;
  if (nodes_[i].paused) resume(i);
  ::kill(nodes_[i].pid, SIGTERM);
  reap(i);
}

void node_set::kill_hard(int i) {
  if (!running(i)) return;
  ::kill(nodes_[i].pid, SIGKILL);
  reap(i);
}

void node_set::pause(int i) {
  if (!running(i)) return;
  ::kill(nodes_[i].pid, SIGSTOP);
  nodes_[i].paused = true;
}

void node_set::resume(int i) {
  if (!running(i)) return;
  ::kill(nodes_[i].pid, SIGCONT);
  nodes_[i].paused = false;
}

std::vector<int> node_set::serving() const {
  std::vector<int> out;
  for (int i = 0; i < count(); ++i)
    if (running(i) && !nodes_[i].paused) out.push_back(i);
  return out;
}

}  // namespace parley::bench
