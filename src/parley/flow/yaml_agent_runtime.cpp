// The components a YAML flow agent is made of, built from its checked definition: a model
// StateHandler, a template Starter, a rule-based Responsor, and the two agent classes that hold
// them. They are ordinary subclasses of the seed's base classes, so a YAML agent runs exactly as a
// C++ one does.
#include "parley/flow/ai_adapter.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/sub_thread_agent.hpp"
#include "parley/flow/sub_thread_handlers.hpp"
#include "parley/flow/yaml_agent.hpp"
#include "parley/flow/yaml_agent_spec.hpp"
#include "parley/flow/yaml_template.hpp"

namespace parley::flow {

namespace asio = boost::asio;

namespace {

// Answers with the phase's system prompt over the served thread's first-level messages; streams in
// the main thread only. In the main thread it suggests its next phase itself; in a sub-thread its
// interaction unit does.
class model_reply_handler final : public state_handler {
 public:
  model_reply_handler(phase_config config, std::string prompt, bool main_thread)
      : state_handler(std::move(config)), prompt_(std::move(prompt)), main_thread_(main_thread) {}

  asio::awaitable<result<response>> handle(task& t, flow_thread& main, base_agent& agent) override {
    auto served = served_thread(t, main);
    if (!served) co_return std::move(served).err();
    chat_options options{prompt_, main_thread_, main.id};
    auto text = co_await t.host_utils->ai.chat((*served)->messages, options);
    if (!text) co_return make_error(text.err().code, "phase \"" + phase() + "\": " + text.err().message);
    if (main_thread_) PARLEY_CO_TRY(co_await suggest_phase_update(t, main, agent));
    co_return response(std::move(*text));
  }

 private:
  std::string prompt_;
  bool main_thread_;
};

sub_agent_factory sub_factory(std::shared_ptr<const yaml_agent_spec> spec);

std::shared_ptr<state_handler> make_handler(const yaml_handler_spec& spec, bool main_thread) {
  phase_config config{spec.phase, spec.next};
  switch (spec.kind) {
    case handler_kind::model:
      return std::make_shared<model_reply_handler>(config, spec.prompt, main_thread);
    case handler_kind::prepare_subthread:
      return std::make_shared<sub_thread_preparation_handler>(config, spec.placeholder);
    case handler_kind::execute_subthread:
      return std::make_shared<sub_thread_execution_handler>(config, sub_factory(spec.subthread));
    case handler_kind::nested_subthread:
      break;
  }
  return std::make_shared<nested_sub_thread_handler>(config, spec.placeholder, sub_factory(spec.subthread));
}

class template_starter final : public starter {
 public:
  template <class Held>
  template_starter(phase_config config, Held held, std::string message)
      : starter(std::move(config), std::move(held)), message_(std::move(message)) {}

 protected:
  asio::awaitable<result<std::string>> generate_initial_user_message(task& t, flow_thread& main,
                                                                     base_agent& /*agent*/) override {
    co_return expand_template(message_, t, main);
  }

 private:
  std::string message_;
};

// §7.6.2's Responsor: the first rule whose `if_contains` is in the bot's text gives the feedback.
class rule_responsor final : public responsor {
 public:
  rule_responsor(phase_config config, std::shared_ptr<state_handler> handler, std::vector<feedback_rule> rules)
      : responsor(std::move(config), std::move(handler)), rules_(std::move(rules)) {}

 protected:
  asio::awaitable<result<std::string>> generate_user_message(const thread_message& bot, task& t, flow_thread& main,
                                                             base_agent& /*agent*/) override {
    for (const auto& rule : rules_) {
      if (rule.if_contains.empty() || bot.text.find(rule.if_contains) != std::string::npos) {
        co_return expand_template(rule.say, t, main);
      }
    }
    co_return make_error(errc::invalid_argument,
                         "the Responsor of phase \"" + phase() + "\" has no feedback rule for the bot's answer");
  }

 private:
  std::vector<feedback_rule> rules_;
};

std::shared_ptr<responsor> make_responsor(const yaml_responsor_spec& spec) {
  return std::make_shared<rule_responsor>(phase_config{spec.phase, spec.next}, make_handler(spec.handler, false),
                                          spec.feedback);
}

class yaml_sub_agent final : public sub_thread_agent {
 public:
  yaml_sub_agent(agent_metadata who, thread_settings initial, std::shared_ptr<const yaml_agent_spec> spec)
      : sub_thread_agent(std::move(who), std::move(initial)), spec_(std::move(spec)) {}

 protected:
  // §9's order: StateHandlers, then the Responsors holding them, then the Starters.
  result<void> initialize_interaction_units() override {
    for (const auto& [phase, unit] : spec_->units) {
      phase_config config{unit.phase, unit.next};
      if (unit.kind == unit_kind::responsor) {
        interaction_units[phase] = make_responsor(*unit.responsor);
      } else if (unit.responsor) {
        interaction_units[phase] =
            std::make_shared<template_starter>(config, make_responsor(*unit.responsor), unit.message);
      } else {
        interaction_units[phase] =
            std::make_shared<template_starter>(config, make_handler(*unit.handler, false), unit.message);
      }
    }
    return ok();
  }

  response summarize_results(const flow_thread& sub) override {
    if (spec_->summary == summary_kind::last_bot) return sub_thread_agent::summarize_results(sub);
    std::string all;
    for (const auto& message : sub.messages) {
      if (message.sender == "bot") all += (all.empty() ? "" : "\n\n") + message.text;
    }
    return response(std::move(all));
  }

 private:
  std::shared_ptr<const yaml_agent_spec> spec_;
};

class yaml_main_agent final : public base_agent {
 public:
  yaml_main_agent(agent_metadata who, thread_settings initial, std::shared_ptr<const yaml_agent_spec> spec)
      : base_agent(std::move(who), std::move(initial)), spec_(std::move(spec)) {}

 protected:
  result<void> initialize_state_handlers() override {
    for (const auto& [phase, handler] : spec_->phases) state_handlers[phase] = make_handler(handler, true);
    return ok();
  }

 private:
  std::shared_ptr<const yaml_agent_spec> spec_;
};

sub_agent_factory sub_factory(std::shared_ptr<const yaml_agent_spec> spec) {
  return [spec = std::move(spec)](const agent_metadata& parent,
                                  const thread_settings& settings) -> result<std::unique_ptr<base_agent>> {
    agent_metadata who = parent;
    who.name = spec->name;
    auto agent = base_agent::create<yaml_sub_agent>(std::move(who), settings, spec);
    if (!agent) return std::move(agent).err();
    return std::unique_ptr<base_agent>(std::move(*agent));
  };
}

}  // namespace

main_agent_factory yaml_flow::factory(std::string member_id) const {
  return [spec = root_,
          member_id = std::move(member_id)](const thread_settings& settings) -> result<std::unique_ptr<base_agent>> {
    auto agent = base_agent::create<yaml_main_agent>(agent_metadata{spec->name, member_id, {}}, settings, spec);
    if (!agent) return std::move(agent).err();
    return std::unique_ptr<base_agent>(std::move(*agent));
  };
}

}  // namespace parley::flow
