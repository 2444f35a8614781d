#include "parley/store/postgres/pg_connection.hpp"

#include <charconv>
#include <vector>

namespace parley::pg {

namespace {

// libpq's messages end with a newline and may span lines ("DETAIL: ..."): one line for the log.
std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\n' || c == '\r') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else if (static_cast<unsigned char>(c) >= 0x20) {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Replaces `from`..`to` of `url` with "***".
std::string masked(std::string_view url, std::size_t from, std::size_t to) {
  return std::string(url.substr(0, from)) + "***" + std::string(url.substr(to));
}

}  // namespace

result<std::int64_t> rows::integer(int row, int column) const {
  if (is_null(row, column)) return std::int64_t{0};
  const std::string_view digits = text(row, column);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc{} || end != digits.data() + digits.size()) {
    return make_error(errc::corrupt, std::string("column ") + PQfname(res_.get(), column) + " holds '" +
                                         std::string(digits.substr(0, 32)) + "', not an integer");
  }
  return value;
}

std::int64_t rows::affected() const {
  const char* count = PQcmdTuples(res_.get());
  std::int64_t value = 0;
  std::from_chars(count, count + std::char_traits<char>::length(count), value);
  return value;
}

errc errc_of_sqlstate(std::string_view sqlstate) noexcept {
  if (sqlstate.starts_with("08") || sqlstate == "57P01" || sqlstate == "57P02" || sqlstate == "57P03") {
    return errc::unavailable;  // connection failures, the server shutting down or starting
  }
  if (sqlstate == "53300") return errc::limit_exceeded;  // too_many_connections
  if (sqlstate == "53100") return errc::storage_full;    // disk_full
  if (sqlstate == "23505" || sqlstate == "40001" || sqlstate == "40P01") return errc::conflict;
  if (sqlstate == "P0001") return errc::conflict;             // raised by parley_expect (pg_schema.cpp): a fence
  if (sqlstate.starts_with("28")) return errc::config_error;  // authentication
  return errc::io_error;
}

error error_of(const PGresult* res, std::string_view doing) {
  const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  const char* primary = res != nullptr ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  std::string message = std::string(doing) + " failed: ";
  message += primary != nullptr ? one_line(primary) : std::string("no result from the server");
  if (!sqlstate.empty()) message += " (SQLSTATE " + sqlstate + ")";
  return make_error(sqlstate.empty() ? errc::unavailable : errc_of_sqlstate(sqlstate), std::move(message));
}

std::string redacted_url(std::string_view url) {
  std::string out(url);
  // postgresql://user:password@host/...: the password sits between the first ':' after the scheme
  // and the last '@' before the path.
  if (const auto scheme = out.find("://"); scheme != std::string::npos) {
    const auto authority = scheme + 3;
    const auto path = out.find_first_of("/?", authority);
    const auto at = out.rfind('@', path == std::string::npos ? out.size() : path);
    if (at != std::string::npos && at >= authority) {
      const auto colon = out.find(':', authority);
      if (colon != std::string::npos && colon < at) out = masked(out, colon + 1, at);
    }
  }
  // ...?password=secret&... and the keyword form "password=secret".
  for (std::size_t from = 0;;) {
    const auto key = out.find("password=", from);
    if (key == std::string::npos) break;
    const auto value = key + 9;
    const auto end = out.find_first_of("& ", value);
    out = masked(out, value, end == std::string::npos ? out.size() : end);
    from = value + 3;
  }
  return out;
}

result<connection> connection::open(const std::string& url, std::string_view application_name) {
  const std::string app(application_name);
  const char* keys[] = {"dbname", "application_name", "connect_timeout", nullptr};
  const char* values[] = {url.c_str(), app.c_str(), "10", nullptr};
  connection conn;
  conn.shown_url_ = redacted_url(url);
  // expand_dbname=1: the URL's own settings win over the defaults given beside it.
  conn.conn_.reset(PQconnectdbParams(keys, values, 1));
  if (!conn.conn_) return make_error(errc::unavailable, "PostgreSQL " + conn.shown_url_ + ": out of memory");
  if (PQstatus(conn.conn_.get()) != CONNECTION_OK) {
    const std::string why = conn.last_error();
    errc code = errc::unavailable;
    if (why.find("password authentication failed") != std::string::npos ||
        why.find("does not exist") != std::string::npos || why.find("invalid") != std::string::npos) {
      code = errc::config_error;
    } else if (why.find("too many clients") != std::string::npos ||
               why.find("remaining connection slots") != std::string::npos) {
      code = errc::limit_exceeded;
    }
    return make_error(code, "cannot connect to PostgreSQL at " + conn.shown_url_ + ": " + why);
  }
  // The server's notices ("relation ... already exists, skipping" from an idempotent migration)
  // are for its log, not for a user's terminal: libpq would print them on stderr.
  PQsetNoticeProcessor(
      conn.conn_.get(), [](void*, const char*) {}, nullptr);
  return conn;
}

std::string connection::last_error() const {
  if (!conn_) return "not connected";
  // libpq may echo a connection string into its message; the redacted form is what is kept.
  return redacted_url(one_line(PQerrorMessage(conn_.get())));
}

result<void> connection::run(std::string_view sql, std::string_view doing) {
  if (!conn_) return make_error(errc::unavailable, std::string(doing) + " failed: not connected");
  const std::string text(sql);
  std::unique_ptr<PGresult, decltype(&PQclear)> res(PQexec(conn_.get(), text.c_str()), &PQclear);
  const auto status = res ? PQresultStatus(res.get()) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return ok();
  if (!res) return make_error(errc::unavailable, std::string(doing) + " failed: " + last_error());
  return error_of(res.get(), doing);
}

result<rows> connection::query(std::string_view sql, std::span<const std::optional<std::string_view>> params,
                               std::string_view doing) {
  if (!conn_) return make_error(errc::unavailable, std::string(doing) + " failed: not connected");
  const std::string text(sql);
  // libpq wants NUL-terminated values: copies, since a view need not end in one.
  std::vector<std::string> owned;
  owned.reserve(params.size());
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const auto& param : params) {
    if (param) {
      owned.emplace_back(*param);
      values.push_back(owned.back().c_str());
    } else {
      values.push_back(nullptr);
    }
  }
  return finished(PQexecParams(conn_.get(), text.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                               nullptr, nullptr, 0),
                  doing);
}

result<rows> connection::execute(const char* name, std::span<const char* const> values, std::string_view doing) {
  if (!conn_) return make_error(errc::unavailable, std::string(doing) + " failed: not connected");
  return finished(
      PQexecPrepared(conn_.get(), name, static_cast<int>(values.size()), values.data(), nullptr, nullptr, 0), doing);
}

result<rows> connection::finished(PGresult* res, std::string_view doing) const {
  rows out(res);
  const auto status = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return out;
  if (res == nullptr) return make_error(errc::unavailable, std::string(doing) + " failed: " + last_error());
  error err = error_of(res, doing);
  if (!healthy()) err.code = errc::unavailable;
  return err;
}

}  // namespace parley::pg
