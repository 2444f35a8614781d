// Strict JSON reading and writing of seed 003's protocol. Reading refuses unknown fields, wrong
// types, values out of range (scores 0–10, confidences 0–1, the search bounds below), duplicate
// node ids and parents that do not exist, each with an errc::invalid_argument naming the field.
// Writing produces exactly what reading accepts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/json.hpp"
#include "parley/core/result.hpp"
#include "parley/tot/protocol.hpp"

namespace parley::tot {

// Bounds of the inputs a run takes (CLI, REST, tool and model alike).
inline constexpr std::size_t kMaxProblemBytes = 8 * 1024;
inline constexpr std::int64_t kMaxSearchDepth = 10;
inline constexpr std::int64_t kMaxBranchingFactor = 20;
inline constexpr std::int64_t kMaxCandidates = 20;
inline constexpr double kMaxScore = 10.0;

result<thought_node> read_thought_node(const json::value& value, std::string path = "thought_node");
result<thought_tree> read_thought_tree(const json::value& value, std::string path = "tree");
result<search_config> read_search_config(const json::value& value, std::string path = "search_config");
result<protocol_error> read_protocol_error(const json::value& value, std::string path = "error");

// One payload of a known type, e.g. read_payload<evaluation_results>(v, "payload").
template <class Payload>
result<Payload> read_payload(const json::value& value, std::string path = "payload");

// The envelope {from, to, type, payload, task_id, error}; `from`, `to` and `task_id` may be
// absent (a model's reply names only type and payload).
result<message> read_message(const json::value& value);
result<message> parse_message(std::string_view text);
// A reply that must be a message of `Payload`'s type: JSON text, possibly inside a ```json fence.
template <class Payload>
result<Payload> parse_reply(std::string_view text);
// The seed's `error {code, message, recoverable}` a reply carries instead of (or beside) its
// payload, read strictly; nullopt when the reply carries none or does not read as JSON.
std::optional<protocol_error> reply_error(std::string_view text);

// Checks a problem statement: not empty, UTF-8, at most kMaxProblemBytes.
result<void> check_problem(std::string_view problem, std::string_view field = "problem");

json::value to_json(const thought_node& node);
json::value to_json(const thought_tree& tree);
json::value to_json(const search_config& config);
json::value to_json(const protocol_error& error);
json::value to_json(const message_payload& payload);
json::value to_json(const message& message);
std::string to_text(const message& message);

}  // namespace parley::tot
