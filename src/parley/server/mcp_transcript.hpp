// The text of MCP resources (mcp_resources.hpp): a dialog's current course as Markdown, for a
// model or a person to read — who said what, the tools called and what they returned — and an
// open question. Long tool output and arguments are cut; a dialog past kMaxTranscriptBytes keeps
// its latest messages and says how many earlier ones were left out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "parley/engine/human_questions.hpp"
#include "parley/model/records.hpp"

namespace parley::server {

inline constexpr std::size_t kMaxTranscriptBytes = std::size_t{512} << 10;

std::string dialog_markdown(const dialog_row& row, const std::vector<message_row>& messages);
std::string question_markdown(const engine::open_question& asked);

}  // namespace parley::server
