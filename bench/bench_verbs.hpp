// The parley-bench programs. Each prints human-readable lines and, as its last line, one JSON
// object with its figures (units in the key names).
#pragma once

#include <boost/json/object.hpp>

#include <map>
#include <stdexcept>
#include <string>

namespace parley::bench {

struct bench_args {
  std::map<std::string, std::string> values;
  // Throws std::invalid_argument when the value is not an integer; main() reports it as a usage error.
  int int_or(const std::string& key, int fallback) const {
    const auto it = values.find(key);
    if (it == values.end()) return fallback;
    const std::string& text = it->second;
    const bool digits =
        !text.empty() && text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos;
    if (!digits) throw std::invalid_argument("--" + key + " needs an integer, got '" + text + "'");
    return std::stoi(text);
  }
  std::string string_or(const std::string& key, std::string fallback) const {
    const auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
  }
};

void print_json_line(const boost::json::object& figures);
int run_engine_bench(const bench_args& args);
int run_tree_bench(const bench_args& args);
int run_ws_bench(const bench_args& args);
int run_fanout3_bench(const bench_args& args);
int run_floor_cpp_bench(const bench_args& args);
int run_sse_bench(const bench_args& args);
int run_records_bench(const bench_args& args);
int run_tot24_bench(const bench_args& args);
int run_flow_bench(const bench_args& args);
// eval_bench.cpp: parley eval of N cases against the scripted model.
int run_eval_bench(const bench_args& args);
int run_tools_bench(const bench_args& args);
int run_history_bench(const bench_args& args);
int run_fork_bench(const bench_args& args);
int run_soak_bench(const bench_args& args);
int run_chat_bench(const bench_args& args);
int run_failover_bench(const bench_args& args);
int run_import_bench(const bench_args& args);
int run_mcp_bench(const bench_args& args);
// Not a benchmark: the MCP server `parley-bench mcp` starts (over stdio, or HTTP with --http).
int run_mcp_echo_server(const bench_args& args);

}  // namespace parley::bench
