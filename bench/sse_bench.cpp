// parley-bench sse: how fast Parley turns provider stream bytes into a model response, for both wire
// formats. It generates realistic streams — OpenAI Chat Completions chunks (reasoning_content,
// content and tool-call argument deltas, finish and usage chunks, [DONE]) and Anthropic Messages
// events (message_start, thinking/text/tool_use blocks with their deltas, pings, message_delta,
// message_stop) — and feeds them in network-sized chunks through the real sse_parser and the real
// stream assemblers, one parser + assembler per response as a provider call uses them. Two
// baselines run over the same bytes and chunks in the same process: a memchr line split (the floor
// of any SSE reader) and the split plus one boost::json parse per data line (the floor of any
// reader that looks at the JSON). Best of --rounds; MB = 10^6 bytes. Last line: one JSON object.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_verbs.hpp"
#include "parley/http/sse_parser.hpp"
#include "parley/llm/anthropic/anthropic_stream.hpp"
#include "parley/llm/openai/openai_stream.hpp"

namespace parley::bench {
namespace {

// One response's bytes, and the whole stream as the provider would read it over many calls.
struct corpus {
  std::vector<std::string> responses;
  std::size_t bytes = 0;
};

// A JSON string literal, quotes included.
std::string json_quoted(std::string_view text) { return boost::json::serialize(boost::json::string(text)); }

// Deterministic "words" of a few characters, like the tokens a model streams (quotes, newlines and
// non-ASCII included, so escapes and UTF-8 are part of the work).
class token_source {
 public:
  std::string next() {
    static const char* const words[] = {" the",  " file", " reads", " value", " and",   " then",  " we",
                                        " call", " it",   "'s",     ",",      " tool",  " \"x\"", "\n",
                                        " 42",   " é",    " 数据",  " model", " check", "."};
    return words[step() % (sizeof words / sizeof *words)];
  }
  // Tool arguments as a model streams them: ~4-byte pieces of one JSON object (ASCII only, so a
  // piece never splits a character).
  std::vector<std::string> argument_pieces(int count) {
    std::string text =
        R"({"path": "src/parley/engine/driver.cpp", "start_line": )" + std::to_string(step() % 900) + R"(, "note": ")";
    while (text.size() < std::size_t(count) * 4 - 2) text += " step " + std::to_string(step() % 100);
    text += "\"}";
    std::vector<std::string> pieces;
    for (std::size_t at = 0; at < text.size(); at += 4) pieces.push_back(text.substr(at, 4));
    return pieces;
  }

 private:
  unsigned long long step() {
    state_ = state_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return state_ >> 33;
  }
  unsigned long long state_ = 42;
};

constexpr int kThinkingTokens = 120;
constexpr int kSayingTokens = 300;
constexpr int kArgumentPieces = 40;

std::string openai_response(token_source& tokens, int serial) {
  const std::string head = R"({"id":"chatcmpl-9x)" + std::to_string(serial) +
                           R"(","object":"chat.completion.chunk","created":1731000000,"model":"gpt-4o-2024-08-06",)"
                           R"("system_fingerprint":"fp_50cad350e4","choices":[{"index":0,"delta":)";
  const std::string tail = R"(,"logprobs":null,"finish_reason":null}]})";
  std::string out;
  const auto chunk = [&](const std::string& delta) { out += "data: " + head + delta + tail + "\n\n"; };
  chunk(R"({"role":"assistant","content":""})");
  for (int i = 0; i < kThinkingTokens; ++i) chunk(R"({"reasoning_content":)" + json_quoted(tokens.next()) + "}");
  for (int i = 0; i < kSayingTokens; ++i) chunk(R"({"content":)" + json_quoted(tokens.next()) + "}");
  chunk(R"({"tool_calls":[{"index":0,"id":"call_)" + std::to_string(serial) +
        R"(","type":"function","function":{"name":"read_file","arguments":""}}]})");
  for (const auto& piece : tokens.argument_pieces(kArgumentPieces))
    chunk(R"({"tool_calls":[{"index":0,"function":{"arguments":)" + json_quoted(piece) + "}}]}");
  out += "data: " + head + R"({},"logprobs":null,"finish_reason":"tool_calls"}]})" + "\n\n";
  out += R"(data: {"id":"chatcmpl-9x","object":"chat.completion.chunk","created":1731000000,"model":"gpt-4o",)"
         R"("choices":[],"usage":{"prompt_tokens":1834,"completion_tokens":466,"total_tokens":2300,)"
         R"("completion_tokens_details":{"reasoning_tokens":120}}})"
         "\n\n";
  out += "data: [DONE]\n\n";
  return out;
}

std::string anthropic_response(token_source& tokens, int serial) {
  std::string out;
  const auto event = [&](const char* name, const std::string& data) {
    out += std::string("event: ") + name + "\ndata: " + data + "\n\n";
  };
  event("message_start", R"({"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL)" +
                             std::to_string(serial) +
                             R"(","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929",)"
                             R"("content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1834,)"
                             R"("cache_creation_input_tokens":0,"cache_read_input_tokens":1024,"output_tokens":1}}})");
  event("content_block_start",
        R"({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}})");
  event("ping", R"({"type": "ping"})");
  for (int i = 0; i < kThinkingTokens; ++i) {
    event("content_block_delta", R"({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta",)"
                                 R"("thinking":)" +
                                     json_quoted(tokens.next()) + "}}");
  }
  event("content_block_delta",
        R"({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":")" +
            std::string(344, 'E') + "\"}}");
  event("content_block_stop", R"({"type":"content_block_stop","index":0})");
  event("content_block_start", R"({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}})");
  for (int i = 0; i < kSayingTokens; ++i) {
    event("content_block_delta", R"({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":)" +
                                     json_quoted(tokens.next()) + "}}");
    if (i % 100 == 99) event("ping", R"({"type": "ping"})");
  }
  event("content_block_stop", R"({"type":"content_block_stop","index":1})");
  event("content_block_start", R"({"type":"content_block_start","index":2,"content_block":{"type":"tool_use",)"
                               R"("id":"toolu_01T1x1fJ34qAmk2tNTrN7Up)" +
                                   std::to_string(serial) + R"(","name":"read_file","input":{}}})");
  for (const auto& piece : tokens.argument_pieces(kArgumentPieces)) {
    event("content_block_delta", R"({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta",)"
                                 R"("partial_json":)" +
                                     json_quoted(piece) + "}}");
  }
  event("content_block_stop", R"({"type":"content_block_stop","index":2})");
  event("message_delta", R"({"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},)"
                         R"("usage":{"output_tokens":466}})");
  event("message_stop", R"({"type":"message_stop"})");
  return out;
}

template <class Make>
corpus make_corpus(std::size_t target_bytes, Make make) {
  corpus out;
  token_source tokens;
  for (int serial = 0; out.bytes < target_bytes; ++serial) {
    out.responses.push_back(make(tokens, serial));
    out.bytes += out.responses.back().size();
  }
  return out;
}

// Network-sized reads: a mix of one-TCP-segment and larger buffered reads, the same for every reader.
constexpr std::size_t kChunkSizes[] = {1448, 173, 4096, 512, 2896, 16384, 96, 1448};

template <class Feed>
void for_each_chunk(const std::string& bytes, std::size_t& turn, Feed feed) {
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t size = std::min(kChunkSizes[turn++ % std::size(kChunkSizes)], bytes.size() - at);
    feed(std::string_view(bytes).substr(at, size));
    at += size;
  }
}

// Counts what the assemblers hand to the engine, so nothing is optimised away.
class counting_sink final : public llm::stream_sink {
 public:
  void on_thinking_chunk(std::string_view text) override { bytes += text.size(); }
  void on_saying_chunk(std::string_view text) override { bytes += text.size(); }
  void on_tool_call(const llm::tool_call& call) override { bytes += call.arguments.size(); }
  std::size_t bytes = 0;
};

template <class Assembler>
result<std::size_t> parley_pass(const corpus& input) {
  std::size_t turn = 0;
  std::size_t produced = 0;
  std::vector<http::sse_event> events;
  for (const auto& response : input.responses) {
    counting_sink sink;
    Assembler assembler(sink);
    http::sse_parser parser;
    result<void> status;
    for_each_chunk(response, turn, [&](std::string_view piece) {
      if (!status) return;
      status = parser.feed(piece, events);
      for (const auto& event : events) {
        if (status) status = assembler.on_event(event);
      }
      events.clear();
    });
    PARLEY_TRY(status);
    PARLEY_TRY(parser.finish(events));
    for (const auto& event : events) PARLEY_TRY(assembler.on_event(event));
    events.clear();
    auto done = assembler.finish();
    if (!done) return std::move(done).err();
    produced += sink.bytes + done->saying.size();
  }
  return produced;
}

// Splits lines with memchr, carrying a partial line across chunks; `on_line` sees each full line.
template <class OnLine>
std::size_t split_pass(const corpus& input, OnLine on_line) {
  std::size_t turn = 0;
  std::size_t lines = 0;
  std::string carry;
  for (const auto& response : input.responses) {
    for_each_chunk(response, turn, [&](std::string_view piece) {
      while (!piece.empty()) {
        const void* found = std::memchr(piece.data(), '\n', piece.size());
        if (found == nullptr) {
          carry.append(piece);
          return;
        }
        const std::size_t length = static_cast<const char*>(found) - piece.data();
        if (carry.empty()) {
          on_line(piece.substr(0, length));
        } else {
          carry.append(piece.substr(0, length));
          on_line(std::string_view(carry));
          carry.clear();
        }
        ++lines;
        piece.remove_prefix(length + 1);
      }
    });
  }
  return lines;
}

std::size_t json_split_pass(const corpus& input) {
  std::size_t values = 0;
  split_pass(input, [&](std::string_view line) {
    if (line.substr(0, 6) != "data: " || line == "data: [DONE]") return;
    boost::system::error_code ec;
    auto parsed = boost::json::parse(line.substr(6), ec);
    if (!ec && parsed.is_object()) values += parsed.as_object().size();
  });
  return values;
}

// Best wall time of `rounds` runs of `pass`, as MB/s of `bytes`.
template <class Pass>
double best_mb_per_s(std::size_t bytes, int rounds, Pass pass) {
  double best = 1e300;
  for (int i = 0; i < rounds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    pass();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return double(bytes) / 1e6 / best;
}

struct format_figures {
  double parley_mb_per_s = 0;
  double split_mb_per_s = 0;
  double split_json_mb_per_s = 0;
  std::size_t bytes = 0;
  std::size_t responses = 0;
};

template <class Assembler>
result<format_figures> measure_format(const corpus& input, int rounds) {
  format_figures out;
  out.bytes = input.bytes;
  out.responses = input.responses.size();
  auto check = parley_pass<Assembler>(input);  // also warms caches and the allocator
  if (!check) return std::move(check).err();
  volatile std::size_t sink = 0;
  out.parley_mb_per_s = best_mb_per_s(input.bytes, rounds, [&] { sink = sink + *parley_pass<Assembler>(input); });
  out.split_mb_per_s =
      best_mb_per_s(input.bytes, rounds, [&] { sink = sink + split_pass(input, [](std::string_view) {}); });
  out.split_json_mb_per_s = best_mb_per_s(input.bytes, rounds, [&] { sink = sink + json_split_pass(input); });
  return out;
}

void report(const char* name, const format_figures& f, boost::json::object& out) {
  std::printf(
      "%-9s %8.1f MB/s parley (sse_parser + assembler)   %8.1f MB/s memchr split (%.3fx)   %8.1f MB/s split + "
      "json parse (%.3fx)   %.1f MB in %zu responses\n",
      name, f.parley_mb_per_s, f.split_mb_per_s, f.parley_mb_per_s / f.split_mb_per_s, f.split_json_mb_per_s,
      f.parley_mb_per_s / f.split_json_mb_per_s, double(f.bytes) / 1e6, f.responses);
  const std::string p = name;
  out[p + "_parley_mb_per_s"] = f.parley_mb_per_s;
  out[p + "_memchr_split_mb_per_s"] = f.split_mb_per_s;
  out[p + "_split_json_mb_per_s"] = f.split_json_mb_per_s;
  out[p + "_parley_to_memchr_ratio"] = f.parley_mb_per_s / f.split_mb_per_s;
  out[p + "_parley_to_split_json_ratio"] = f.parley_mb_per_s / f.split_json_mb_per_s;
  out[p + "_stream_bytes"] = f.bytes;
  out[p + "_responses"] = f.responses;
}

}  // namespace

int run_sse_bench(const bench_args& args) {
  const std::size_t target = std::size_t(std::max(1, args.int_or("mb", 32))) * 1000 * 1000;
  const int rounds = std::max(1, args.int_or("rounds", 3));
  const auto openai_input = make_corpus(target, openai_response);
  const auto anthropic_input = make_corpus(target, anthropic_response);
  auto openai = measure_format<llm::openai::stream_assembler>(openai_input, rounds);
  auto anthropic = measure_format<llm::anthropic::stream_assembler>(anthropic_input, rounds);
  if (!openai || !anthropic) {
    std::fprintf(stderr, "parley-bench sse: %s\n", (!openai ? openai.err() : anthropic.err()).message.c_str());
    return 1;
  }
  boost::json::object out{{"bench", "sse"}, {"rounds", rounds}};
  report("openai", *openai, out);
  report("anthropic", *anthropic, out);
  print_json_line(out);
  return 0;
}

}  // namespace parley::bench
