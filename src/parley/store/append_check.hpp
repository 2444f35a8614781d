// Defence in depth for the log: an event whose text could not be read back (bytes that are not
// UTF-8, numbers that are not finite) would make its dialog — before this check, the whole store —
// unreadable. Every store runs this on each batch before taking it; the entries (CLI, REST,
// WebSocket, tools, providers, team files) refuse or repair such input long before it gets here.
#pragma once

#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"

namespace parley {

// Fails with errc::invalid_argument naming the event (dialog, seq, type) and the field.
result<void> check_appendable(const std::vector<event>& batch);

}  // namespace parley
