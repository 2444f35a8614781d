// `parley completions bash|zsh`: a completion script for the shell, generated from the same tables
// the verbs parse and document their arguments with (verb_usage.hpp): the verbs and their
// summaries from verb_usages(), each verb's flags from arg_spec_of(), and what a flag's value is
// from the placeholder after it in a synopsis ("--data DIR": a directory, "--team FILE": a file,
// "--strategy BFS|DFS": one of those words). A new verb or flag is completed without editing this.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli_context.hpp"
#include "cli_messages.hpp"
#include "parley/core/terminal_text.hpp"
#include "verb_usage.hpp"
#include "verbs.hpp"

namespace parley::cli {

namespace {

enum class value_kind { free, directory, file, choice };

struct flag_value {
  value_kind kind = value_kind::free;
  std::string placeholder = "VALUE";  // as the synopsis names it: "DIR", "N", "normal|background"
  std::vector<std::string> choices;
};

std::vector<std::string> split(std::string_view text, char sep) {
  std::vector<std::string> parts;
  while (true) {
    const auto at = text.find(sep);
    if (!text.substr(0, at).empty()) parts.emplace_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

// The placeholder after "--flag " in `synopsis` ("DIR", "NAME", "BFS|DFS"), or "" when the
// synopsis does not name the flag with a value.
std::string placeholder_in(std::string_view synopsis, const std::string& flag) {
  const std::string needle = "--" + flag + " ";
  const auto at = synopsis.find(needle);
  if (at == std::string_view::npos) return {};
  std::string_view rest = synopsis.substr(at + needle.size());
  rest = rest.substr(0, rest.find(' '));
  while (!rest.empty() && (rest.back() == ']' || rest.back() == ')')) rest.remove_suffix(1);
  rest = rest.substr(0, rest.find('['));  // "NAME[,NAME...]" → "NAME"
  return std::string(rest);
}

// What `--flag`'s value is, from the verb's own synopses first, then any verb's (a flag means the
// same everywhere: "--data DIR" is said once for most verbs).
flag_value value_of(std::string_view verb, const std::string& flag) {
  std::string placeholder;
  for (const bool own : {true, false}) {
    for (const auto& usage : verb_usages()) {
      if ((usage.verb == verb) != own || !placeholder.empty()) continue;
      placeholder = placeholder_in(usage.synopsis, flag);
    }
  }
  flag_value value;
  if (placeholder.empty()) return value;
  value.placeholder = placeholder;
  if (placeholder.find('|') != std::string::npos) {
    value.kind = value_kind::choice;
    value.choices = split(placeholder, '|');
  } else if (placeholder == "DIR") {
    value.kind = value_kind::directory;
  } else if (placeholder == "FILE" || placeholder.starts_with("PATH")) {
    value.kind = value_kind::file;
  }
  return value;
}

// Words a verb's first positional is one of ("completions bash|zsh" → bash, zsh).
std::vector<std::string> positional_choices(std::string_view verb) {
  for (const auto& usage : verb_usages()) {
    if (usage.verb != verb) continue;
    const auto words = split(usage.synopsis, ' ');
    if (words.size() > 1 && words[1].find('|') != std::string::npos &&
        std::string_view("-[(\"").find(words[1][0]) == std::string_view::npos) {
      return split(words[1], '|');
    }
  }
  return {};
}

std::string summary_of(std::string_view verb) {
  for (const auto& usage : verb_usages()) {
    if (usage.verb == verb) return std::string(usage.summary);
  }
  return {};
}

std::string joined(const std::vector<std::string>& words, std::string_view prefix = "") {
  std::string out;
  for (const auto& word : words) {
    out += out.empty() ? "" : " ";
    out += prefix;
    out += word;
  }
  return out;
}

// `text` inside single quotes for either shell.
std::string single_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// "--a|--b": a `case` pattern of flags.
void add_pattern(std::string& patterns, const std::string& flag) {
  patterns += (patterns.empty() ? "--" : "|--") + flag;
}

std::string bash_script() {
  std::string verbs_case;
  for (const auto& verb : verb_names()) {
    const auto& spec = arg_spec_of(verb);
    std::string dirs;
    std::string files;
    std::string free;
    std::string choices;
    for (const auto& flag : spec.value_flags) {
      const auto value = value_of(verb, flag);
      switch (value.kind) {
        case value_kind::directory:
          add_pattern(dirs, flag);
          break;
        case value_kind::file:
          add_pattern(files, flag);
          break;
        case value_kind::free:
          add_pattern(free, flag);
          break;
        case value_kind::choice:
          choices +=
              "        --" + flag + ") _parley_words " + single_quoted(joined(value.choices)) + "; return 0 ;;\n";
          break;
      }
    }
    std::vector<std::string> words = positional_choices(verb);
    for (const auto& flag : spec.value_flags) words.push_back("--" + flag);
    for (const auto& flag : spec.switches) words.push_back("--" + flag);
    words.emplace_back("--help");
    verbs_case += "    " + verb + ")\n      case $prev in\n";
    if (!dirs.empty()) verbs_case += "        " + dirs + ") _parley_dirs; return 0 ;;\n";
    if (!files.empty()) verbs_case += "        " + files + ") _parley_files; return 0 ;;\n";
    verbs_case += choices;
    if (!free.empty()) verbs_case += "        " + free + ") return 0 ;;  # a value of the user's own\n";
    verbs_case += "      esac\n      _parley_words " + single_quoted(joined(words)) + " ;;\n";
  }
  return "# bash completion for parley. Generated by `parley completions bash` (parley " PARLEY_VERSION
         ")\n"
         "# from the CLI's own verb and flag tables; regenerate it rather than edit it.\n"
         "_parley_words() { mapfile -t COMPREPLY < <(compgen -W \"$1\" -- \"$cur\"); }\n"
         "_parley_dirs() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\"); }\n"
         "_parley_files() { compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); }\n"
         "_parley() {\n"
         "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
         "  COMPREPLY=()\n"
         "  if ((COMP_CWORD == 1)); then\n"
         "    _parley_words " +
         single_quoted(joined(verb_names()) + " --help --version") +
         "\n"
         "    return 0\n"
         "  fi\n"
         "  case ${COMP_WORDS[1]} in\n" +
         verbs_case +
         "  esac\n"
         "  return 0\n"
         "}\n"
         "complete -F _parley parley\n";
}

// An _arguments spec's message or a _describe entry: ':' and ']' would end the field.
std::string zsh_field(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == ':' || c == ']' || c == '[' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string zsh_script() {
  std::string verbs;
  std::string verbs_case;
  for (const auto& verb : verb_names()) {
    verbs += "    " + single_quoted(verb + ":" + zsh_field(summary_of(verb))) + "\n";
    const auto& spec = arg_spec_of(verb);
    std::string specs;
    for (const auto& flag : spec.value_flags) {
      const auto value = value_of(verb, flag);
      std::string action = " ";
      if (value.kind == value_kind::directory) action = "_files -/";
      if (value.kind == value_kind::file) action = "_files";
      if (value.kind == value_kind::choice) action = "(" + joined(value.choices) + ")";
      specs += " \\\n        " + single_quoted("--" + flag + ":" + zsh_field(value.placeholder) + ":" + action);
    }
    for (const auto& flag : spec.switches) specs += " \\\n        " + single_quoted("--" + flag);
    specs += " \\\n        '--help'";
    const auto choices = positional_choices(verb);
    specs += " \\\n        " + (choices.empty() ? std::string("'*:argument: '")
                                                : single_quoted("1:" + verb + ":(" + joined(choices) + ")"));
    verbs_case += "    " + verb + ")\n      _arguments" + specs + " ;;\n";
  }
  return "#compdef parley\n"
         "# zsh completion for parley. Generated by `parley completions zsh` (parley " PARLEY_VERSION
         ")\n"
         "# from the CLI's own verb and flag tables; regenerate it rather than edit it.\n"
         "_parley() {\n"
         "  local -a verbs options\n"
         "  verbs=(\n" +
         verbs +
         "  )\n"
         "  options=('--help:every verb and what it takes' '--version:print the version')\n"
         "  if ((CURRENT == 2)); then\n"
         "    _describe -t verbs 'parley verb' verbs -- options\n"
         "    return\n"
         "  fi\n"
         "  local verb=${words[2]}\n"
         "  shift words\n"
         "  ((CURRENT--))\n"
         "  case $verb in\n" +
         verbs_case +
         "  esac\n"
         "}\n"
         "if [ \"${funcstack[1]}\" = _parley ]; then\n"
         "  _parley \"$@\"\n"
         "else\n"
         "  compdef _parley parley\n"
         "fi\n";
}

}  // namespace

int run_verb_completions(const std::vector<std::string>& raw) {
  auto args = parse_args(raw, arg_spec_of("completions"));
  if (!args) return report(args.err());
  if (args->help) return show_verb_help();
  if (args->positionals.size() != 1) return report(make_error(errc::invalid_argument, usage_of("completions")));
  const std::string& shell = args->positionals[0];
  std::string script;
  if (shell == "bash") {
    script = bash_script();
  } else if (shell == "zsh") {
    script = zsh_script();
  } else {
    return report(make_error(errc::invalid_argument, say_cli(msg::unknown_shell, {{"shell", terminal_safe(shell)}})));
  }
  std::fputs(script.c_str(), stdout);
  return kExitOk;
}

}  // namespace parley::cli
