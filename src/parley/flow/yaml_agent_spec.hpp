// The checked definition of a YAML flow agent (yaml_agent.hpp), shared by its loader and the
// components built from it. Plain data: every check happened when it was loaded.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parley/core/vocabulary.hpp"

namespace parley::flow {

// A StateHandler's kind: `model` (answers with prompt/<phase>_system_prompt.md),
// `prepare_subthread`, `execute_subthread` or `nested_subthread` (seed §8).
enum class handler_kind { model, prepare_subthread, execute_subthread, nested_subthread };
// How a sub-thread agent sums up its work for the main thread: its last bot message, or all of them.
enum class summary_kind { last_bot, all_bots };

}  // namespace parley::flow

namespace parley {

// Their names in [Business]Agent.yaml.
template <>
struct vocabulary<flow::handler_kind> {
  static constexpr std::array<std::pair<flow::handler_kind, std::string_view>, 4> values{
      {{flow::handler_kind::model, "model"},
       {flow::handler_kind::prepare_subthread, "prepare_subthread"},
       {flow::handler_kind::execute_subthread, "execute_subthread"},
       {flow::handler_kind::nested_subthread, "nested_subthread"}}};
};

template <>
struct vocabulary<flow::summary_kind> {
  static constexpr std::array<std::pair<flow::summary_kind, std::string_view>, 2> values{
      {{flow::summary_kind::last_bot, "last_bot"}, {flow::summary_kind::all_bots, "all_bots"}}};
};

}  // namespace parley

namespace parley::flow {

struct yaml_agent_spec;

struct yaml_handler_spec {
  handler_kind kind = handler_kind::model;
  std::string phase;
  std::string next;
  std::string prompt;                                // model: the prompt file's text
  std::string placeholder;                           // prepare_subthread, nested_subthread
  std::shared_ptr<const yaml_agent_spec> subthread;  // execute_subthread, nested_subthread
};

struct feedback_rule {
  std::string if_contains;  // "" = always
  std::string say;          // a template (see expand_template)
};

struct yaml_responsor_spec {
  std::string phase;
  std::string next;
  yaml_handler_spec handler;
  std::vector<feedback_rule> feedback;
};

// A Starter (message + responsor or handler) or a Responsor: the key the unit is written under.
enum class unit_kind { starter, responsor };

struct yaml_unit_spec {
  unit_kind kind = unit_kind::starter;
  std::string phase;
  std::string next;
  std::string message;                                   // starter: the initial user message (a template)
  std::shared_ptr<const yaml_responsor_spec> responsor;  // starter holding a responsor, or the responsor itself
  std::shared_ptr<const yaml_handler_spec> handler;      // starter holding a StateHandler
};

struct yaml_agent_spec {
  std::string name;  // e.g. ArticleCreationAgent
  std::filesystem::path file;
  bool sub_thread = false;
  std::map<std::string, yaml_handler_spec> phases;  // main agents
  std::map<std::string, yaml_unit_spec> units;      // sub-thread agents
  summary_kind summary = summary_kind::last_bot;    // sub-thread agents
};

}  // namespace parley::flow
