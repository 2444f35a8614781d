// Random JSON objects for differential tests of the stream readers: keys drawn from a given list
// (so paths the readers know come up often), values of every kind, repeated keys, nesting up to a
// few levels. Deterministic for a seed.
#pragma once

#include <random>
#include <string>
#include <utility>
#include <vector>

namespace parley::llm {

class random_json_objects {
 public:
  random_json_objects(std::uint32_t seed, std::vector<std::string> keys) : random_(seed), keys_(std::move(keys)) {}

  std::string next() { return object(0); }

 private:
  static constexpr int kMaxDepth = 5;

  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }

  std::string object(int depth) {
    std::string out = "{";
    const std::size_t members = pick(5);
    for (std::size_t i = 0; i < members; ++i) {
      if (i > 0) out += ",";
      out += "\"" + keys_[pick(keys_.size())] + "\":" + value(depth + 1);
    }
    return out + "}";
  }

  std::string value(int depth) {
    // Texts with escapes, a partial JSON text and text outside ASCII among them.
    static const std::vector<std::string> texts = {"", "a", "tool", "{\\\"k\\\":", "\\u4e2d\\n", "stop"};
    switch (pick(depth < kMaxDepth ? 10 : 7)) {
      case 0:
        return "null";
      case 1:
        return pick(2) == 0 ? "true" : "false";
      case 2:
        return std::to_string(static_cast<int>(pick(7)) - 2);
      case 3:
        return pick(2) == 0 ? "1.75" : "-3e2";
      case 4:
      case 5:
      case 6:
        return "\"" + texts[pick(texts.size())] + "\"";
      case 7:
      case 8:
        return object(depth);
      default: {
        std::string out = "[";
        const std::size_t elements = pick(4);
        for (std::size_t i = 0; i < elements; ++i) out += (i > 0 ? "," : "") + value(depth + 1);
        return out + "]";
      }
    }
  }

  std::mt19937 random_;
  std::vector<std::string> keys_;
};

}  // namespace parley::llm
