// What a round did to dialogs other than its own. A Tellask stages a subdialog's assignment and a
// final saying stages a reply on its caller: those events commit in one batch with the round's own
// (drive_loop::commit_round), atomically, and the dialogs marked to drive are scheduled once it is
// durable. So a router that decides where a call goes never commits or drives anything itself.
#pragma once

#include <algorithm>
#include <vector>

#include "parley/engine/dialog_runtime.hpp"

namespace parley::engine {

struct round_effects {
  std::vector<dialog_runtime*> touched;   // their staged events join the round's batch
  std::vector<dialog_runtime*> to_drive;  // driven once the batch is durable, if they can go on

  void touch(dialog_runtime& d, bool drive) {
    if (std::find(touched.begin(), touched.end(), &d) == touched.end()) touched.push_back(&d);
    if (drive && std::find(to_drive.begin(), to_drive.end(), &d) == to_drive.end()) to_drive.push_back(&d);
  }
};

}  // namespace parley::engine
