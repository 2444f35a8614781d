// Diligence push (Dominds' "鞭策"): a root dialog that stops — its model gave a final answer, no
// question waits for the human and no subdialog for a reply — is told to go on, up to its member's
// `diligence_push_max` times (Dominds' `diligence-push-max`). The text is Dominds': the first of
// `.minds/diligence.<language>.md` and `.minds/diligence.md` that exists (an empty one switches
// the push off), else a built-in one. YAML front matter in the file is left out.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace parley::engine {

// The prompt to send, or nullopt when a file switches the push off.
std::optional<std::string> diligence_prompt(const std::filesystem::path& workspace, std::string_view language);

}  // namespace parley::engine
