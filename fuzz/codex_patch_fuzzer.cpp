// Codex-format patches (tools/codex_patch.hpp), as a model sends them to apply_patch. Invariants:
//  - parsing never throws: a refusal is errc::invalid_argument naming the patch line (or saying the
//    patch is empty);
//  - an accepted patch names a file in every change, a move names its target, and an added file's
//    content is all the patch gave it;
//  - applying its hunks to any text (here the patch's own text, and an empty file) never throws,
//    and every rejection numbers a hunk of the change.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "parley/tools/codex_patch.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = parley::fuzz::as_text(data, size);
  auto changes = parley::tools::parse_codex_patch(text);
  if (!changes) {
    FUZZ_CHECK(changes.err().code == parley::errc::invalid_argument, changes.err().message);
    const auto& message = changes.err().message;
    FUZZ_CHECK(message.rfind("patch line ", 0) == 0 || message.rfind("the patch is empty", 0) == 0, message);
    return 0;
  }
  FUZZ_CHECK(!changes->empty(), std::string(text));
  for (const auto& change : *changes) {
    FUZZ_CHECK(!change.path.empty(), std::string(text));
    FUZZ_CHECK(change.content.size() <= text.size(), change.path);
    if (change.action != parley::tools::codex_action::update) continue;
    for (const std::string_view original : {std::string_view(text), std::string_view{}}) {
      const auto patched = parley::tools::apply_codex_hunks(original, change.hunks);
      for (const auto& rejection : patched.rejected) {
        FUZZ_CHECK(rejection.number >= 1 && rejection.number <= change.hunks.size(), rejection.why);
        FUZZ_CHECK(!rejection.why.empty(), change.path);
      }
    }
  }
  return 0;
}
