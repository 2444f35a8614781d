// The public header set of Parley's flow agents (seed 004), for agents written in C++:
//   BaseAgent            base_agent.hpp        (main agents; state_handlers by phase)
//   SubThreadAgent       sub_thread_agent.hpp  (sub-thread agents; interaction_units by phase)
//   StateHandler         state_handler.hpp
//   Starter, Responsor   interaction_unit.hpp
//   Response, Task       response.hpp, task.hpp
//   §8's handlers        sub_thread_handlers.hpp (prepare_subthread, execute_subthread, nested)
//   getSubThreadByPath   sub_thread_path.hpp
//   ThreadRepository     thread_repository.hpp (the log), AIAdapter ai_adapter.hpp (the providers)
//   the host             flow_runner.hpp (start, say, resume), yaml_agent.hpp (the YAML form)
// docs/flows.md maps every name of the seed to its C++ spelling; examples/flows/article_creation_cpp
// is a complete agent.
#pragma once

#include "parley/flow/ai_adapter.hpp"
#include "parley/flow/base_agent.hpp"
#include "parley/flow/flow_runner.hpp"
#include "parley/flow/host_utils.hpp"
#include "parley/flow/interaction_unit.hpp"
#include "parley/flow/response.hpp"
#include "parley/flow/state_handler.hpp"
#include "parley/flow/sub_thread_agent.hpp"
#include "parley/flow/sub_thread_handlers.hpp"
#include "parley/flow/sub_thread_path.hpp"
#include "parley/flow/task.hpp"
#include "parley/flow/thread_repository.hpp"
#include "parley/flow/yaml_agent.hpp"
