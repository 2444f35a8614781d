// parley-bench failover's cluster: N `parley serve` processes on one PostgreSQL store, each on a
// free loopback port of its own, that the bench kills (SIGKILL), pauses (SIGSTOP/SIGCONT), stops
// and starts again; and the plain HTTP calls it makes to them.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace parley::bench {

struct http_reply {
  int status = 0;  // 0: no answer (refused, reset)
  std::string body;
};

// One request on a connection of its own (the bench's calls are few: creates, questions, answers).
http_reply http_call(unsigned short port, const std::string& token, const std::string& method,
                     const std::string& target, const std::string& body = {});

// A port nobody listens on now.
unsigned short free_loopback_port();

// The local TCP ports of a process's open sockets (from /proc/PID/fd and /proc/PID/net/tcp):
// what pg_stat_activity.client_port shows for its connections to the server.
std::set<int> local_tcp_ports(pid_t pid);

struct node_config {
  std::filesystem::path parley;  // the `parley` binary
  std::filesystem::path team;    // team.yaml
  std::filesystem::path dir;     // data directories and logs, one per node
  std::string store_url;
  std::string token;
};

class node_set {
 public:
  node_set(node_config config, int count);
  ~node_set();  // stops every node still running, gracefully
  node_set(const node_set&) = delete;
  node_set& operator=(const node_set&) = delete;

  // Starts node i on a fresh port and waits until /readyz answers 200 (at most 60 s).
  bool start(int i);
  // SIGTERM: the node gives its leases back and exits.
  void stop(int i);
  // SIGKILL, then reaps it: nothing of it runs any more when this returns.
  void kill_hard(int i);
  void pause(int i);
  void resume(int i);

  int count() const noexcept { return static_cast<int>(nodes_.size()); }
  bool running(int i) const noexcept { return nodes_[i].pid != 0; }
  bool paused(int i) const noexcept { return nodes_[i].paused; }
  pid_t pid(int i) const noexcept { return nodes_[i].pid; }
  unsigned short port(int i) const noexcept { return nodes_[i].port; }
  // Running and not paused: the nodes the bench sends requests to.
  std::vector<int> serving() const;
  const std::string& token() const noexcept { return config_.token; }
  std::string log_of(int i) const;

 private:
  struct node {
    pid_t pid = 0;
    unsigned short port = 0;
    int starts = 0;
    bool paused = false;
  };
  void reap(int i);

  node_config config_;
  std::vector<node> nodes_;
};

}  // namespace parley::bench
