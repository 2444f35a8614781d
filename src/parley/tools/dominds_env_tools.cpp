// Dominds' env_get, env_set and env_unset (dominds@1.29.0's env.js), with Dominds' arguments (key,
// value) and answers ("ok: KEY\nprev: …\nnext: …", a value or "(unset)"). Dominds changes its own
// server process's environment; Parley changes an overlay of the environment it gives this
// dialog's shell_cmd commands and daemons (dominds_os_tools.hpp), so one dialog's env_set reaches
// no other dialog, and Parley's own environment, which holds the provider keys, is never read or
// changed: a variable shell commands are not given (every secret one, shell_command.hpp) reads as
// "(unset)" until this dialog sets it. The overlay lasts as long as the server process.
#include <boost/asio/awaitable.hpp>

#include <algorithm>
#include <cctype>

#include "parley/core/json_fields.hpp"
#include "parley/tools/dominds_os_tools.hpp"
#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/shell_command.hpp"

namespace parley::tools::dominds_detail {
namespace {

namespace asio = boost::asio;
namespace json = boost::json;

constexpr std::string_view kUnsetValue = "(unset)";

bool is_env_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name.front())) != 0) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return c == '_' || std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

// The key argument, checked as Dominds checks it, and within Parley's bounds.
result<std::string> env_key(json_fields& in, std::string_view tool_name) {
  const std::string key = in.string("key");
  if (!in.ok()) return make_error(errc::invalid_argument, in.message());
  const std::string prefix = std::string(tool_name) + ".key ";
  if (key.find_first_not_of(" \t\r\n") == std::string::npos) {
    return make_error(errc::invalid_argument, prefix + "must be a non-empty string");
  }
  if (!is_env_name(key)) {
    return make_error(errc::invalid_argument,
                      prefix + "must be a valid environment variable name matching ^[A-Za-z_][A-Za-z0-9_]*$");
  }
  if (key.size() > env_overlays::kMaxNameBytes) {
    return make_error(errc::invalid_argument,
                      prefix + "must be at most " + std::to_string(env_overlays::kMaxNameBytes) + " characters");
  }
  if (key == kIdempotencyKeyVariable && tool_name != "env_get") {
    return make_error(errc::invalid_argument, prefix + "'" + key +
                                                  "' is set by Parley for each call (the call's idempotency key) "
                                                  "and cannot be changed");
  }
  return key;
}

// What this dialog's shell commands see for `key`: the overlay's, else the environment shell
// commands are given (Parley's own less its secrets).
std::optional<std::string> visible_value(const os_state& state, const std::string& dialog_id, const std::string& key) {
  const auto overlay = state.env.of(dialog_id);
  if (const auto it = overlay.find(key); it != overlay.end()) return it->second;
  const std::string prefix = key + "=";
  for (const auto& entry : stripped_environment()) {
    if (entry.starts_with(prefix)) return entry.substr(prefix.size());
  }
  return std::nullopt;
}

class env_tool final : public tool {
 public:
  enum class kind { get, set, unset };
  env_tool(std::shared_ptr<os_state> state, kind which, std::string_view name)
      : state_(std::move(state)), which_(which), spec_(dominds_spec_or_note(name)) {}
  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return which_ != kind::get; }

  asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    co_return run(args, ctx);
  }

 private:
  tool_outcome run(const json::object& args, const tool_context& ctx) const {
    json_fields in(args);
    auto key = env_key(in, spec_.name);
    if (!key) return tool_outcome{false, key.err().message};
    const auto prev = visible_value(*state_, ctx.dialog_id, *key);
    const std::string prev_text = prev.value_or(std::string(kUnsetValue));
    if (which_ == kind::get) return tool_outcome{true, prev_text};
    std::optional<std::string> next;
    if (which_ == kind::set) {
      next = in.string("value");
      if (!in.ok()) return tool_outcome{false, "env_set.value must be a string (" + in.message() + ")"};
      if (next->find('\0') != std::string::npos) return tool_outcome{false, "env_set.value must not contain NUL"};
      if (next->size() > env_overlays::kMaxValueBytes) {
        return tool_outcome{false,
                            "env_set.value must be at most " + std::to_string(env_overlays::kMaxValueBytes) + " bytes"};
      }
    }
    if (auto put = state_->env.put(ctx.dialog_id, *key, next); !put) {
      return tool_outcome{false, spec_.name + "." + put.err().message};
    }
    return tool_outcome{true,
                        "ok: " + *key + "\nprev: " + prev_text + "\nnext: " + next.value_or(std::string(kUnsetValue))};
  }

  std::shared_ptr<os_state> state_;
  kind which_;
  tool_spec spec_;
};

}  // namespace

void register_env_tools(tool_registry& registry, const std::shared_ptr<os_state>& state) {
  registry.add(std::make_unique<env_tool>(state, env_tool::kind::get, "env_get"));
  registry.add(std::make_unique<env_tool>(state, env_tool::kind::set, "env_set"));
  registry.add(std::make_unique<env_tool>(state, env_tool::kind::unset, "env_unset"));
}

}  // namespace parley::tools::dominds_detail
