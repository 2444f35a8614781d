// The rg flags of Dominds' ripgrep_search (tools/dominds_rg_args.hpp), one argument a line, as a
// model sends them in `rg_args`. Invariants:
//  - reading never throws: a refusal is errc::invalid_argument whose message starts "rg_args: ";
//  - an accepted list gives rg only the flags of the allowlist (--word-regexp, --line-regexp,
//    --hidden, --type=T / --type-not=T with T a plain name), context of 0 to 10 lines, non-empty
//    globs and a known case mode — never a flag that runs a program or reads another file.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "parley/tools/dominds_rg_args.hpp"

namespace {

bool vetted_flag_shaped(const std::string& flag) {
  if (flag == "--word-regexp" || flag == "--line-regexp" || flag == "--hidden") return true;
  for (const std::string prefix : {"--type=", "--type-not="}) {
    if (flag.rfind(prefix, 0) != 0 || flag.size() == prefix.size()) continue;
    return flag.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+", prefix.size()) ==
           std::string::npos;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = parley::fuzz::as_text(data, size);
  std::vector<std::string> args;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    args.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  auto read = parley::tools::dominds_detail::read_rg_args(args);
  if (!read) {
    FUZZ_CHECK(read.err().code == parley::errc::invalid_argument, read.err().message);
    FUZZ_CHECK(read.err().message.rfind("rg_args: ", 0) == 0, read.err().message);
    return 0;
  }
  for (const auto& flag : read->vetted_flags) FUZZ_CHECK(vetted_flag_shaped(flag), flag);
  FUZZ_CHECK(read->before >= 0 && read->before <= 10, std::string(text));
  FUZZ_CHECK(read->after >= 0 && read->after <= 10, std::string(text));
  for (const auto& glob : read->globs) FUZZ_CHECK(!glob.empty(), std::string(text));
  if (read->case_mode) {
    const auto& mode = *read->case_mode;
    FUZZ_CHECK(mode == "smart" || mode == "sensitive" || mode == "insensitive", mode);
  }
  return 0;
}
