#include "pg_bench_server.hpp"

#include <libpq-fe.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <utility>
#include <vector>

#include "parley/store/store.hpp"

namespace parley::bench {
namespace {

namespace fs = std::filesystem;

// PARLEY_SOURCE_DIR is the repository the bench was built from (bench/CMakeLists.txt), as for
// flow and tot24's data.
constexpr const char* kClusterScript = PARLEY_SOURCE_DIR "/scripts/pg_test_cluster.sh";

// Runs `pg_test_cluster.sh COMMAND URL_FILE` and returns its exit status (-1: not started). Its
// stdout goes to our stderr: a bench's stdout ends with its JSON line, and the guard's stop may
// run after it.
int run_cluster_script(const char* command, const fs::path& url_file) {
  std::vector<std::string> args = {"bash", kClusterScript, command, url_file.string()};
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "bash", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// libpq's messages end in a newline; the bench's errors are one line.
std::string one_line(const char* message) {
  std::string out(message);
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  std::replace(out.begin(), out.end(), '\n', ' ');
  return out;
}

using connection = std::unique_ptr<PGconn, decltype(&PQfinish)>;
using query_result = std::unique_ptr<PGresult, decltype(&PQclear)>;

// Runs `sql` on a connection of its own (the bench's few admin statements need no pool) and
// returns the first row's columns (none for a command).
result<std::vector<std::string>> run_admin(const std::string& url, const std::string& sql) {
  connection conn(PQconnectdb(url.c_str()), &PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK)
    return make_error(errc::io_error,
                      "cannot connect to " + redacted_postgres_url(url) + ": " + one_line(PQerrorMessage(conn.get())));
  // A schema's drop lists every table it cascades to: noise between the bench's lines.
  PQsetNoticeProcessor(
      conn.get(), [](void*, const char*) {}, nullptr);
  query_result res(PQexec(conn.get(), sql.c_str()), &PQclear);
  const auto status = PQresultStatus(res.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
    return make_error(errc::io_error, sql + ": " + one_line(PQresultErrorMessage(res.get())));
  std::vector<std::string> row;
  if (status == PGRES_TUPLES_OK && PQntuples(res.get()) > 0) {
    for (int column = 0; column < PQnfields(res.get()); ++column) row.emplace_back(PQgetvalue(res.get(), 0, column));
  }
  return row;
}

// A process's CPU from /proc/PID/stat, in clock ticks.
struct proc_cpu {
  pid_t parent = 0;
  long long own = 0;     // utime + stime
  long long reaped = 0;  // cutime + cstime: children that exited and were waited for
};

std::optional<proc_cpu> read_proc_cpu(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos || close + 2 >= line.size()) return std::nullopt;
  std::istringstream fields(line.substr(close + 2));
  std::string state;
  proc_cpu out;
  fields >> state >> out.parent;
  std::string skipped;
  for (int field = 5; field < 14; ++field) fields >> skipped;
  long long utime = 0, stime = 0, cutime = 0, cstime = 0;
  if (!(fields >> utime >> stime >> cutime >> cstime)) return std::nullopt;
  out.own = utime + stime;
  out.reaped = cutime + cstime;
  return out;
}

std::string random_suffix() {
  std::random_device device;
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%08x", static_cast<unsigned>(device()));
  return buffer;
}

}  // namespace

result<pg_cluster> pg_cluster::start() {
  std::string pattern = (fs::temp_directory_path() / "parley-bench-pg-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    return make_error(errc::io_error, "cannot make a temp dir for the PostgreSQL cluster's URL file");
  // The guard exists before the script runs: a start that fails halfway is stopped as well.
  pg_cluster cluster{fs::path(pattern)};
  const int status = run_cluster_script("start", cluster.url_file());
  if (status != 0)
    return make_error(errc::io_error, std::string(kClusterScript) + " start failed (exit " + std::to_string(status) +
                                          "; its output is above)");
  std::ifstream in(cluster.url_file());
  if (!std::getline(in, cluster.url_) || cluster.url_.empty())
    return make_error(errc::io_error, "no URL in " + cluster.url_file().string() + " after the cluster started");
  std::printf("postgresql: throwaway cluster at %s (if this run is killed: %s stop %s)\n",
              redacted_postgres_url(cluster.url_).c_str(), kClusterScript, cluster.url_file().c_str());
  return cluster;
}

pg_cluster::pg_cluster(pg_cluster&& other) noexcept
    : work_dir_(std::exchange(other.work_dir_, {})), url_(std::move(other.url_)) {}

pg_cluster::~pg_cluster() {
  if (work_dir_.empty()) return;
  if (run_cluster_script("stop", url_file()) != 0)
    std::fprintf(stderr, "parley-bench: stopping the PostgreSQL cluster failed: %s stop %s\n", kClusterScript,
                 url_file().c_str());
  std::error_code ignored;
  fs::remove_all(work_dir_, ignored);
}

pg_schema::pg_schema(std::string admin_url, std::string name)
    : admin_url_(std::move(admin_url)), name_(std::move(name)) {}

pg_schema::pg_schema(pg_schema&& other) noexcept
    : admin_url_(std::move(other.admin_url_)), name_(std::exchange(other.name_, {})), keep_(other.keep_) {}

pg_schema::~pg_schema() {
  if (name_.empty()) return;
  if (keep_) {
    std::printf("kept schema %s on %s\n", name_.c_str(), redacted_postgres_url(admin_url_).c_str());
    return;
  }
  // On a server the user named, the bench leaves nothing behind.
  auto dropped = run_admin(admin_url_, "DROP SCHEMA IF EXISTS " + name_ + " CASCADE");
  if (!dropped) std::fprintf(stderr, "parley-bench: %s\n", dropped.err().message.c_str());
}

std::string pg_schema::store_url() const {
  return admin_url_ + (admin_url_.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + name_;
}

pg_server::pg_server(std::optional<pg_cluster> cluster, std::string url)
    : cluster_(std::move(cluster)), url_(std::move(url)) {}

result<pg_server> pg_server::open(const std::string& url) {
  std::optional<pg_cluster> cluster;
  if (url.empty()) {
    auto started = pg_cluster::start();
    if (!started) return std::move(started).err();
    cluster.emplace(std::move(*started));
  }
  std::string server_url = cluster ? cluster->url() : url;
  pg_server server(std::move(cluster), std::move(server_url));
  PARLEY_TRY(server.read_settings());
  server.find_postmaster();
  return server;
}

result<void> pg_server::read_settings() {
  auto row = run_admin(url_,
                       "SELECT current_setting('server_version'), current_setting('fsync'), "
                       "current_setting('synchronous_commit')");
  if (!row) return std::move(row).err();
  if (row->size() != 3) return make_error(errc::io_error, "the server's settings came back without a row");
  settings_ = {
      {"postgresql_version", (*row)[0]}, {"postgresql_fsync", (*row)[1]}, {"postgresql_synchronous_commit", (*row)[2]}};
  return ok();
}

// The postmaster's pid from its data directory's postmaster.pid, when the server runs on this
// machine and the bench may read it; the server's CPU is then its process tree's, from /proc.
void pg_server::find_postmaster() {
  auto row = run_admin(url_, "SELECT current_setting('data_directory'), current_setting('port')");
  if (!row || row->size() != 2) {
    cpu_source_ = "unavailable: " + (row ? std::string("no data_directory") : row.err().message);
    return;
  }
  const fs::path data_dir = (*row)[0];
  std::ifstream pid_file(data_dir / "postmaster.pid");
  std::string pid_line, dir_line, start_line, port_line;
  if (!std::getline(pid_file, pid_line) || !std::getline(pid_file, dir_line) || !std::getline(pid_file, start_line) ||
      !std::getline(pid_file, port_line) || port_line != (*row)[1]) {
    cpu_source_ = "unavailable: the server's postmaster.pid is not readable here (not on this machine?)";
    return;
  }
  const pid_t pid = static_cast<pid_t>(std::atol(pid_line.c_str()));
  if (pid <= 0 || !read_proc_cpu(pid)) {
    cpu_source_ = "unavailable: no /proc/" + pid_line + "/stat";
    return;
  }
  postmaster_ = pid;
  cpu_source_ = "/proc/PID/stat of the postmaster (utime+stime+cutime+cstime) and its live children (utime+stime)";
}

std::optional<double> pg_server::cpu_seconds() const {
  if (postmaster_ == 0) return std::nullopt;
  const auto postmaster = read_proc_cpu(postmaster_);
  if (!postmaster) return std::nullopt;
  long long ticks = postmaster->own + postmaster->reaped;
  // Every backend, the WAL writer and the checkpointer are the postmaster's direct children.
  std::error_code error;
  for (fs::directory_iterator it("/proc", error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const auto child = read_proc_cpu(static_cast<pid_t>(std::atol(name.c_str())));
    if (child && child->parent == postmaster_) ticks += child->own;
  }
  return double(ticks) / double(::sysconf(_SC_CLK_TCK));
}

std::string pg_server::redacted_url() const { return redacted_postgres_url(url_); }

result<pg_schema> pg_server::fresh_schema() {
  static std::atomic<int> counter{0};
  std::string name =
      "parley_bench_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + random_suffix();
  auto made = run_admin(url_, "CREATE SCHEMA " + name);
  if (!made) return std::move(made).err();
  return pg_schema(url_, std::move(name));
}

}  // namespace parley::bench
