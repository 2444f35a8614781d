// Loads and checks a YAML flow agent folder (yaml_agent.hpp). Errors are config_error, one line,
// `FILE:LINE:COLUMN: key.path: problem` as everywhere in Parley's configuration.
#include <regex>
#include <set>

#include "parley/config/yaml_reader.hpp"
#include "parley/flow/flow_thread.hpp"
#include "parley/flow/yaml_agent.hpp"
#include "parley/flow/yaml_agent_spec.hpp"
#include "parley/flow/yaml_template.hpp"

namespace parley::flow {

namespace fs = std::filesystem;
using config::detail::map_reader;

namespace {

constexpr int kMaxDepth = 8;

struct load_context {
  fs::path prompt_dir;  // the root agent's prompt/ folder (§10.1: every prompt in one place)
  int depth = 0;
};

result<std::shared_ptr<const yaml_agent_spec>> load_folder(const fs::path& folder, const load_context& context,
                                                           bool sub_thread);

bool is_snake_case(const std::string& name) {
  static const std::regex pattern("^[a-z][a-z0-9]*(_[a-z0-9]+)*$");
  return std::regex_match(name, pattern);
}

result<fs::path> find_agent_file(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) {
    return make_error(errc::config_error, folder.string() + ": no such agent folder");
  }
  std::vector<fs::path> found;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    const auto name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > 10 && name.ends_with("Agent.yaml")) found.push_back(entry.path());
  }
  if (found.size() != 1) {
    return make_error(errc::config_error, folder.string() + ": expected exactly one [Business]Agent.yaml, found " +
                                              std::to_string(found.size()));
  }
  return found.front();
}

result<std::string> read_prompt(const load_context& context, const map_reader& at, const std::string& phase) {
  const auto file = context.prompt_dir / (phase + "_system_prompt.md");
  auto text = config::detail::read_text_file(file);
  if (!text) {
    return at.fail("phase \"" + phase + "\" is answered by the model but its prompt file " + file.string() +
                   " cannot be read");
  }
  return std::move(*text);
}

result<void> check_template_at(const map_reader& at, std::string_view key, const std::string& text) {
  auto checked = check_template(text);
  if (!checked) return at.fail(std::string(key) + ": " + checked.err().message);
  return ok();
}

result<yaml_handler_spec> read_handler(const map_reader& at, const std::string& default_phase,
                                       const load_context& context, const fs::path& folder, bool main_thread) {
  PARLEY_TRY(at.check_keys({"kind", "phase", "next", "placeholder", "subthread"}));
  yaml_handler_spec out;
  auto kind = at.require_nonempty("kind", "model, prepare_subthread, execute_subthread or nested_subthread");
  if (!kind) return std::move(kind).err();
  const auto parsed = from_name<handler_kind>(*kind);
  out.phase = default_phase;
  PARLEY_TRY(at.read("phase", out.phase));
  PARLEY_TRY(at.read("next", out.next));
  PARLEY_TRY(at.read("placeholder", out.placeholder));
  if (!is_snake_case(out.phase)) return at.fail("phase \"" + out.phase + "\" is not snake_case");
  // A main agent starts sub-threads in two steps; a sub-thread agent nests one in a single step.
  const bool allowed =
      parsed && (*parsed == handler_kind::model ||
                 (main_thread ? *parsed != handler_kind::nested_subthread : *parsed == handler_kind::nested_subthread));
  if (!allowed) {
    return at.fail("kind \"" + *kind + "\" is not a StateHandler of a " +
                   (main_thread ? "main agent (model, prepare_subthread, execute_subthread)"
                                : "sub-thread agent (model, nested_subthread)"));
  }
  out.kind = *parsed;
  if (out.kind == handler_kind::model) {
    auto prompt = read_prompt(context, at, out.phase);
    if (!prompt) return std::move(prompt).err();
    out.prompt = std::move(*prompt);
  }
  if (out.kind == handler_kind::prepare_subthread || out.kind == handler_kind::nested_subthread) {
    if (out.placeholder.empty()) out.placeholder = "Working on it…";
  }
  if (out.kind == handler_kind::execute_subthread || out.kind == handler_kind::nested_subthread) {
    auto name = at.require_nonempty("subthread", "the sub-thread agent's folder, snake_case");
    if (!name) return std::move(name).err();
    if (!is_snake_case(*name)) return at.fail("subthread \"" + *name + "\" is not a snake_case folder name");
    load_context deeper = context;
    deeper.depth = context.depth + 1;
    if (deeper.depth > kMaxDepth) return at.fail("sub-threads nest deeper than " + std::to_string(kMaxDepth));
    auto sub = load_folder(folder / *name, deeper, true);
    if (!sub) return std::move(sub).err();
    out.subthread = std::move(*sub);
  }
  return out;
}

result<std::vector<feedback_rule>> read_feedback(const map_reader& at) {
  std::vector<feedback_rule> rules;
  const auto* item = at.find("feedback");
  if (item == nullptr) return rules;
  if (item->value.IsScalar()) {
    rules.push_back({"", item->value.as<std::string>()});
  } else if (item->value.IsSequence()) {
    for (std::size_t i = 0; i < item->value.size(); ++i) {
      auto rule = map_reader::open(at.file(), item->value[i], item->value[i].Mark(),
                                   at.path_of("feedback." + std::to_string(i)));
      if (!rule) return std::move(rule).err();
      PARLEY_TRY(rule->check_keys({"if_contains", "say"}));
      feedback_rule read;
      PARLEY_TRY(rule->read("if_contains", read.if_contains));
      auto say = rule->require_nonempty("say", "the user's feedback");
      if (!say) return std::move(say).err();
      read.say = std::move(*say);
      PARLEY_TRY(check_template_at(*rule, "say", read.say));
      rules.push_back(std::move(read));
    }
  } else {
    return at.fail_at_value(*item, "expected a text or a list of {if_contains, say}");
  }
  return rules;
}

result<std::shared_ptr<const yaml_responsor_spec>> read_responsor(const map_reader& at, const std::string& phase,
                                                                  const load_context& context, const fs::path& folder) {
  PARLEY_TRY(at.check_keys({"phase", "next", "handler", "feedback"}));
  auto out = std::make_shared<yaml_responsor_spec>();
  out->phase = phase;
  PARLEY_TRY(at.read("phase", out->phase));
  auto next = at.require_nonempty("next", "the phase after this one, or completed");
  if (!next) return std::move(next).err();
  out->next = std::move(*next);
  auto handler_map = at.child("handler");
  if (!handler_map) return std::move(handler_map).err();
  if (!*handler_map) return at.missing("handler", "the StateHandler that writes the bot message");
  auto handler = read_handler(**handler_map, out->phase, context, folder, false);
  if (!handler) return std::move(handler).err();
  out->handler = std::move(*handler);
  auto feedback = read_feedback(at);
  if (!feedback) return std::move(feedback).err();
  out->feedback = std::move(*feedback);
  if (out->next != kCompletedPhase && out->feedback.empty()) {
    return at.fail("a Responsor whose next phase is not completed needs `feedback` (the user message it writes)");
  }
  return std::shared_ptr<const yaml_responsor_spec>(std::move(out));
}

result<yaml_unit_spec> read_unit(const map_reader::entry& item, const map_reader& units, const load_context& context,
                                 const fs::path& folder) {
  auto at = units.child_of(item, units.path_of(item.key));
  if (!at) return std::move(at).err();
  PARLEY_TRY(at->check_keys({"starter", "responsor"}));
  yaml_unit_spec out;
  out.phase = item.key;
  if (at->has("starter") == at->has("responsor")) return at->fail("expected exactly one of `starter` or `responsor`");
  if (at->has("responsor")) {
    auto body = at->child("responsor");
    if (!body) return std::move(body).err();
    auto responsor = read_responsor(**body, out.phase, context, folder);
    if (!responsor) return std::move(responsor).err();
    out.kind = unit_kind::responsor;
    out.next = (*responsor)->next;
    out.responsor = std::move(*responsor);
    return out;
  }
  auto body = at->child("starter");
  if (!body) return std::move(body).err();
  const auto& starter = **body;
  PARLEY_TRY(starter.check_keys({"message", "next", "responsor", "handler"}));
  out.kind = unit_kind::starter;
  auto message = starter.require_nonempty("message", "the initial user message");
  if (!message) return std::move(message).err();
  out.message = std::move(*message);
  PARLEY_TRY(check_template_at(starter, "message", out.message));
  auto next = starter.require_nonempty("next", "the phase after this one, or completed");
  if (!next) return std::move(next).err();
  out.next = std::move(*next);
  if (starter.has("responsor") == starter.has("handler")) {
    return starter.fail("a Starter holds exactly one of `responsor` (preferred) or `handler`");
  }
  if (starter.has("responsor")) {
    auto held = starter.child("responsor");
    if (!held) return std::move(held).err();
    auto responsor = read_responsor(**held, out.phase, context, folder);
    if (!responsor) return std::move(responsor).err();
    out.responsor = std::move(*responsor);
  } else {
    auto held = starter.child("handler");
    if (!held) return std::move(held).err();
    auto handler = read_handler(**held, out.phase, context, folder, false);
    if (!handler) return std::move(handler).err();
    out.handler = std::make_shared<const yaml_handler_spec>(std::move(*handler));
  }
  return out;
}

// Every phase must lead to `completed` by its `next` links; a `next` must name a phase.
result<void> check_graph(const map_reader& at, const std::map<std::string, std::string>& next_of) {
  for (const auto& [phase, next] : next_of) {
    std::string problem = "phase \"" + phase;
    if (next.empty()) return at.fail(problem.append("\" has no `next` (a phase, or completed)"));
    if (next != kCompletedPhase && next_of.count(next) == 0) {
      return at.fail(problem.append("\": next \"").append(next).append("\" is not a phase of this agent"));
    }
  }
  for (const auto& [phase, next] : next_of) {
    std::vector<std::string> walk{phase};
    std::set<std::string> seen{phase};
    std::string current = next;
    while (current != kCompletedPhase) {
      walk.push_back(current);
      if (!seen.insert(current).second) {
        std::string shown;
        for (const auto& step : walk) shown += (shown.empty() ? "" : " → ") + step;
        return at.fail("phases " + shown + " form a cycle with no way to completed");
      }
      current = next_of.at(current);
    }
  }
  if (next_of.count(std::string(kInitialPhase)) == 0) return at.fail("no `initial_phase`");
  return ok();
}

// §8.1: a sub-thread starts in two steps, so a prepare_subthread handler leads to an
// execute_subthread one, and every execute_subthread handler is reached from a prepare_subthread one.
result<void> check_two_step_start(const map_reader& at, const yaml_agent_spec& spec) {
  std::set<std::string> prepared;
  for (const auto& [phase, handler] : spec.phases) {
    if (handler.kind != handler_kind::prepare_subthread) continue;
    const auto next = spec.phases.find(handler.next);
    if (next == spec.phases.end() || next->second.kind != handler_kind::execute_subthread) {
      return at.fail("prepare_subthread and execute_subthread go together (§8.1): phase \"" + phase +
                     "\" prepares a sub-thread but its next phase \"" + handler.next + "\" does not execute one");
    }
    prepared.insert(handler.next);
  }
  for (const auto& [phase, handler] : spec.phases) {
    if (handler.kind == handler_kind::execute_subthread && prepared.count(phase) == 0) {
      return at.fail("prepare_subthread and execute_subthread go together (§8.1): phase \"" + phase +
                     "\" executes a sub-thread that no prepare_subthread phase leads to");
    }
  }
  return ok();
}

result<std::shared_ptr<const yaml_agent_spec>> load_folder(const fs::path& folder, const load_context& context,
                                                           bool sub_thread) {
  auto file = find_agent_file(folder);
  if (!file) return std::move(file).err();
  auto document = config::detail::load_yaml_file(*file);
  if (!document) return std::move(document).err();
  auto top = map_reader::open(file->string(), *document, document->Mark(), "");
  if (!top) return std::move(top).err();
  auto spec = std::make_shared<yaml_agent_spec>();
  spec->file = *file;
  spec->sub_thread = sub_thread;
  PARLEY_TRY(top->check_keys(sub_thread ? std::vector<std::string>{"agent", "units", "summary"}
                                        : std::vector<std::string>{"agent", "phases"}));
  auto name = top->require_nonempty("agent", "the agent's class name, e.g. ArticleCreationAgent");
  if (!name) return std::move(name).err();
  spec->name = std::move(*name);
  if (file->filename().string() != spec->name + ".yaml") {
    return top->fail("agent " + spec->name + " must live in " + spec->name + ".yaml (§10.2.1)");
  }
  std::map<std::string, std::string> next_of;
  auto list = top->child(sub_thread ? "units" : "phases");
  if (!list) return std::move(list).err();
  if (!*list) return top->missing(sub_thread ? "units" : "phases", "a mapping of phase names");
  PARLEY_TRY((*list)->check_unique("phase"));
  for (const auto& item : (*list)->entries()) {
    if (!is_snake_case(item.key)) return (*list)->fail_at_key(item, "phase \"" + item.key + "\" is not snake_case");
    if (item.key == kCompletedPhase) return (*list)->fail_at_key(item, "`completed` is the end, not a phase to define");
    if (sub_thread) {
      auto unit = read_unit(item, **list, context, folder);
      if (!unit) return std::move(unit).err();
      next_of[item.key] = unit->next;
      spec->units.emplace(item.key, std::move(*unit));
    } else {
      auto at = (*list)->child_of(item, (*list)->path_of(item.key));
      if (!at) return std::move(at).err();
      auto handler = read_handler(*at, item.key, context, folder, true);
      if (!handler) return std::move(handler).err();
      if (handler->phase != item.key) return at->fail("a main agent's handler serves its own phase");
      next_of[item.key] = handler->next;
      spec->phases.emplace(item.key, std::move(*handler));
    }
  }
  if (!sub_thread) PARLEY_TRY(check_two_step_start(*top, *spec));
  if (sub_thread) {
    std::string summary(to_name(spec->summary));
    PARLEY_TRY(top->read("summary", summary));
    const auto parsed = from_name<summary_kind>(summary);
    if (!parsed) return top->fail("summary: expected last_bot or all_bots, got \"" + summary + "\"");
    spec->summary = *parsed;
  }
  PARLEY_TRY(check_graph(**list, next_of));
  return std::shared_ptr<const yaml_agent_spec>(std::move(spec));
}

}  // namespace

result<yaml_flow> yaml_flow::load(const fs::path& folder) {
  load_context context;
  context.prompt_dir = folder / "prompt";
  try {
    auto root = load_folder(folder, context, false);
    if (!root) return std::move(root).err();
    return yaml_flow(std::move(*root));
  } catch (const std::exception& failure) {  // yaml-cpp conversions throw; nothing leaves as an exception
    return make_error(errc::config_error, folder.string() + ": " + failure.what());
  }
}

const std::string& yaml_flow::agent_name() const { return root_->name; }

}  // namespace parley::flow
