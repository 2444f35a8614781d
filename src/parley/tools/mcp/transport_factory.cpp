#include "parley/tools/mcp/transport_factory.hpp"

#include <algorithm>

#include "parley/tools/mcp/http_transport.hpp"
#include "parley/tools/mcp/stdio_transport.hpp"

namespace parley::tools::mcp {

result<std::unique_ptr<transport>> make_transport(boost::asio::any_io_executor executor, const std::string& server_id,
                                                  const server_launch& plan) {
  if (plan.transport == config::mcp_transport::stdio) {
    return std::unique_ptr<transport>(std::make_unique<stdio_transport>(std::move(executor), server_id,
                                                                        stdio_command{plan.argv, plan.cwd, plan.env}));
  }
  http_transport_options options;
  options.server = server_id;
  options.url = plan.url;
  for (const auto& [name, value] : plan.headers) options.headers.push_back(http::header_field{name, value});
  options.session_id = plan.session_id;
  // A server that answers a call with plain JSON sends its head only with the result: the wait
  // for it is the session's to bound (call_timeout), so the transport's is no shorter.
  options.timeouts.first_byte = std::max(options.timeouts.first_byte, plan.call_timeout);
  options.timeouts.idle = std::max(options.timeouts.idle, plan.call_timeout);
  auto made = http_transport::make(std::move(executor), std::move(options));
  if (!made) return std::move(made).err();
  return std::unique_ptr<transport>(std::move(*made));
}

}  // namespace parley::tools::mcp
