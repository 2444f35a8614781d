// `parley check`: validates what the log implies against what is stored — each dialog's projection
// row, the hierarchy (parents, roots, depths), the Type B registry (one live subdialog per
// agentId!sessionSlug), the Q4H index, the waits between dialogs, and that no client msgId was
// taken twice (a user message or answer per id: input_retry.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/store/store.hpp"

namespace parley::engine {

struct integrity_report {
  std::int64_t dialogs = 0;
  std::int64_t events = 0;
  std::vector<std::string> problems;  // each names the dialog and what is off
};

// Fails only when the store cannot be read; what is wrong with the data goes into `problems`.
result<integrity_report> check_integrity(store& log);

}  // namespace parley::engine
