// Makes the transport a launch plan asks for: a child process over stdio, or streamable HTTP.
// A seam so that tests can hand a server_runtime a scripted transport.
#pragma once

#include <boost/asio/any_io_executor.hpp>

#include <functional>
#include <memory>
#include <string>

#include "parley/core/result.hpp"
#include "parley/tools/mcp/launch_plan.hpp"
#include "parley/tools/mcp/transport.hpp"

namespace parley::tools::mcp {

using transport_factory = std::function<result<std::unique_ptr<transport>>(
    boost::asio::any_io_executor executor, const std::string& server_id, const server_launch& plan)>;

// stdio_transport or http_transport, as the plan says.
result<std::unique_ptr<transport>> make_transport(boost::asio::any_io_executor executor, const std::string& server_id,
                                                  const server_launch& plan);

}  // namespace parley::tools::mcp
