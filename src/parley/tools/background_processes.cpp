// Each process has a reader coroutine on the executor of the call that started it: it appends
// the output to the process's bounded buffer until the pipe closes, then awaits the exit through
// a pidfd. The entry is shared by the table and the reader, so either may go first.
#include "parley/tools/background_processes.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/array.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <map>

#include "parley/core/json_fields.hpp"
#include "parley/core/utf8.hpp"
#include "parley/tools/process_runner.hpp"
#include "parley/tools/shell_command.hpp"
#include "parley/tools/workspace_access.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace fs = std::filesystem;
using clock = std::chrono::steady_clock;

constexpr std::int64_t kDefaultLifetime = 3600;
constexpr std::int64_t kMaxLifetime = 86400;
constexpr std::int64_t kDefaultReadBytes = 16384;

struct process_entry {
  std::string id;
  std::string member;
  std::string command;
  int pid = -1;
  clock::time_point started = clock::now();
  std::string unread;       // at most kBufferBytes: the newest output not read yet
  std::size_t dropped = 0;  // unread bytes pushed out of the buffer
  std::size_t total = 0;    // everything it wrote
  bool running = true;
  bool stopped = false;  // by stop_process or the lifetime
  bool out_of_time = false;
  int exit_code = -1;
  int signal = 0;
  std::unique_ptr<asio::steady_timer> lifetime;

  void kill_group() const {
    if (running && pid > 0) ::kill(-pid, SIGKILL);
  }
  void append(std::string_view bytes) {
    total += bytes.size();
    unread.append(bytes);
    if (unread.size() > kBufferBytes) {
      dropped += unread.size() - kBufferBytes;
      unread.erase(0, unread.size() - kBufferBytes);
    }
  }
  std::string status() const {
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(clock::now() - started).count();
    if (running) return "running for " + std::to_string(seconds) + " s";
    if (out_of_time) return "killed at the end of its max_seconds";
    if (stopped) return "stopped";
    if (signal != 0) return "ended by signal " + std::to_string(signal);
    return "exited with " + std::to_string(exit_code);
  }
};

asio::awaitable<void> pump(std::shared_ptr<process_entry> entry, int fd) {
  auto executor = co_await asio::this_coro::executor;
  {
    asio::posix::stream_descriptor output(executor, fd);
    std::array<char, 8192> buffer{};
    for (;;) {
      auto [ec, n] = co_await output.async_read_some(asio::buffer(buffer), asio::as_tuple(asio::use_awaitable));
      if (n > 0) entry->append(std::string_view(buffer.data(), n));
      if (ec) break;
    }
  }
  const int status = co_await reap_process_group(entry->pid);
  entry->running = false;
  if (WIFEXITED(status)) entry->exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) entry->signal = WTERMSIG(status);
  if (entry->lifetime) entry->lifetime->cancel();
}

class process_table {
 public:
  ~process_table() {
    for (auto& [id, entry] : entries_) entry->kill_group();
  }
  process_table() = default;
  process_table(const process_table&) = delete;
  process_table& operator=(const process_table&) = delete;

  std::size_t running_of(const std::string& member) const {
    std::size_t count = 0;
    for (const auto& [id, entry] : entries_) count += entry->member == member && entry->running ? 1 : 0;
    return count;
  }
  // Makes room by forgetting the oldest finished entry; false when every kept one still runs.
  bool make_room() {
    if (entries_.size() < kMaxKept) return true;
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (!it->second->running) {
        entries_.erase(it);
        return true;
      }
    }
    return false;
  }
  std::shared_ptr<process_entry> add(std::string member, std::string command, int pid) {
    auto entry = std::make_shared<process_entry>();
    entry->id = "p" + std::to_string(++next_id_);
    entry->member = std::move(member);
    entry->command = std::move(command);
    entry->pid = pid;
    entries_.emplace(next_id_, entry);
    return entry;
  }
  // The member's own entry, or an error naming what was wrong.
  result<std::shared_ptr<process_entry>> find(const std::string& id, const std::string& member) const {
    for (const auto& [n, entry] : entries_) {
      if (entry->id == id) {
        if (entry->member != member) break;  // another member's: told as unknown
        return entry;
      }
    }
    return make_error(errc::not_found, "no process '" + id + "' of yours; list_processes shows them");
  }
  std::vector<std::shared_ptr<process_entry>> of(const std::string& member) const {
    std::vector<std::shared_ptr<process_entry>> out;
    for (const auto& [n, entry] : entries_) {
      if (entry->member == member) out.push_back(entry);
    }
    return out;
  }

 private:
  std::map<std::uint64_t, std::shared_ptr<process_entry>> entries_;
  std::uint64_t next_id_ = 0;
};

json::object schema(json::object properties, json::array required) {
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", std::move(required)},
                      {"additionalProperties", false}};
}

json::object id_property() {
  return json::object{{"type", "string"}, {"description", "The process id start_process gave, e.g. p1"}};
}

std::string take_output(process_entry& entry, std::size_t max_bytes) {
  std::string out;
  if (entry.dropped > 0) {
    out += "[" + std::to_string(entry.dropped) + " older bytes were dropped before they were read]\n";
    entry.dropped = 0;
  }
  const std::size_t take = std::min(max_bytes, entry.unread.size());
  std::string chunk = entry.unread.substr(0, take);
  entry.unread.erase(0, take);
  out += repair_utf8(chunk).text;
  if (!entry.unread.empty()) out += "\n[" + std::to_string(entry.unread.size()) + " more bytes unread; read again]";
  return out;
}

class start_tool final : public tool {
 public:
  explicit start_tool(std::shared_ptr<process_table> table) : table_(std::move(table)) {
    spec_ = {
        "start_process",
        "Start a long-running command (a dev server, a watcher) in the background and return its id at once. "
        "Read its output with read_process, stop it with stop_process; it is killed after max_seconds.",
        schema(json::object{{"command", json::object{{"type", "string"},
                                                     {"minLength", 1},
                                                     {"maxLength", 10000},
                                                     {"description", "The command line (/bin/sh -c)"}}},
                            {"cwd",
                             json::object{{"type", "string"},
                                          {"description", "Working folder relative to the workspace; default '.'"}}},
                            {"max_seconds", json::object{{"type", "integer"},
                                                         {"minimum", 1},
                                                         {"maximum", kMaxLifetime},
                                                         {"description", "Kill it after this long (default 3600)"}}}},
               json::array{"command"})};
  }
  const tool_spec& spec() const override { return spec_; }
  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args);
    const std::string command = in.string("command");
    const std::string cwd_shown = in.optional_string("cwd").value_or(".");  // the schema's default: the workspace
    const std::int64_t max_seconds = in.optional_integer("max_seconds").value_or(kDefaultLifetime);
    if (!in.ok()) co_return detail::failed(in.message());
    if (auto why = access::shell_refusal(shell_policy_of(ctx), command); !why.empty())
      co_return detail::failed("refused: " + why);
    if (table_->running_of(ctx.member_id) >= kMaxRunningPerMember) {
      co_return detail::failed("refused: you already run " + std::to_string(kMaxRunningPerMember) +
                               " processes; stop one with stop_process first");
    }
    if (!table_->make_room())
      co_return detail::failed("refused: " + std::to_string(kMaxKept) +
                               " processes are running in the team; stop one first");
    auto cwd = resolve_for(ctx, cwd_shown, file_access::read, access::path_kind::directory);
    if (!cwd) co_return detail::failed("cwd: " + cwd.err().message);
    std::error_code ec;
    if (!fs::is_directory(cwd->absolute, ec))
      co_return detail::failed("cwd: " + detail::quote_path(cwd_shown) + " is not a folder");
    auto request = shell_request(ctx, shell_run{command, cwd->absolute, false});
    if (!request) co_return detail::failed(request.err().message);
    auto spawned = spawn_process(*request);
    if (!spawned) co_return detail::failed(spawned.err().message);
    auto entry = table_->add(ctx.member_id, command, spawned->pid);
    auto executor = co_await asio::this_coro::executor;
    entry->lifetime = std::make_unique<asio::steady_timer>(executor, std::chrono::seconds(max_seconds));
    entry->lifetime->async_wait([weak = std::weak_ptr<process_entry>(entry)](boost::system::error_code waited) {
      auto alive = weak.lock();
      if (waited || !alive || !alive->running) return;
      alive->out_of_time = true;
      alive->kill_group();
    });
    asio::co_spawn(executor, pump(entry, spawned->output_fd), asio::detached);
    co_return tool_outcome{true, "started " + entry->id + ": $ " + command};
  }

 private:
  std::shared_ptr<process_table> table_;
  tool_spec spec_;
};

class list_tool final : public tool {
 public:
  explicit list_tool(std::shared_ptr<process_table> table) : table_(std::move(table)) {
    spec_ = {"list_processes",
             "List the processes you started with start_process: id, state, unread output and command.",
             schema(json::object{}, json::array{})};
  }
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return false; }
  asio::awaitable<tool_outcome> invoke(const json::object& /*args*/, const tool_context& ctx) override {
    const auto mine = table_->of(ctx.member_id);
    if (mine.empty()) co_return tool_outcome{true, "no processes"};
    std::string out;
    for (const auto& entry : mine) {
      out += entry->id + "  " + entry->status() + "  " + std::to_string(entry->unread.size()) + " bytes unread  $ " +
             entry->command + "\n";
    }
    co_return tool_outcome{true, std::move(out)};
  }

 private:
  std::shared_ptr<process_table> table_;
  tool_spec spec_;
};

class read_tool final : public tool {
 public:
  explicit read_tool(std::shared_ptr<process_table> table) : table_(std::move(table)) {
    spec_ = {
        "read_process", "Read what a process started with start_process wrote since the last read, and its state.",
        schema(json::object{{"id", id_property()},
                            {"max_bytes", json::object{{"type", "integer"},
                                                       {"minimum", 1},
                                                       {"maximum", kBufferBytes},
                                                       {"description", "Read at most this much (default 16384)"}}}},
               json::array{"id"})};
  }
  const tool_spec& spec() const override { return spec_; }
  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args);
    const std::string id = in.string("id");
    const std::int64_t max_bytes = in.optional_integer("max_bytes").value_or(kDefaultReadBytes);  // schema default
    if (!in.ok()) co_return detail::failed(in.message());
    auto entry = table_->find(id, ctx.member_id);
    if (!entry) co_return detail::failed(entry.err().message);
    auto& process = **entry;
    co_return tool_outcome{
        true, process.id + " " + process.status() + "\n" + take_output(process, static_cast<std::size_t>(max_bytes))};
  }

 private:
  std::shared_ptr<process_table> table_;
  tool_spec spec_;
};

class stop_tool final : public tool {
 public:
  explicit stop_tool(std::shared_ptr<process_table> table) : table_(std::move(table)) {
    spec_ = {"stop_process", "Stop (kill) a process started with start_process, with everything it started.",
             schema(json::object{{"id", id_property()}}, json::array{"id"})};
  }
  const tool_spec& spec() const override { return spec_; }
  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    json_fields in(args);
    const std::string id = in.string("id");
    if (!in.ok()) co_return detail::failed(in.message());
    auto entry = table_->find(id, ctx.member_id);
    if (!entry) co_return detail::failed(entry.err().message);
    auto& process = **entry;
    if (!process.running) co_return tool_outcome{true, process.id + " had already " + process.status()};
    process.stopped = true;
    process.kill_group();
    co_return tool_outcome{true, "stopped " + process.id + " ($ " + process.command + ")"};
  }

 private:
  std::shared_ptr<process_table> table_;
  tool_spec spec_;
};

}  // namespace

void register_background_process_tools(tool_registry& registry) {
  auto table = std::make_shared<process_table>();
  registry.add(std::make_unique<start_tool>(table));
  registry.add(std::make_unique<list_tool>(table));
  registry.add(std::make_unique<read_tool>(table));
  registry.add(std::make_unique<stop_tool>(table));
}

}  // namespace parley::tools
