#include "parley/tools/dominds_rg_args.hpp"

#include <algorithm>
#include <array>
#include <charconv>

namespace parley::tools::dominds_detail {
namespace {

constexpr std::int64_t kRawRgMaxContext = 10;

enum class raw_rg_flag {
  ignore_case,
  case_sensitive,
  smart_case,
  fixed_strings,
  word,
  line,
  glob,
  type,
  type_not,
  after,
  before,
  context,
  hidden,
  layout,  // how rg would lay out its output: the answer is always Dominds' snippets, so it is ignored
};

struct raw_rg_flag_name {
  char short_name;  // '\0': none
  std::string_view long_name;
  raw_rg_flag flag;
  bool takes_value;
};

constexpr std::array<raw_rg_flag_name, 18> kRawRgFlags{{
    {'.', "--hidden", raw_rg_flag::hidden, false},
    {'i', "--ignore-case", raw_rg_flag::ignore_case, false},
    {'s', "--case-sensitive", raw_rg_flag::case_sensitive, false},
    {'S', "--smart-case", raw_rg_flag::smart_case, false},
    {'F', "--fixed-strings", raw_rg_flag::fixed_strings, false},
    {'w', "--word-regexp", raw_rg_flag::word, false},
    {'x', "--line-regexp", raw_rg_flag::line, false},
    {'g', "--glob", raw_rg_flag::glob, true},
    {'t', "--type", raw_rg_flag::type, true},
    {'T', "--type-not", raw_rg_flag::type_not, true},
    {'A', "--after-context", raw_rg_flag::after, true},
    {'B', "--before-context", raw_rg_flag::before, true},
    {'C', "--context", raw_rg_flag::context, true},
    {'n', "--line-number", raw_rg_flag::layout, false},
    {'H', "--with-filename", raw_rg_flag::layout, false},
    {'\0', "--no-heading", raw_rg_flag::layout, false},
    {'\0', "--vimgrep", raw_rg_flag::layout, false},
    {'\0', "--no-messages", raw_rg_flag::layout, false},
}};

constexpr std::string_view kRawRgAllowed =
    "allowed: -i -s -S -F -w -x -./--hidden, -g/--glob GLOB, -t/--type T, -T/--type-not T, -A/-B/-C N (at most 10), "
    "and "
    "-n -H --no-heading --vimgrep --no-messages --color=never (the answer is always snippets)";

// Why a flag rg has is refused, for those a model is likely to try.
std::string_view refusal_reason(std::string_view flag) {
  if (flag == "--pre" || flag == "--pre-glob") return "runs a program of its choosing on the files";
  if (flag == "-z" || flag == "--search-zip") return "runs decompression programs on the files";
  if (flag == "--ignore-file" || flag == "--ignore-file-case-insensitive") return "reads rules from a file";
  if (flag == "-L" || flag == "--follow") return "follows symbolic links out of what you may read";
  if (flag == "--json" || flag == "--count" || flag == "-c" || flag == "--count-matches" || flag == "--files" ||
      flag == "--files-with-matches" || flag == "-l") {
    return "changes the output, which ripgrep_search gives as snippets; use ripgrep_files or ripgrep_count";
  }
  return {};
}

error refused_flag(std::string_view flag) {
  const auto why = refusal_reason(flag);
  if (!why.empty())
    return make_error(errc::invalid_argument,
                      "rg_args: '" + std::string(flag) + "' is refused: it " + std::string(why));
  return make_error(errc::invalid_argument, "rg_args: '" + std::string(flag) + "' is not one ripgrep_search takes; " +
                                                std::string(kRawRgAllowed));
}

result<std::int64_t> context_count(std::string_view flag, std::string_view value) {
  std::int64_t n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (ec != std::errc{} || end != value.data() + value.size() || n < 0) {
    return make_error(errc::invalid_argument,
                      "rg_args: " + std::string(flag) + " needs a number of lines, got '" + std::string(value) + "'");
  }
  return std::min(n, kRawRgMaxContext);
}

bool type_name_shaped(std::string_view name) {
  return !name.empty() && name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '+';
  });
}

result<void> apply_flag(rg_raw_args& out, const raw_rg_flag_name& name, std::string_view value) {
  const std::string shown(name.long_name);
  switch (name.flag) {
    case raw_rg_flag::ignore_case:
      out.case_mode = "insensitive";
      break;
    case raw_rg_flag::case_sensitive:
      out.case_mode = "sensitive";
      break;
    case raw_rg_flag::smart_case:
      out.case_mode = "smart";
      break;
    case raw_rg_flag::fixed_strings:
      out.fixed_strings = true;
      break;
    case raw_rg_flag::word:
      out.vetted_flags.emplace_back("--word-regexp");
      break;
    case raw_rg_flag::hidden:
      // Hidden files are searched too; the reserved folders stay excluded and the read rules still drop matches.
      out.vetted_flags.emplace_back("--hidden");
      break;
    case raw_rg_flag::line:
      out.vetted_flags.emplace_back("--line-regexp");
      break;
    case raw_rg_flag::layout:
      break;
    case raw_rg_flag::glob:
      if (value.empty() || value.find('\0') != std::string_view::npos)
        return make_error(errc::invalid_argument, "rg_args: --glob needs a glob");
      out.globs.emplace_back(value);
      break;
    case raw_rg_flag::type:
    case raw_rg_flag::type_not:
      if (!type_name_shaped(value)) {
        return make_error(
            errc::invalid_argument,
            "rg_args: " + shown + " needs a file type name (letters, digits, _ - +), got '" + std::string(value) + "'");
      }
      out.vetted_flags.push_back(shown + "=" + std::string(value));
      break;
    case raw_rg_flag::after:
      PARLEY_TRY_ASSIGN(out.after, context_count(shown, value));
      break;
    case raw_rg_flag::before:
      PARLEY_TRY_ASSIGN(out.before, context_count(shown, value));
      break;
    case raw_rg_flag::context:
      PARLEY_TRY_ASSIGN(out.after, context_count(shown, value));
      out.before = out.after;
      break;
  }
  return ok();
}

const raw_rg_flag_name* flag_by_long(std::string_view name) {
  const auto found = std::find_if(kRawRgFlags.begin(), kRawRgFlags.end(),
                                  [&](const raw_rg_flag_name& flag) { return flag.long_name == name; });
  return found == kRawRgFlags.end() ? nullptr : &*found;
}

const raw_rg_flag_name* flag_by_short(char name) {
  const auto found = std::find_if(kRawRgFlags.begin(), kRawRgFlags.end(),
                                  [&](const raw_rg_flag_name& flag) { return flag.short_name == name; });
  return found == kRawRgFlags.end() ? nullptr : &*found;
}

}  // namespace

result<rg_raw_args> read_rg_args(const std::vector<std::string>& args) {
  rg_raw_args out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view token = args[i];
    // The value of a flag that takes one: attached, else the next argument.
    const auto next_value = [&](std::string_view flag) -> result<std::string_view> {
      if (i + 1 >= args.size())
        return make_error(errc::invalid_argument, "rg_args: " + std::string(flag) + " needs a value");
      return std::string_view(args[++i]);
    };
    if (token == "--color=never") continue;
    if (token.size() < 2 || token[0] != '-' || token == "--") {
      return make_error(errc::invalid_argument, "rg_args: '" + std::string(token) +
                                                    "' is not a flag; give the pattern as `pattern` and the folder "
                                                    "as `path`");
    }
    if (token.starts_with("--")) {
      const auto equals = token.find('=');
      const auto flag_name = token.substr(0, equals);
      const auto* flag = flag_by_long(flag_name);
      if (flag == nullptr || (!flag->takes_value && equals != std::string_view::npos)) return refused_flag(flag_name);
      std::string_view value;
      if (flag->takes_value) {
        if (equals != std::string_view::npos) {
          value = token.substr(equals + 1);
        } else {
          PARLEY_TRY_ASSIGN(value, next_value(flag_name));
        }
      }
      PARLEY_TRY(apply_flag(out, *flag, value));
      continue;
    }
    // -iw (several flags) or -C3 / -g '*.cpp' (a flag with its value).
    for (std::size_t at = 1; at < token.size(); ++at) {
      const auto* flag = flag_by_short(token[at]);
      if (flag == nullptr) return refused_flag(std::string("-") + token[at]);
      if (!flag->takes_value) {
        PARLEY_TRY(apply_flag(out, *flag, {}));
        continue;
      }
      std::string_view value = token.substr(at + 1);
      if (value.empty()) PARLEY_TRY_ASSIGN(value, next_value(std::string("-") + token[at]));
      PARLEY_TRY(apply_flag(out, *flag, value));
      break;
    }
  }
  return out;
}

}  // namespace parley::tools::dominds_detail
