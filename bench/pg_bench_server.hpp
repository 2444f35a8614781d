// The PostgreSQL server a benchmark writes to: the one `--store postgresql://…` names, or a
// throwaway cluster started for the run by scripts/pg_test_cluster.sh (the script the tests' ctest
// fixture uses) and stopped when the bench returns, whichever way it returns. Each store the bench
// opens gets a fresh schema, so no run ever sees another's rows.
#pragma once

#include <sys/types.h>

#include <boost/json/object.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "parley/core/result.hpp"

namespace parley::bench {

// A throwaway cluster; the guard stops it (and removes its files) when it goes. A bench killed by
// a signal leaves it running: the start line names the URL file to stop it with.
class pg_cluster {
 public:
  static result<pg_cluster> start();
  pg_cluster(pg_cluster&& other) noexcept;
  pg_cluster& operator=(pg_cluster&&) = delete;
  pg_cluster(const pg_cluster&) = delete;
  pg_cluster& operator=(const pg_cluster&) = delete;
  ~pg_cluster();

  const std::string& url() const noexcept { return url_; }

 private:
  explicit pg_cluster(std::filesystem::path work_dir) : work_dir_(std::move(work_dir)) {}
  std::filesystem::path url_file() const { return work_dir_ / "url"; }

  std::filesystem::path work_dir_;  // empty once moved from: nothing left to stop
  std::string url_;
};

// A schema of its own for one store. Dropped with everything in it when this goes, unless kept.
class pg_schema {
 public:
  pg_schema(std::string admin_url, std::string name);
  pg_schema(pg_schema&& other) noexcept;
  pg_schema& operator=(pg_schema&&) = delete;
  pg_schema(const pg_schema&) = delete;
  pg_schema& operator=(const pg_schema&) = delete;
  ~pg_schema();

  const std::string& name() const noexcept { return name_; }
  // The server's URL with the schema as the connection's only search_path.
  std::string store_url() const;
  // Leaves the schema and its rows on the server (`fanout3 --keep 1`).
  void keep() noexcept { keep_ = true; }

 private:
  std::string admin_url_;
  std::string name_;  // empty once moved from
  bool keep_ = false;
};

class pg_server {
 public:
  // Connects to `url`; when `url` is empty, starts a throwaway cluster first.
  static result<pg_server> open(const std::string& url);

  result<pg_schema> fresh_schema();

  // CPU seconds the server's processes have used (the postmaster, its live children, and the
  // children it has reaped), or nullopt when they cannot be read from here (cpu_source says why).
  std::optional<double> cpu_seconds() const;
  const std::string& cpu_source() const noexcept { return cpu_source_; }
  // server_version, fsync and synchronous_commit, read at open: what "durable" means in the figures.
  const boost::json::object& settings() const noexcept { return settings_; }
  std::string redacted_url() const;

 private:
  pg_server(std::optional<pg_cluster> cluster, std::string url);
  result<void> read_settings();
  void find_postmaster();

  std::optional<pg_cluster> cluster_;
  std::string url_;
  pid_t postmaster_ = 0;
  std::string cpu_source_;
  boost::json::object settings_;
};

}  // namespace parley::bench
