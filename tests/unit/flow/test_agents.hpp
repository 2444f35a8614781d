// Small agents for the flow tests, built from lambdas so each test says what its components do.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "parley/flow/ai_adapter.hpp"
#include "parley/flow/base_agent.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/sub_thread_agent.hpp"
#include "parley/flow/sub_thread_handlers.hpp"

namespace parley::flow::test {

// Records which thread and path every component was given (§3.1 rules 1-4).
struct component_call {
  std::string component;
  std::string thread_id;
  std::string path;
};
inline std::vector<component_call>& component_calls() {
  static std::vector<component_call> calls;
  return calls;
}

// A StateHandler that asks the model with `system` over its own thread's messages and suggests
// its next phase (in the main thread; in sub-threads the unit suggests).
class model_handler : public state_handler {
 public:
  model_handler(phase_config config, std::string system, bool suggests)
      : state_handler(std::move(config)), system_(std::move(system)), suggests_(suggests) {}
  boost::asio::awaitable<result<response>> handle(task& t, flow_thread& main, base_agent& agent) override {
    component_calls().push_back({"handler:" + phase(), main.id, t.sub_thread_path()});
    auto served = served_thread(t, main);
    if (!served) co_return std::move(served).err();
    chat_options options{system_, t.sub_thread_path().empty(), main.id};
    auto text = co_await t.host_utils->ai.chat((*served)->messages, options);
    if (!text) co_return std::move(text).err();
    if (suggests_) PARLEY_CO_TRY(co_await suggest_phase_update(t, main, agent));
    co_return response(std::move(*text));
  }

 private:
  std::string system_;
  bool suggests_;
};

class text_starter : public starter {
 public:
  template <class Held>
  text_starter(phase_config config, Held held, std::string text)
      : starter(std::move(config), std::move(held)), text_(std::move(text)) {}

 protected:
  boost::asio::awaitable<result<std::string>> generate_initial_user_message(task& t, flow_thread& main,
                                                                            base_agent& /*agent*/) override {
    component_calls().push_back({"starter:" + phase(), main.id, t.sub_thread_path()});
    co_return text_;
  }

 private:
  std::string text_;
};

// Scenario 2 of §7.6: feedback chosen by what the bot said.
class review_responsor : public responsor {
 public:
  using responsor::responsor;

 protected:
  boost::asio::awaitable<result<std::string>> generate_user_message(const thread_message& bot, task& t,
                                                                    flow_thread& main, base_agent& /*agent*/) override {
    component_calls().push_back({"responsor:" + phase(), main.id, t.sub_thread_path()});
    if (bot.text.find("performance") != std::string::npos) {
      co_return std::string("Good review; now show how to fix the performance problems, with code.");
    }
    co_return std::string("Please add a security assessment.");
  }
};

using unit_setup = std::function<void(std::map<std::string, std::shared_ptr<interaction_unit>, std::less<>>&)>;

class configured_sub_agent : public sub_thread_agent {
 public:
  configured_sub_agent(agent_metadata who, thread_settings initial, unit_setup setup)
      : sub_thread_agent(std::move(who), std::move(initial)), setup_(std::move(setup)) {}

 protected:
  result<void> initialize_interaction_units() override {
    setup_(interaction_units);
    return ok();
  }

 private:
  unit_setup setup_;
};

inline sub_agent_factory sub_agent(std::string name, unit_setup setup) {
  return [name = std::move(name), setup = std::move(setup)](
             const agent_metadata& parent, const thread_settings& settings) -> result<std::unique_ptr<base_agent>> {
    agent_metadata who = parent;
    who.name = name;
    auto agent = base_agent::create<configured_sub_agent>(who, settings, setup);
    if (!agent) return std::move(agent).err();
    return std::unique_ptr<base_agent>(std::move(*agent));
  };
}

using handler_setup = std::function<void(std::map<std::string, std::shared_ptr<state_handler>, std::less<>>&)>;

class configured_main_agent : public base_agent {
 public:
  configured_main_agent(agent_metadata who, thread_settings initial, handler_setup setup)
      : base_agent(std::move(who), std::move(initial)), setup_(std::move(setup)) {}

 protected:
  result<void> initialize_state_handlers() override {
    setup_(state_handlers);
    return ok();
  }

 private:
  handler_setup setup_;
};

inline std::function<result<std::unique_ptr<base_agent>>(const thread_settings&)> main_agent(std::string name,
                                                                                             handler_setup setup) {
  return [name = std::move(name),
          setup = std::move(setup)](const thread_settings& settings) -> result<std::unique_ptr<base_agent>> {
    auto agent = base_agent::create<configured_main_agent>(agent_metadata{name, "writer", {}}, settings, setup);
    if (!agent) return std::move(agent).err();
    return std::unique_ptr<base_agent>(std::move(*agent));
  };
}

// The article flow of issue 22 in miniature: ask → prepare_subthread → execute_subthread (outline
// drafting: a Starter holding a Responsor, then a review phase that opens a nested sub-thread
// whose Starter holds a StateHandler) → article_writing → completed.
inline std::function<result<std::unique_ptr<base_agent>>(const thread_settings&)> article_agent() {
  auto review = sub_agent("OutlineReviewAgent", [](auto& units) {
    auto reviewing = std::make_shared<model_handler>(phase_config{"outline_reviewing", "completed"},
                                                     "outline_reviewing_system_prompt", false);
    units["initial_phase"] = std::make_shared<text_starter>(phase_config{"initial_phase", "completed"}, reviewing,
                                                            "Review this outline for gaps.");
  });
  auto drafting = sub_agent("OutlineDraftingAgent", [review](auto& units) {
    auto drafting_handler = std::make_shared<model_handler>(phase_config{"outline_drafting", "outline_review"},
                                                            "outline_drafting_system_prompt", false);
    auto drafting_responsor =
        std::make_shared<review_responsor>(phase_config{"outline_drafting", "outline_review"}, drafting_handler);
    units["initial_phase"] = std::make_shared<text_starter>(phase_config{"initial_phase", "outline_review"},
                                                            drafting_responsor, "Draft an outline for the article.");
    auto nested = std::make_shared<nested_sub_thread_handler>(phase_config{"outline_review", "completed"},
                                                              "Reviewing the outline…", review);
    units["outline_review"] = std::make_shared<review_responsor>(phase_config{"outline_review", "completed"}, nested);
  });
  return main_agent("ArticleCreationAgent", [drafting](auto& handlers) {
    handlers["initial_phase"] = std::make_shared<model_handler>(phase_config{"initial_phase", "prepare_subthread"},
                                                                "initial_phase_system_prompt", true);
    handlers["prepare_subthread"] = std::make_shared<sub_thread_preparation_handler>(
        phase_config{"prepare_subthread", "execute_subthread"}, "Drafting the outline…");
    handlers["execute_subthread"] =
        std::make_shared<sub_thread_execution_handler>(phase_config{"execute_subthread", "article_writing"}, drafting);
    handlers["article_writing"] = std::make_shared<model_handler>(phase_config{"article_writing", "completed"},
                                                                  "article_writing_system_prompt", true);
  });
}

// The scripted answers of the article flow, by system prompt.
inline result<std::string> article_model(const llm::model_request& request) {
  if (request.system_prompt == "initial_phase_system_prompt") return std::string("Which topic and audience?");
  if (request.system_prompt == "outline_drafting_system_prompt") {
    return std::string("1. Intro 2. Brewing 3. performance of kettles");
  }
  if (request.system_prompt == "outline_reviewing_system_prompt") return std::string("The outline lacks a summary.");
  if (request.system_prompt == "article_writing_system_prompt") return std::string("Tea: an article.");
  return make_error(errc::provider_error, "unexpected system prompt " + request.system_prompt);
}

}  // namespace parley::flow::test
