// One libpq connection and the rows a query returns, as RAII values with errors as values. Only the
// PostgreSQL store (pg_store.hpp) uses this; nothing outside store/postgres sees libpq.
#pragma once

#include <libpq-fe.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"

namespace parley::pg {

// The rows of one statement. Columns are read as text (libpq's text format): the store keeps ids,
// JSON and integers, all of which read back exactly that way.
class rows {
 public:
  explicit rows(PGresult* res) : res_(res) {}
  PGresult* raw() const noexcept { return res_.get(); }
  int size() const noexcept { return PQntuples(res_.get()); }
  bool empty() const noexcept { return size() == 0; }
  std::string_view text(int row, int column) const noexcept {
    return {PQgetvalue(res_.get(), row, column), static_cast<std::size_t>(PQgetlength(res_.get(), row, column))};
  }
  bool is_null(int row, int column) const noexcept { return PQgetisnull(res_.get(), row, column) != 0; }
  // A column that holds an integer; 0 for NULL. Fails naming the column when the text is not one.
  result<std::int64_t> integer(int row, int column) const;
  // How many rows an INSERT, UPDATE or DELETE touched.
  std::int64_t affected() const;

 private:
  struct free_result {
    void operator()(PGresult* res) const noexcept { PQclear(res); }
  };
  std::unique_ptr<PGresult, free_result> res_;
};

// What a failed statement or connection says, with the errc the store reports it as: a lost or
// refused connection is `unavailable`, the connection limit `limit_exceeded`, a full disk
// `storage_full`, a unique or fencing violation `conflict`. `sqlstate` is PostgreSQL's code.
error error_of(const PGresult* res, std::string_view doing);
errc errc_of_sqlstate(std::string_view sqlstate) noexcept;

// The URL with its password (in the userinfo or a `password=` parameter) replaced by "***": the
// only form of it that reaches a log, an error or the lock file.
std::string redacted_url(std::string_view url);

class connection {
 public:
  // Connects and checks that the server is ready for queries. A refusal (wrong password, no such
  // database, too many clients, nothing listening) fails with one line naming the server by its
  // redacted URL; a password never appears in it.
  static result<connection> open(const std::string& url, std::string_view application_name);

  connection() = default;
  connection(connection&&) noexcept = default;
  connection& operator=(connection&&) noexcept = default;

  bool is_open() const noexcept { return conn_ != nullptr; }
  // True while libpq believes the socket is usable.
  bool healthy() const noexcept { return conn_ != nullptr && PQstatus(conn_.get()) == CONNECTION_OK; }
  PGconn* raw() const noexcept { return conn_.get(); }
  const std::string& shown_url() const noexcept { return shown_url_; }

  // One or more statements without parameters (simple query protocol).
  result<void> run(std::string_view sql, std::string_view doing);
  // One statement with text parameters (extended protocol, unnamed statement). `doing` names what
  // the statement is for in the error.
  result<rows> query(std::string_view sql, std::span<const std::optional<std::string_view>> params,
                     std::string_view doing);
  result<rows> query(std::string_view sql, std::string_view doing) { return query(sql, {}, doing); }
  // A statement prepared on this connection (PQprepare), with NUL-terminated text parameters.
  result<rows> execute(const char* name, std::span<const char* const> values, std::string_view doing);

  // What libpq says about the connection, on one line.
  std::string last_error() const;

 private:
  // The outcome of a statement whose result libpq returned.
  result<rows> finished(PGresult* res, std::string_view doing) const;

  struct finish {
    void operator()(PGconn* conn) const noexcept { PQfinish(conn); }
  };
  std::unique_ptr<PGconn, finish> conn_;
  std::string shown_url_;
};

// Parameters for connection::query from strings that outlive the call.
template <std::size_t N>
using params = std::array<std::optional<std::string_view>, N>;

}  // namespace parley::pg
