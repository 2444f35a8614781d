// What each verb takes, written once: `parley --help` lists them all, `parley VERB --help` shows
// one, and a verb given the wrong arguments quotes its own line in the usage error.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli_args.hpp"

namespace parley::cli {

struct verb_usage {
  std::string_view verb;
  std::string_view synopsis;    // after "parley ", e.g. "say DIALOG [--data DIR] \"message\""
  std::string_view summary;     // one line: what it does
  std::string_view summary_zh;  // the same in Chinese (a zh team's `--help`)
};

const std::vector<verb_usage>& verb_usages();
// The summary in the CLI's language (cli_messages.hpp).
std::string_view summary_in_language(const verb_usage& usage);
// "usage: parley say DIALOG [--data DIR] \"message\"" (every synopsis of the verb, one per line).
std::string usage_of(std::string_view verb);
// Every verb's synopsis and summary, and the options they share: `parley --help`.
std::string full_usage();
// The verbs, for a "did you mean" hint.
std::vector<std::string> verb_names();
// The flags each verb accepts (every verb parses its arguments with this), which
// `parley completions` offers too. A verb without flags (version) has an empty spec.
const arg_spec& arg_spec_of(std::string_view verb);

}  // namespace parley::cli
