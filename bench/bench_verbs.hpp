// The parley-bench programs. Each prints human-readable lines and, as its last line, one JSON
// object with its figures (units in the key names).
#pragma once

#include <boost/json/object.hpp>

#include <map>
#include <string>

namespace parley::bench {

struct bench_args {
  std::map<std::string, std::string> values;
  int int_or(const std::string& key, int fallback) const {
    const auto it = values.find(key);
    return it == values.end() ? fallback : std::stoi(it->second);
  }
};

void print_json_line(const boost::json::object& figures);
int run_engine_bench(const bench_args& args);
int run_tree_bench(const bench_args& args);

}  // namespace parley::bench
