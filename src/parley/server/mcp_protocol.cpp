#include "parley/server/mcp_protocol.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <array>

#include "parley/core/json_read.hpp"

namespace parley::server {

namespace {

constexpr std::array<std::string_view, 4> kMcpVersions = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

}  // namespace

std::span<const std::string_view> mcp_supported_versions() { return kMcpVersions; }

bool is_supported_mcp_version(std::string_view version) {
  return std::find(kMcpVersions.begin(), kMcpVersions.end(), version) != kMcpVersions.end();
}

std::string negotiate_mcp_version(std::string_view requested) {
  return std::string(is_supported_mcp_version(requested) ? requested : kMcpLatestVersion);
}

bool mcp_version_has_progress_message(std::string_view version) { return version >= "2025-03-26"; }
bool mcp_version_has_structured_output(std::string_view version) { return version >= "2025-06-18"; }

std::string null_id_error(int code, std::string_view message) {
  boost::json::object error{{"code", code}, {"message", message}};
  boost::json::object out{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", std::move(error)}};
  return boost::json::serialize(out);
}

incoming_message read_incoming(std::string_view text) {
  incoming_message out;
  boost::system::error_code ec;
  (void)read_json(text, ec);
  if (ec) {
    out.parse_error = true;
    out.refusal = null_id_error(mcp::rpc_code::kParseError, "parse error: not JSON: " + ec.message());
    return out;
  }
  std::optional<mcp::request_id> bad_id;
  auto parsed = mcp::parse_message(text, &bad_id);
  if (parsed) {
    out.message = std::move(*parsed);
    return out;
  }
  const std::string why = "invalid request: " + parsed.err().message;
  out.refusal = bad_id ? mcp::serialize(mcp::error_response(*bad_id, mcp::rpc_code::kInvalidRequest, why))
                       : null_id_error(mcp::rpc_code::kInvalidRequest, why);
  return out;
}

}  // namespace parley::server
