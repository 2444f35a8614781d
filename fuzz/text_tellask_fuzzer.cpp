// The text Tellask parser (engine/text_tellask.hpp): an input is a saying of a text-mode model.
//  - Every call is one of the five names with exactly its arguments: a target id and slug that
//    match the grammar, non-blank content.
//  - No call: the prose is the saying, unchanged. Calls: the prose is no longer than the saying,
//    and parsing it again finds no call (cut blocks cannot leave a block behind) and the same
//    errors.
//  - Errors point at a line of the saying.
//  - render_text_tellask of a call parses back to exactly that call, with no prose and no error
//    (the header promises this for content whose line breaks are "\n").
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "parley/engine/text_tellask.hpp"

namespace {

using namespace parley;
using parley::fuzz::as_text;

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_id(std::string_view s) {
  if (s.empty() || !is_alpha(s.front())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return is_alpha(c) || (c >= '0' && c <= '9') || c == '_' || c == '-'; });
}
bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos; }

std::string describe(const engine::text_tellask_call& call) {
  return call.name + " " + boost::json::serialize(call.arguments);
}

std::string_view string_arg(const engine::text_tellask_call& call, std::string_view key) {
  const auto* value = call.arguments.if_contains(key);
  FUZZ_CHECK(value != nullptr && value->is_string(), "argument " + std::string(key) + " missing: " + describe(call));
  return value->get_string();
}

void check_call(const engine::text_tellask_call& call) {
  std::size_t expected_arguments = 1;
  if (call.name == "tellaskSessionless") {
    expected_arguments = 2;
    FUZZ_CHECK(is_id(string_arg(call, "targetAgentId")), "bad target: " + describe(call));
  } else if (call.name == "tellask") {
    expected_arguments = 3;
    FUZZ_CHECK(is_id(string_arg(call, "targetAgentId")), "bad target: " + describe(call));
    FUZZ_CHECK(is_id(string_arg(call, "sessionSlug")), "bad slug: " + describe(call));
  } else {
    FUZZ_CHECK(call.name == "askHuman" || call.name == "freshBootsReasoning" || call.name == "tellaskBack",
               "unknown call name: " + describe(call));
  }
  FUZZ_CHECK(call.arguments.size() == expected_arguments, "unexpected arguments: " + describe(call));
  FUZZ_CHECK(!is_blank(string_arg(call, "tellaskContent")), "blank content: " + describe(call));
  if (call.name == "tellaskSessionless" || call.name == "tellask") {
    const std::string_view target = string_arg(call, "targetAgentId");
    FUZZ_CHECK(target != "human" && target != "self" && target != "tellasker",
               "a reserved target as an agent: " + describe(call));
  }
}

void check_round_trip(const engine::text_tellask_call& call) {
  const std::string rendered = engine::render_text_tellask(call);
  const auto again = engine::parse_text_tellasks(rendered);
  FUZZ_CHECK(again.errors.empty(), "the rendered call does not parse: " + rendered + "\n" +
                                       (again.errors.empty() ? "" : again.errors.front().message));
  FUZZ_CHECK(again.calls.size() == 1 && again.calls.front() == call,
             "render + parse changed the call:\n" + describe(call) + "\nrendered:\n" + rendered);
  FUZZ_CHECK(again.prose.empty(), "render + parse left prose: " + again.prose);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view saying = as_text(data, size);
  const auto parsed = engine::parse_text_tellasks(saying);

  const std::size_t lines = static_cast<std::size_t>(std::count(saying.begin(), saying.end(), '\n')) + 1;
  for (const auto& error : parsed.errors) {
    FUZZ_CHECK(error.line >= 1 && error.line <= lines, "an error on line " + std::to_string(error.line) + " of " +
                                                           std::to_string(lines) + ": " + error.message);
    FUZZ_CHECK(!error.message.empty(), "an error without a message");
  }
  if (parsed.calls.empty()) {
    FUZZ_CHECK(parsed.prose == saying, "no call, yet the prose differs from the saying");
    return 0;
  }
  FUZZ_CHECK(parsed.prose.size() <= saying.size(), "the prose is longer than the saying");
  const auto again = engine::parse_text_tellasks(parsed.prose);
  FUZZ_CHECK(again.calls.empty(),
             "the prose still holds a Tellask: " + describe(again.calls.front()) + "\nprose:\n" + parsed.prose);
  FUZZ_CHECK(again.errors.size() == parsed.errors.size(), "the prose has " + std::to_string(again.errors.size()) +
                                                              " errors, the saying " +
                                                              std::to_string(parsed.errors.size()));
  for (const auto& call : parsed.calls) {
    check_call(call);
    check_round_trip(call);
  }
  return 0;
}
