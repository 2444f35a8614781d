#include "parley/config/shell_reader.hpp"

namespace parley::config::detail {
namespace {

const std::vector<std::string> kShellKeys{
    "allow", "deny", "timeout_seconds", "max_timeout_seconds", "max_output_bytes", "sandbox", "network"};
constexpr std::int64_t kMaxTimeout = 24 * 3600;
constexpr std::int64_t kMaxOutput = 16 * 1024 * 1024;

result<void> check_at_most(const map_reader& map, std::string_view key, std::int64_t value, std::int64_t limit) {
  if (value <= limit) return ok();
  return map.fail_at_value(*map.find(key), "must be at most " + std::to_string(limit));
}

}  // namespace

result<void> read_shell(const map_reader& parent, access::shell_policy& policy) {
  auto child = parent.child("shell");
  if (!child) return std::move(child).err();
  if (!child->has_value()) return ok();
  const map_reader& map = **child;
  PARLEY_TRY(map.check_keys(kShellKeys));
  PARLEY_TRY(map.read("allow", policy.allow));
  PARLEY_TRY(map.read("deny", policy.deny));
  PARLEY_TRY(map.read_positive("timeout_seconds", policy.timeout_seconds));
  PARLEY_TRY(map.read_positive("max_timeout_seconds", policy.max_timeout_seconds));
  PARLEY_TRY(map.read_positive("max_output_bytes", policy.max_output_bytes));
  if (map.has("timeout_seconds"))
    PARLEY_TRY(check_at_most(map, "timeout_seconds", policy.timeout_seconds, kMaxTimeout));
  if (map.has("max_timeout_seconds")) {
    PARLEY_TRY(check_at_most(map, "max_timeout_seconds", policy.max_timeout_seconds, kMaxTimeout));
  }
  if (map.has("max_output_bytes"))
    PARLEY_TRY(check_at_most(map, "max_output_bytes", policy.max_output_bytes, kMaxOutput));
  if (policy.timeout_seconds > policy.max_timeout_seconds) {
    return map.fail("timeout_seconds (" + std::to_string(policy.timeout_seconds) + ") is above max_timeout_seconds (" +
                    std::to_string(policy.max_timeout_seconds) + ")");
  }
  if (const auto* item = map.find("sandbox")) {
    std::string sandbox;
    PARLEY_TRY(map.read("sandbox", sandbox));
    if (sandbox == "none") {
      policy.sandbox = access::shell_sandbox::none;
    } else if (sandbox == "bubblewrap") {
      policy.sandbox = access::shell_sandbox::bubblewrap;
    } else {
      return map.fail_at_value(*item, "unknown sandbox '" + sandbox + "'; expected none or bubblewrap");
    }
  }
  return map.read("network", policy.network);
}

}  // namespace parley::config::detail
