#include "parley/rtws/dominds_export.hpp"

#include <boost/json.hpp>

#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "parley/core/file_io.hpp"
#include "parley/core/ids.hpp"
#include "parley/rtws/dialog_replay.hpp"
#include "parley/rtws/dominds_layout.hpp"
#include "parley/rtws/index_text.hpp"
#include "parley/rtws/rtws_layout.hpp"

namespace parley::rtws::dominds {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

struct dominds_tree {
  dialog_row root;
  std::vector<dialog_row> sides;  // every depth, creation order (list_dialogs' order)
};

// The path of a Dominds id under `base` ("aa/bb/cc" → base/aa/bb/cc).
fs::path id_path(const fs::path& base, const std::string& parley_id) { return base / dominds_id_of(parley_id); }

std::string_view latest_status(events::dialog_status status) {
  switch (status) {
    case events::dialog_status::running:
      return "active";
    case events::dialog_status::completed:
      return "completed";
    case events::dialog_status::archived:
      return "archived";
  }
  return "active";
}

json::object record_head(std::string_view type, std::int64_t ts_ms, std::int64_t genseq) {
  return {{"ts", format_timestamp(ts_ms)}, {"type", type}, {"genseq", genseq}};
}

// The records one event becomes (the builders dominds_records.hpp names, read backwards).
void records_of(const event& ev, std::int64_t& genseq, std::vector<json::object>& out) {
  if (const auto* input = ev.as<events::user_message>()) {
    json::object rec = record_head("human_text_record", ev.ts_ms, genseq + 1);
    rec["content"] = input->content;
    rec["msgId"] = input->msg_id;
    rec["grammar"] = "markdown";
    rec["origin"] = input->origin == events::message_origin::user ? "user" : "runtime";
    out.push_back(std::move(rec));
  } else if (const auto* started = ev.as<events::generation_started>()) {
    genseq = started->genseq;
    out.push_back(record_head("gen_start_record", ev.ts_ms, genseq));
  } else if (const auto* finished = ev.as<events::generation_finished>()) {
    genseq = finished->genseq;
    if (!finished->thinking.empty()) {
      out.push_back(record_head("agent_thought_record", ev.ts_ms, genseq));
      out.back()["content"] = finished->thinking;
    }
    if (!finished->saying.empty()) {
      out.push_back(record_head("agent_words_record", ev.ts_ms, genseq));
      out.back()["content"] = finished->saying;
    }
    for (const auto& call : finished->tool_calls) {
      json::object rec = record_head("func_call_record", ev.ts_ms, genseq);
      rec["id"] = call.id;
      rec["name"] = call.name;
      rec["rawArgumentsText"] = call.arguments;
      out.push_back(std::move(rec));
    }
    json::object done = record_head("gen_finish_record", ev.ts_ms, genseq);
    if (finished->model) done["llmGenModel"] = *finished->model;
    out.push_back(std::move(done));
  } else if (const auto* tool = ev.as<events::tool_result>()) {
    json::object rec = record_head("func_result_record", ev.ts_ms, tool->genseq);
    rec.erase("genseq");  // buildFuncResultRecord puts genseq last
    rec["id"] = tool->call_id;
    rec["name"] = tool->name;
    rec["content"] = tool->content;
    rec["genseq"] = tool->genseq;
    out.push_back(std::move(rec));
  }
}

result<void> write_text(const fs::path& file, std::string_view text, std::int64_t& files) {
  auto written = write_file_atomically(file, text);
  if (!written) return make_error(written.err().code, file.string() + ": " + written.err().message);
  ++files;
  return ok();
}

result<void> write_state_files(const fs::path& folder, const dialog_replay& replay, std::int64_t& files) {
  const dialog_row& row = replay.row();
  const std::string updated = format_timestamp(row.updated_at_ms);
  json::object dialog{{"id", dominds_id_of(row.id)},
                      {"agentId", row.member_id},
                      {"taskDocPath", row.task_doc_path},
                      {"createdAt", format_timestamp(row.created_at_ms)}};
  if (row.kind == events::dialog_kind::sub && !row.session_slug.empty()) dialog["sessionSlug"] = row.session_slug;
  PARLEY_TRY(write_text(folder / layout::dialog_file, to_yaml_text(dialog), files));
  // parseDialogLatestFile (dist/persistence.js) refuses a latest.yaml without nextStep,
  // tellaskCalls and tellaskResults: written empty, as Dominds initialises them
  // (dialog-latest-state.js createEmptyDialog*State).
  const json::object latest{{"currentCourse", row.course},
                            {"lastModified", updated},
                            {"status", latest_status(row.status)},
                            {"messageCount", row.message_count},
                            {"nextStep", json::object{{"nextSeq", 1}, {"triggers", json::array{}}}},
                            {"tellaskCalls", json::object{{"calls", json::array{}}}},
                            {"tellaskResults", json::object{{"results", json::array{}}}}};
  PARLEY_TRY(write_text(folder / layout::latest_file, to_yaml_text(latest), files));
  json::array reminders;
  for (std::size_t i = 0; i < replay.state().reminders.size(); ++i) {
    reminders.push_back(json::object{{"id", "r" + std::to_string(i + 1)},
                                     {"content", replay.state().reminders[i]},
                                     {"scope", "dialog"},
                                     {"renderMode", "markdown"},
                                     {"createdAt", updated},
                                     {"priority", "medium"}});
  }
  const json::object reminder_file{{"reminders", std::move(reminders)}, {"updatedAt", updated}};
  PARLEY_TRY(write_text(folder / "reminders.json", json::serialize(reminder_file), files));
  if (replay.state().questions.empty()) return ok();
  json::array questions;
  for (const auto& q : replay.state().questions) {
    questions.push_back(json::object{{"id", q.id},
                                     {"tellaskContent", q.tellask_content},
                                     {"askedAt", q.asked_at},
                                     {"callId", q.call_id},
                                     {"callSiteRef", json::object{{"course", q.course}, {"messageIndex", 0}}}});
  }
  const json::object q4h{{"questions", std::move(questions)}, {"updatedAt", updated}};
  return write_text(folder / "q4h.yaml", to_yaml_text(q4h), files);
}

// The side dialog's task: its first user message (the Tellask that made it).
std::string first_user_message(const std::vector<event>& events) {
  for (const event& ev : events) {
    if (const auto* input = ev.as<events::user_message>()) return input->content;
  }
  return {};
}

// buildSideDialogAskerStack's frame with its assignment: Dominds reads a side dialog's metadata
// through it (loadDialogMetadata → getDialogAskerStackCurrentAssignment) and refuses one without
// (isSideDialogAssignmentFromAsker says the fields). Parley's log keeps no Dominds call id nor call
// site for it: the call id is the side dialog's own Dominds id, the call site its asker's course 1,
// generation 1, and a Fresh Boots Reasoning's effort 1.
json::object asker_stack_frame(const dialog_row& row, const std::string& origin_member, const std::string& task) {
  const std::string asker = dominds_id_of(row.parent_id);
  json::object assignment{{"tellaskContent", task}, {"originMemberId", origin_member},
                          {"askerDialogId", asker}, {"callId", "parley-" + dominds_id_of(row.id)},
                          {"callSiteCourse", 1},    {"callSiteGenseq", 1}};
  const auto kind = row.call_kind.value_or(events::call_kind::tellask_sessionless);
  if (kind == events::call_kind::fresh_boots_reasoning) {
    assignment["callName"] = "freshBootsReasoning";
    assignment["effectiveFbrEffort"] = 1;
  } else {
    assignment["callName"] = kind == events::call_kind::tellask ? "tellask" : "tellaskSessionless";
    assignment["mentionList"] = json::array{json::value("@" + row.member_id)};
  }
  return json::object{
      {"kind", "asker_dialog_stack_frame"}, {"askerDialogId", asker}, {"assignmentFromAsker", std::move(assignment)}};
}

result<void> write_dialog(store& log, const dialog_row& row, const fs::path& folder, export_summary& summary) {
  auto events = log.read_events(row.id);
  if (!events) return std::move(events).err();
  dialog_replay replay;
  std::map<std::int64_t, std::string> courses;
  std::int64_t genseq = 0;
  for (const event& ev : *events) {
    auto course = replay.apply(ev);
    if (!course)
      return make_error(errc::corrupt, "the log of dialog " + row.id + " does not replay: " + course.err().message);
    std::vector<json::object> records;
    records_of(ev, genseq, records);
    std::string& text = courses[*course];
    for (const auto& rec : records) text += json::serialize(rec) + "\n";
  }
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return make_error(errc::io_error, folder.string() + ": cannot create the folder: " + ec.message());
  for (const auto& [course, text] : courses) {
    PARLEY_TRY(write_text(folder / course_file_name(course), text, summary.files));
  }
  PARLEY_TRY(write_state_files(folder, replay, summary.files));
  if (row.kind == events::dialog_kind::sub) {
    auto parent = log.get_dialog(row.parent_id);
    if (!parent) return std::move(parent).err();
    const std::string origin = *parent ? (**parent).member_id : std::string();
    const json::object frame = asker_stack_frame(row, origin, first_user_message(*events));
    PARLEY_TRY(write_text(folder / asker_stack_file, json::serialize(frame) + "\n", summary.files));
  }
  ++summary.dialogs;
  summary.events += static_cast<std::int64_t>(events->size());
  return ok();
}

result<void> export_tree(store& log, const fs::path& rtws, const dominds_tree& tree, bool force,
                         export_summary& summary) {
  const fs::path target = id_path(dialogs_path(rtws) / bucket_for_status(tree.root.status), tree.root.id);
  std::error_code ec;
  fs::create_directories(target.parent_path(), ec);
  const fs::path staging = target.parent_path() / ("." + target.filename().string() + ".parley-export-" + new_uuid());
  auto written = write_dialog(log, tree.root, staging, summary);
  for (std::size_t i = 0; written && i < tree.sides.size(); ++i) {
    written = write_dialog(log, tree.sides[i], id_path(staging / side_dialogs_folder, tree.sides[i].id), summary);
  }
  if (written && force) {
    for (const auto bucket : {layout::run_folder, layout::done_folder, archive_folder}) {
      fs::remove_all(id_path(dialogs_path(rtws) / bucket, tree.root.id), ec);
    }
  }
  if (written) {
    fs::rename(staging, target, ec);
    if (ec)
      written = make_error(errc::io_error, target.string() + ": cannot move the export into place: " + ec.message());
  }
  if (!written) fs::remove_all(staging, ec);
  return written;
}

}  // namespace

result<export_summary> export_rtws(store& log, const fs::path& rtws, bool force) {
  auto rows = log.list_dialogs({});
  if (!rows) return std::move(rows).err();
  std::vector<dominds_tree> trees;
  std::map<std::string, std::size_t, std::less<>> index;
  for (const dialog_row& row : *rows) {
    if (row.root_id != row.id) continue;
    if (auto valid = parley_id_of(dominds_id_of(row.id)); !valid) return std::move(valid).err();
    index.emplace(row.id, trees.size());
    trees.push_back({row, {}});
  }
  for (const dialog_row& row : *rows) {
    if (row.root_id == row.id) continue;
    const auto found = index.find(row.root_id);
    if (found == index.end()) {
      return make_error(errc::corrupt, "dialog " + row.id + " belongs to root " + row.root_id + ", not in the store");
    }
    if (auto valid = parley_id_of(dominds_id_of(row.id)); !valid) return std::move(valid).err();
    trees[found->second].sides.push_back(row);
  }
  if (!force) {
    std::error_code ec;
    for (const auto& tree : trees) {
      for (const auto bucket : {layout::run_folder, layout::done_folder, archive_folder}) {
        const fs::path folder = id_path(dialogs_path(rtws) / bucket, tree.root.id);
        if (fs::exists(fs::symlink_status(folder, ec))) {
          return make_error(errc::conflict, folder.string() +
                                                " already exists: the export would overwrite that dialog; pass "
                                                "--force to replace it");
        }
      }
    }
  }
  export_summary summary;
  for (const auto& tree : trees) PARLEY_TRY(export_tree(log, rtws, tree, force, summary));
  return summary;
}

}  // namespace parley::rtws::dominds
