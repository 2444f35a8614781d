// Text the runtime itself writes into dialogs, in the team's language ("en" or "zh"): the
// subdialog course header and delivery rules of seed 001, and the new-course prompt.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parley::engine {

// The role header that starts every subdialog course (seed 001, "Subdialog course header").
std::string course_header(std::string_view language, std::string_view tellasker_member, bool fbr);

// The system-prompt section that tells a subdialog how to deliver (first-line content markers,
// the sideline delivery rule); FBR subdialogs get the tool-less variant.
std::string sideline_rules(std::string_view language, bool fbr);
// What the captioner (`image`) or transcriber is asked for an image or recording sent without words.
std::string media_description_prompt(std::string_view language, bool image);
// A group dialog (seed 002 LIO or a human group): who takes part, and how others' words are marked.
std::string group_rules(std::string_view language, const std::vector<std::string>& humans,
                        const std::vector<std::string>& members);
// The first message of a self-reflection dialog: what the reflection is for and how it ends.
std::string reflection_prompt(std::string_view language, std::string_view goal, std::string_view mood);

// The first user message of a course started by clear_mind.
std::string new_course_prompt(std::string_view language, std::int64_t course);
// The first message of a course the runtime started because the context stayed critical.
std::string context_full_course_prompt(std::string_view language, std::int64_t course);
// The system prompt's warning while the context is at caution or critical; `rounds_left` is how
// many more rounds a critical context may go on before the runtime starts a new course.
std::string context_health_warning(std::string_view language, std::string_view level, std::int64_t prompt_tokens,
                                   std::int64_t context_window, std::int64_t rounds_left);

// How many of a drive's last model rounds carry tool_rounds_warning.
inline constexpr std::int64_t kToolRoundsWarned = 2;
// The system prompt's note in the last rounds before max_tool_rounds stops the drive;
// `rounds_left` is how many more rounds may follow this one (0: this is the last).
std::string tool_rounds_warning(std::string_view language, std::int64_t rounds_left, std::int64_t max_rounds);

inline constexpr std::string_view kTellaskBackMarker = "【tellaskBack】";
inline constexpr std::string_view kFinalMarker = "【最终完成】";
inline constexpr std::string_view kFbrDirectMarker = "【FBR-直接回复】";
inline constexpr std::string_view kFbrReasoningMarker = "【FBR-仅推理】";

// The content with `marker` as its first line unless it already starts with it.
std::string with_marker(std::string_view marker, std::string_view content);

// A sideline's final reply as its tellasker receives it (seed 001, "Content markers (first line
// required)"): it starts with 【最终完成】, or for a Fresh Boots Reasoning sideline with
// 【FBR-直接回复】 or 【FBR-仅推理】. A reply written without its marker gets one, so the
// tellasker always reads the stage: 【最终完成】, or 【FBR-仅推理】 for an FBR reply, the weaker claim,
// since nothing says the FBR answered directly.
std::string with_delivery_marker(std::string_view saying, bool fbr);

}  // namespace parley::engine
