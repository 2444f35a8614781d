// OTLP's ExportTraceServiceRequest in protobuf's wire format (opentelemetry-proto, trace/v1 and
// collector/trace/v1), written by hand for the few messages a span needs: what OTLP/HTTP
// collectors take as `application/x-protobuf`.
#pragma once

#include <span>
#include <string>

#include "parley/server/trace_span.hpp"

namespace parley::server {

struct trace_resource {
  std::string service_name = "parley";
  std::string service_version;
};

std::string encode_trace_export(const trace_resource& resource, std::span<const trace_span> spans);

}  // namespace parley::server
