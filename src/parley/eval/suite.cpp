#include "parley/eval/suite.hpp"

#include <algorithm>
#include <regex>

#include "parley/config/yaml_reader.hpp"
#include "parley/core/json.hpp"
#include "parley/core/text.hpp"
#include "parley/tools/schema_check.hpp"

namespace parley::eval {
namespace {

namespace fs = std::filesystem;
using config::detail::map_reader;

const std::vector<std::string>& suite_check_names() {
  static const std::vector<std::string> names{"contains",        "regex",      "json_schema", "asked",    "tool_called",
                                              "tool_not_called", "max_rounds", "max_tokens",  "max_cost", "judge"};
  return names;
}

std::string suite_where(const map_reader& map, const YAML::Mark& mark) {
  return map.file() + ":" + config::detail::format_position(mark);
}

// The items of a list under `key` (absent or null: none), each with its path.
result<std::vector<std::pair<YAML::Node, std::string>>> suite_list(const map_reader& map, std::string_view key) {
  std::vector<std::pair<YAML::Node, std::string>> items;
  const auto* item = map.find(key);
  if (item == nullptr) return items;
  if (!item->value.IsSequence()) return config::detail::type_error(map, *item, "a list");
  for (std::size_t i = 0; i < item->value.size(); ++i) {
    items.emplace_back(item->value[i], map.path_of(key) + "[" + std::to_string(i) + "]");
  }
  return items;
}

result<fs::path> suite_team_path(const map_reader& map, std::string_view key, const fs::path& dir) {
  std::string text;
  PARLEY_TRY(map.read_nonempty(key, text));
  if (text.empty()) return map.missing(key, "a team file or a folder with .minds/, relative to the suite");
  const fs::path path = fs::path(text).is_absolute() ? fs::path(text) : dir / text;
  std::error_code ec;
  if (!fs::exists(path, ec)) return map.fail_at_value(*map.find(key), "no such file or folder: " + path.string());
  return path;
}

result<void> suite_read_judge(const map_reader& check, const map_reader::entry& item, const fs::path& dir,
                              check_spec& spec) {
  auto judge = check.child_of(item, check.path_of(item.key));
  if (!judge) return std::move(judge).err();
  PARLEY_TRY(judge->check_keys({"team", "member", "rubric"}));
  auto team = suite_team_path(*judge, "team", dir);
  if (!team) return std::move(team).err();
  spec.judge.team = std::move(*team);
  PARLEY_TRY(judge->read("member", spec.judge.member));
  auto rubric = judge->require_nonempty("rubric", "what the judge weighs the answer against");
  if (!rubric) return std::move(rubric).err();
  spec.judge.rubric = std::move(*rubric);
  return ok();
}

result<void> suite_read_check_value(const map_reader& check, const map_reader::entry& item, const fs::path& dir,
                                    check_spec& spec) {
  switch (spec.kind) {
    case check_kind::contains:
    case check_kind::tool_called:
    case check_kind::tool_not_called:
      return check.read_nonempty(item.key, spec.text);
    case check_kind::regex: {
      PARLEY_TRY(check.read_nonempty(item.key, spec.text));
      try {
        std::regex compiled(spec.text, std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        return check.fail_at_value(item, "invalid regex '" + spec.text + "': " + e.what());
      }
      return ok();
    }
    case check_kind::json_schema:
      PARLEY_TRY(check.read(item.key, spec.schema));
      if (auto usable = tools::check_tool_schema(spec.schema, "json_schema"); !usable) {
        return check.fail_at_value(item, "cannot be evaluated: " + usable.err().message);
      }
      return ok();
    case check_kind::asked:
      if (item.value.IsScalar()) {
        PARLEY_TRY(check.read_nonempty(item.key, spec.text));
        spec.members = {spec.text};
        return ok();
      }
      PARLEY_TRY(check.read(item.key, spec.members));
      if (spec.members.empty()) return check.fail_at_value(item, "an empty list (expected the members asked)");
      return ok();
    case check_kind::max_rounds:
    case check_kind::max_tokens: {
      std::int64_t limit = 0;
      PARLEY_TRY(check.read_positive(item.key, limit));
      spec.limit = static_cast<double>(limit);
      return ok();
    }
    case check_kind::max_cost:
      return check.read_number(item.key, spec.limit, 0, 1e9, "a cost in USD, 0 or more");
    case check_kind::judge:
      return suite_read_judge(check, item, dir, spec);
  }
  return ok();
}

result<check_spec> suite_read_check(const map_reader& map, const YAML::Node& node, const std::string& path,
                                    const fs::path& dir) {
  auto check = map_reader::open(map.file(), node, node.Mark(), path);
  if (!check) return std::move(check).err();
  if (check->entries().size() != 1) {
    return check->fail("a check is a mapping with exactly one key, one of: " +
                       config::detail::join_names(suite_check_names()));
  }
  const auto& item = check->entries().front();
  const auto& names = suite_check_names();
  const auto found = std::find(names.begin(), names.end(), item.key);
  if (found == names.end()) {
    return check->fail_at_key(item, "unknown check '" + item.key + "'" + did_you_mean(item.key, names) +
                                        "; expected one of: " + config::detail::join_names(names));
  }
  check_spec spec;
  spec.kind = static_cast<check_kind>(found - names.begin());
  spec.where = suite_where(*check, item.key_node.Mark());
  PARLEY_TRY(suite_read_check_value(*check, item, dir, spec));
  return spec;
}

result<void> suite_read_answers(const map_reader& map, eval_case& out) {
  auto answers = suite_list(map, "answers");
  if (!answers) return std::move(answers).err();
  if (answers->size() > kMaxCaseAnswers) {
    return map.fail_at_value(*map.find("answers"), "more than " + std::to_string(kMaxCaseAnswers) + " answers");
  }
  for (const auto& [node, path] : *answers) {
    scripted_answer answer;
    if (node.IsScalar()) {
      answer.answer = node.Scalar();
    } else {
      auto item = map_reader::open(map.file(), node, node.Mark(), path);
      if (!item) return std::move(item).err();
      PARLEY_TRY(item->check_keys({"question", "answer"}));
      PARLEY_TRY(item->read("question", answer.question));
      auto text = item->require_nonempty("answer", "the human's answer");
      if (!text) return std::move(text).err();
      answer.answer = std::move(*text);
    }
    if (answer.answer.empty()) return config::detail::yaml_error(map.file(), node.Mark(), path, "an empty answer");
    out.answers.push_back(std::move(answer));
  }
  return ok();
}

result<void> suite_read_case(const map_reader& map, const fs::path& dir, eval_case& out) {
  PARLEY_TRY(map.check_keys({"name", "team", "member", "message", "answers", "checks"}));
  auto team = suite_team_path(map, "team", dir);
  if (!team) return std::move(team).err();
  out.team = std::move(*team);
  PARLEY_TRY(map.read("member", out.member));
  auto message = map.require_nonempty("message", "the first message the team is given");
  if (!message) return std::move(message).err();
  out.message = std::move(*message);
  PARLEY_TRY(suite_read_answers(map, out));
  auto checks = suite_list(map, "checks");
  if (!checks) return std::move(checks).err();
  if (checks->empty()) return map.missing("checks", "a list of checks on the outcome");
  for (const auto& [node, path] : *checks) {
    auto check = suite_read_check(map, node, path, dir);
    if (!check) return std::move(check).err();
    out.checks.push_back(std::move(*check));
  }
  return ok();
}

// A case's name first, so that a case with another problem is still reported under its name.
eval_case suite_case(const std::string& file, const YAML::Node& node, const std::string& path, const fs::path& dir) {
  eval_case out;
  out.name = path;
  out.where = file + ":" + config::detail::format_position(node.Mark());
  auto map = map_reader::open(file, node, node.Mark(), path);
  if (!map) {
    out.error = map.err().message;
    return out;
  }
  std::string name;
  if (auto named = map->read_nonempty("name", name); !named) {
    out.error = named.err().message;
    return out;
  }
  if (!name.empty()) out.name = name;
  if (auto read = suite_read_case(*map, dir, out); !read) out.error = read.err().message;
  return out;
}

}  // namespace

const char* check_kind_name(check_kind kind) noexcept {
  return suite_check_names()[static_cast<std::size_t>(kind)].c_str();
}

std::string check_spec::label() const {
  std::string value;
  switch (kind) {
    case check_kind::asked:
      value = join(members, ", ");
      break;
    case check_kind::json_schema:
      value = to_json_text(schema);
      break;
    case check_kind::max_rounds:
    case check_kind::max_tokens:
      value = std::to_string(static_cast<std::int64_t>(limit));
      break;
    case check_kind::max_cost:
      value = format_number(limit);
      break;
    case check_kind::judge:
      value = "@" + (judge.member.empty() ? std::string("default") : judge.member) + " of " + judge.team.string();
      break;
    default:
      value = text;
  }
  return std::string(check_kind_name(kind)) + ": " + value;
}

result<eval_suite> parse_suite(const fs::path& file, const std::string& text) {
  auto document = config::detail::parse_yaml_text(file, text);
  if (!document) return std::move(document).err();
  auto root = map_reader::open(file.string(), *document, document->Mark(), {});
  if (!root) return std::move(root).err();
  PARLEY_TRY(root->check_keys({"cases"}));
  auto cases = suite_list(*root, "cases");
  if (!cases) return std::move(cases).err();
  if (cases->empty()) return root->missing("cases", "a list of cases");
  if (cases->size() > kMaxSuiteCases) {
    return root->fail_at_value(*root->find("cases"), "more than " + std::to_string(kMaxSuiteCases) + " cases");
  }
  eval_suite suite;
  suite.file = file;
  const fs::path dir = file.parent_path();
  for (const auto& [node, path] : *cases) {
    auto one = suite_case(file.string(), node, path, dir);
    for (const auto& earlier : suite.cases) {
      if (earlier.name == one.name) {
        return config::detail::yaml_error(file.string(), node.Mark(), path,
                                          "a second case named '" + one.name + "' (the first is at " + earlier.where +
                                              "); names identify cases across runs");
      }
    }
    suite.cases.push_back(std::move(one));
  }
  return suite;
}

result<eval_suite> load_suite(const fs::path& file) {
  auto text = config::detail::read_text_file(file);
  if (!text) return std::move(text).err();
  return parse_suite(file, *text);
}

}  // namespace parley::eval
