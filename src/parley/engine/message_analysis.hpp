// What the records' analyst member is told and how its answer is read (seed 002's human_input
// `intent_tags` and `emotion`, ConversationThread `topic_tags`; docs/records.md "Analysis and
// embeddings"). The model is told the message and the exact JSON shape it must answer with, in
// the message's language (Chinese or English). The answer is bytes from outside, read strictly:
// one JSON object with exactly those three keys, bounded tag counts and lengths. A refused answer gets one retry that
// quotes the problem.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parley/config/team.hpp"
#include "parley/core/result.hpp"
#include "parley/llm/provider.hpp"

namespace parley::engine {

inline constexpr std::size_t kMaxAnalysisTags = 8;
inline constexpr std::size_t kMaxAnalysisTagBytes = 64;
// Longer messages are cut (on a UTF-8 boundary) before the analyst reads them.
inline constexpr std::size_t kMaxAnalysedTextBytes = std::size_t{16} * 1024;
// Errors recorded in the log are cut to this many bytes.
inline constexpr std::size_t kMaxAnalysisErrorBytes = 300;

struct message_analysis {
  std::vector<std::string> intent_tags;
  std::string emotion;
  std::vector<std::string> topic_tags;
};

// The language the analyst is instructed in for `text`: "zh" when Chinese characters carry it
// (one counts as much as three Latin letters), else "en".
std::string_view analysis_language(std::string_view text);
// The request that asks `analyst` to analyse `text` (no tools, not streamed), instructed in the
// message's language (analysis_language).
llm::model_request analysis_request(const config::member_config& analyst, std::string_view text);
// The retry after a refused answer: the first request, the answer, and what was wrong with it.
llm::model_request analysis_retry(llm::model_request first, std::string_view answer, std::string_view problem);
// The analysis in `answer`, or an error naming the field and the problem.
result<message_analysis> parse_analysis(std::string_view answer);

}  // namespace parley::engine
