// Where seed 001 keeps dialogs inside an rtws (runtime workspace): `.dialogs/run/<rootId>/` for
// running roots, `.dialogs/done/<rootId>/` for completed or archived ones, each root's subdialogs
// flat under `subdialogs/<subId>/` whatever their depth. Names only; no I/O except the checks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/model/events/enums.hpp"

namespace parley::rtws {

namespace layout {
inline constexpr std::string_view dialogs_folder = ".dialogs";
inline constexpr std::string_view run_folder = "run";
inline constexpr std::string_view done_folder = "done";
inline constexpr std::string_view subdialogs_folder = "subdialogs";
inline constexpr std::string_view dialog_file = "dialog.yaml";
inline constexpr std::string_view latest_file = "latest.yaml";
inline constexpr std::string_view q4h_file = "q4h.yaml";
inline constexpr std::string_view reminders_file = "reminders.json";
inline constexpr std::string_view registry_file = "registry.yaml";  // roots only
}  // namespace layout

// `<rtws>/.dialogs`
std::filesystem::path dialogs_path(const std::filesystem::path& rtws);
// "done" for a completed or archived root, "run" otherwise: the folder a root lives under.
std::string_view bucket_for_status(events::dialog_status status);
// `<rtws>/.dialogs/<bucket>/<rootId>`
std::filesystem::path root_path(const std::filesystem::path& rtws, std::string_view bucket, std::string_view root_id);
// `<root folder>/subdialogs/<subId>`
std::filesystem::path subdialog_path(const std::filesystem::path& root_folder, std::string_view sub_id);

// "course-001.jsonl"; courses past 999 simply get more digits.
std::string course_file_name(std::int64_t course);
// The course a file name stands for, if it is exactly what course_file_name would write.
std::optional<std::int64_t> course_of_file_name(std::string_view name);

// A dialog id becomes a folder name: it must be one plain path component, and not a hidden one,
// because hidden entries are where export stages its work and import skips them.
result<void> check_folder_name(std::string_view dialog_id);

}  // namespace parley::rtws
