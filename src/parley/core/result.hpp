// result<T>: the value-or-error type every module returns for expected failures (bad input,
// missing dialog, provider error). Bugs are asserts; nothing here throws.
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace parley {

enum class errc {
  invalid_argument,  // malformed input from a user, a file or a model
  not_found,         // an id or name that does not exist
  conflict,          // a state that forbids the operation (stale hash, already answered ...)
  limit_exceeded,    // a configured bound was hit
  config_error,      // a team, script or workspace file is wrong
  io_error,          // the file system or database failed
  corrupt,           // stored data failed an integrity check
  provider_error,    // a model provider failed
  cancelled,         // the operation was stopped on purpose
  internal,          // a bug surfaced as an error instead of a crash
  storage_full,      // the disk (or a quota) is full: nothing was written; retry once there is room
  unavailable,       // the store cannot take writes now (changed under its writer); retry later
};

const char* errc_name(errc code) noexcept;

struct error {
  errc code = errc::internal;
  std::string message;
};

inline error make_error(errc code, std::string message) { return error{code, std::move(message)}; }

template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  result(error err) : state_(std::in_place_index<1>, std::move(err)) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }

  T& value() & {
    assert(has_value());
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(state_);
  }
  // By value, so `for (auto& x : f().value())` does not dangle.
  T value() && {
    assert(has_value());
    return std::get<0>(std::move(state_));
  }
  const error& err() const& {
    assert(!has_value());
    return std::get<1>(state_);
  }
  error&& err() && {
    assert(!has_value());
    return std::get<1>(std::move(state_));
  }

  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, error> state_;
};

template <>
class [[nodiscard]] result<void> {
 public:
  result() = default;
  result(error err) : err_(std::move(err)), ok_(false) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const noexcept { return ok_; }
  explicit operator bool() const noexcept { return ok_; }
  const error& err() const& {
    assert(!ok_);
    return err_;
  }
  error&& err() && {
    assert(!ok_);
    return std::move(err_);
  }

 private:
  error err_;
  bool ok_ = true;
};

inline result<void> ok() { return {}; }

}  // namespace parley

// Propagates the error of an expression returning result<...> from the enclosing function.
#define PARLEY_TRY(expr)                                                 \
  do {                                                                   \
    auto parley_try_result_ = (expr);                                    \
    if (!parley_try_result_) return std::move(parley_try_result_).err(); \
  } while (false)

// Assigns the value of an expression returning result<T> to `target`, or propagates its error.
#define PARLEY_TRY_ASSIGN(target, expr)                                  \
  do {                                                                   \
    auto parley_try_result_ = (expr);                                    \
    if (!parley_try_result_) return std::move(parley_try_result_).err(); \
    (target) = std::move(*parley_try_result_);                           \
  } while (false)

// The same for coroutines.
#define PARLEY_CO_TRY(expr)                                                 \
  do {                                                                      \
    auto parley_try_result_ = (expr);                                       \
    if (!parley_try_result_) co_return std::move(parley_try_result_).err(); \
  } while (false)
