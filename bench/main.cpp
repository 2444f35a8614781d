// parley-bench VERB [--key value ...]
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <cstring>
#include <string>

#include "bench_verbs.hpp"

namespace parley::bench {

void print_json_line(const boost::json::object& figures) {
  std::printf("%s\n", boost::json::serialize(figures).c_str());
}

}  // namespace parley::bench

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: parley-bench engine [--dialogs N] [--rounds K]\n"
                 "       parley-bench tree [--roots N] [--in-flight K]\n");
    return 2;
  }
  parley::bench::bench_args args;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strncmp(argv[i], "--", 2) != 0) {
      std::fprintf(stderr, "parley-bench: expected --key value, got '%s'\n", argv[i]);
      return 2;
    }
    const std::string value = argv[i + 1];
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
      std::fprintf(stderr, "parley-bench: %s needs a positive integer, got '%s'\n", argv[i], argv[i + 1]);
      return 2;
    }
    args.values[argv[i] + 2] = value;
  }
  const std::string verb = argv[1];
  if (verb == "engine") return parley::bench::run_engine_bench(args);
  if (verb == "tree") return parley::bench::run_tree_bench(args);
  std::fprintf(stderr, "parley-bench: unknown benchmark '%s' (available: engine, tree)\n", verb.c_str());
  return 2;
}
