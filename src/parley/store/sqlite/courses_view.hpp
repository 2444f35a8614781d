// Schema version 21: `courses` is a view of the log instead of a table the writer fills.
//
// A course starts with the dialog (`dialog_created`, course 1) and with each `course_started`;
// a course number started twice keeps its latest start, as the table's INSERT OR REPLACE did.
// Nothing in Parley reads the rows (the dialogs' `course` column is what the routes use); the
// view keeps them for whoever queries the store, and `rebuild_projections` has nothing to redo.
// The table held 133 bytes a fanout-3 task (bench/README.md "bytes per task on disk").
#pragma once

namespace parley::sqlite {

// Over the `events` view, so that it reads the log in whatever layout a later version gives it.
inline constexpr const char* kV21CoursesViewSql = R"sql(
DROP TABLE courses;
CREATE VIEW courses AS
  SELECT dialog_id, course, started_at_ms
  FROM (SELECT dialog_id, course, ts_ms AS started_at_ms, max(id) AS latest
        FROM (SELECT id, dialog_id, 1 AS course, ts_ms FROM events WHERE type = 'dialog_created'
              UNION ALL
              SELECT id, dialog_id, json_extract(payload, '$.course'), ts_ms FROM events WHERE type = 'course_started')
        GROUP BY dialog_id, course);
)sql";

}  // namespace parley::sqlite
