// Dominds' `os` toolset as a `.minds/` team gets it (dominds@1.29.0's os.js and env.js): shell_cmd,
// whose command still running at timeoutSeconds becomes a daemon of the dialog; get_daemon_output
// and stop_daemon (dominds_os_tools.cpp); env_get, env_set and env_unset over an overlay of the
// environment Parley gives this dialog's shell_cmd commands — never Parley's own environment, which
// holds the provider keys (dominds_env_tools.cpp). One os_state is shared by the six tools; it
// lives as long as the registry that holds them, and its destructor kills every daemon. Private to
// tools/.
#pragma once

#include <memory>

#include "parley/tools/dominds_daemons.hpp"
#include "parley/tools/tool.hpp"

namespace parley::tools::dominds_detail {

struct os_state {
  daemon_table daemons;
  env_overlays env;
};

void register_daemon_tools(tool_registry& registry, const std::shared_ptr<os_state>& state);
void register_env_tools(tool_registry& registry, const std::shared_ptr<os_state>& state);
// end_dominds_daemons and keep_dominds_os_state (dominds_tools.hpp).
void end_daemons(const tool_registry& registry);
void keep_os_state(const tool_registry& from, tool_registry& to);

}  // namespace parley::tools::dominds_detail
