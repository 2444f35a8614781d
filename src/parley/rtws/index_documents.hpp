// The content of every file of a dialog folder as JSON values: one course-file line per event,
// and the index files (dialog.yaml, latest.yaml, q4h.yaml, reminders.json, registry.yaml) as
// the events imply them. Export serializes these; import compares what it reads against them.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/model/event.hpp"
#include "parley/rtws/dialog_replay.hpp"

namespace parley::rtws {

// {type, seq, ts (ISO-8601 ms), tsMs, dialogId, rootId, payload}: the whole event.
boost::json::object event_line(const event& ev);
// The inverse; the error names the field that is missing or of the wrong type (no location).
result<event> event_from_line(const boost::json::value& line);

// dialog.yaml: id, rootId, memberId, kind, title, taskDocPath, createdAt, status; subdialogs also
// parentId, callKind, sessionSlug, callerId, depth, dead.
boost::json::object dialog_document(const dialog_row& row);
// latest.yaml: currentCourse, status, needsDrive, generating, lastModified, openQuestions,
// pendingSubdialogs (the last two are counts, as in the dialog row).
boost::json::object latest_document(const dialog_row& row);
// q4h.yaml: [{id, mentionList, tellaskContent, askedAt, callSiteRef: {course, seq}}]; the file
// exists only when this is not empty.
boost::json::array q4h_document(const dialog_state& state);
// reminders.json: [{content}] in reminder order.
boost::json::array reminders_document(const dialog_state& state);
// registry.yaml of a root from its subdialogs (in creation order): the Type B sessions, keyed
// `agentId!sessionSlug`, of every live subdialog with a session slug; a later session under the
// same key replaces an earlier one, as in the engine. `locked` is always false on disk: a lock
// belongs to a running process, not to the log.
boost::json::object registry_document(const std::vector<const dialog_replay*>& subdialogs);

}  // namespace parley::rtws
