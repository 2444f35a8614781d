// One dialog folder of Dominds 1.29's `.dialogs/` layout (dominds_layout.hpp) read into Parley's
// typed events: `dialog.yaml` (and a side dialog's `asker-stack.jsonl`) into dialog_created, the
// course records into the conversation (human_text_record → user_message, gen_start/…/gen_finish
// records → generation_started and generation_finished with its thinking, saying and calls,
// func_result and tellask_result records → tool_result), `q4h.yaml` into question_asked, and
// `reminders.json` into reminder_added. Any problem is an error naming the file, line and field.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"

namespace parley::rtws::dominds {

// What `dialog.yaml` (DialogPersistence.saveMainDialogMetadata / saveSideDialogMetadata) and, for
// a side dialog, the first frame of `asker-stack.jsonl` (saveDialogAskerStack) say.
struct dialog_info {
  std::string dominds_id;
  std::string parley_id;
  std::filesystem::path folder;
  std::string agent_id;
  std::string task_doc_path;
  std::string session_slug;
  std::int64_t created_ms = 0;
  std::string asker_parley_id;  // side dialogs: the dialog that asked it
  std::optional<events::call_kind> call;
};

// Reads the metadata of the dialog filed at `folder` whose path says its id is `dominds_id`.
result<dialog_info> read_dialog_info(const std::filesystem::path& folder, const std::string& dominds_id, bool is_side);

// Where the dialog sits in its tree and how its status bucket files it.
struct dialog_placement {
  std::string root_id;
  std::string parent_id;
  std::int64_t depth = 0;
  events::dialog_status status = events::dialog_status::running;
};

// The dialog's log, seq 1.., every event stamped with its record's time.
result<std::vector<event>> read_dialog_events(const dialog_info& info, const dialog_placement& at, std::int64_t& files);

}  // namespace parley::rtws::dominds
