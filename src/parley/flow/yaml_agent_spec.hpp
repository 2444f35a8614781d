// The checked definition of a YAML flow agent (yaml_agent.hpp), shared by its loader and the
// components built from it. Plain data: every check happened when it was loaded.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace parley::flow {

struct yaml_agent_spec;

// A StateHandler: `model` (answers with prompt/<phase>_system_prompt.md), `prepare_subthread`,
// `execute_subthread` or `nested_subthread` (seed §8).
struct yaml_handler_spec {
  std::string kind;
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

// A Starter (message + responsor or handler) or a Responsor.
struct yaml_unit_spec {
  std::string kind;  // "starter" | "responsor"
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
  std::string summary = "last_bot";                 // sub-thread agents: "last_bot" | "all_bots"
};

}  // namespace parley::flow
