// `parley` with no verb (verb_overview.cpp): what waits, in a folder that holds Parley's data.
#pragma once

#include <string>
#include <vector>

namespace parley::cli {

// Whether `parley ARGS` (no verb; ARGS only --data/--store/--team/--workspace) has a store to
// show: the data directory holds one, or --store / $PARLEY_STORE names one.
bool overview_applies(const std::vector<std::string>& args);
int run_overview(const std::vector<std::string>& args);

}  // namespace parley::cli
