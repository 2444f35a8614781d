// Exact rational numbers for Game of 24: 8 / 3 stays 8/3, so (8 / (3 - 8 / 3)) is exactly 24.
// The puzzle's numbers are at most 13, so numerators and denominators stay far inside int64.
#pragma once

#include <cstdint>
#include <numeric>
#include <optional>
#include <string>

namespace parley::tot::game24 {

class rational {
 public:
  constexpr rational() = default;
  constexpr rational(std::int64_t value) : num_(value) {}  // NOLINT(google-explicit-constructor)
  // nullopt when `den` is 0.
  static std::optional<rational> make(std::int64_t num, std::int64_t den) {
    if (den == 0) return std::nullopt;
    rational out;
    out.num_ = num;
    out.den_ = den;
    out.normalize();
    return out;
  }

  std::int64_t num() const noexcept { return num_; }
  std::int64_t den() const noexcept { return den_; }
  bool is_integer() const noexcept { return den_ == 1; }
  bool is_zero() const noexcept { return num_ == 0; }

  friend rational operator+(rational a, rational b) {
    return *make(a.num_ * b.den_ + b.num_ * a.den_, a.den_ * b.den_);
  }
  friend rational operator-(rational a, rational b) {
    return *make(a.num_ * b.den_ - b.num_ * a.den_, a.den_ * b.den_);
  }
  friend rational operator*(rational a, rational b) { return *make(a.num_ * b.num_, a.den_ * b.den_); }
  // nullopt on division by zero.
  friend std::optional<rational> divide(rational a, rational b) { return make(a.num_ * b.den_, a.den_ * b.num_); }
  friend bool operator==(rational a, rational b) = default;
  friend bool operator<(rational a, rational b) { return a.num_ * b.den_ < b.num_ * a.den_; }

  // "4", "-3", "8/3"
  std::string text() const {
    return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
  }

 private:
  void normalize() {
    if (den_ < 0) {
      num_ = -num_;
      den_ = -den_;
    }
    const std::int64_t g = std::gcd(num_ < 0 ? -num_ : num_, den_);
    if (g > 1) {
      num_ /= g;
      den_ /= g;
    }
  }

  std::int64_t num_ = 0;
  std::int64_t den_ = 1;
};

}  // namespace parley::tot::game24
