// `parley export` and `parley import`: the store's dialogs as seed 001's on-disk layout in an
// rtws (`.dialogs/run|done/<rootId>/...`), and back.
#pragma once

#include <string>
#include <vector>

namespace parley::cli {

// parley export --rtws DIR [--data DIR] [--force]
int run_verb_export(const std::vector<std::string>& args);
// parley import --rtws DIR [--data DIR]
int run_verb_import(const std::vector<std::string>& args);

}  // namespace parley::cli
