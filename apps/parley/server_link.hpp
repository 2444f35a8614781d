// A running `parley serve` found through its data directory (issue 36). The server holds the
// directory's writer lock and names its URL there (store/data_dir_lock.hpp); its token is in
// `parley.credential`, a file only its user can read. A CLI verb that writes, given a data
// directory a server holds, sends its request through that server's API instead of opening the
// store: the store keeps one writer, and the user's command still works.
#pragma once

#include <boost/json/value.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/store/data_dir_lock.hpp"

namespace parley::cli {

inline constexpr const char* kCredentialFile = "parley.credential";

// The token `parley serve` writes for the CLI of the same user: mode 0600, removed when the server
// stops. A server with --users writes none (each user has a token of their own).
class credential_file {
 public:
  static result<credential_file> write(const std::filesystem::path& data_dir, std::string_view token);
  credential_file(credential_file&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  credential_file& operator=(credential_file&&) = delete;
  credential_file(const credential_file&) = delete;
  credential_file& operator=(const credential_file&) = delete;
  ~credential_file();

 private:
  explicit credential_file(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;
};

struct server_link {
  lock_holder holder;
  std::string base_url;  // "http://127.0.0.1:7878/"
  std::string token;
};

// The server that holds `data_dir`: nullopt when no process holds it (the verb opens the store
// itself). An errc::conflict when a process holds it that the CLI cannot go through: another
// verb (`parley run`), a server with --users, or one whose credential this user cannot read.
result<std::optional<server_link>> find_server(const std::filesystem::path& data_dir);

// One request to the server's API (`path` from "/api/..."); the parsed body of a 2xx answer, else
// an error carrying the server's own message and a code that matches its status.
result<boost::json::value> call_server(const server_link& server, std::string_view method, std::string_view path,
                                       const boost::json::value* body = nullptr);

// "through the running server (pid 123, parley serve at http://...)": how the output says it.
std::string through(const server_link& server);

}  // namespace parley::cli
