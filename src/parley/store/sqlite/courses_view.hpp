// Schema version 21: `courses` is a view of the log instead of a table the writer fills.
//
// A course starts with the dialog (`dialog_created`, course 1) and with each `course_started`;
// a course number started twice keeps its latest start, as the table's INSERT OR REPLACE did.
// Nothing in Parley reads the rows (the dialogs' `course` column is what the routes use); the
// view keeps them for whoever queries the store, and `rebuild_projections` has nothing to redo.
// The table held 133 bytes a fanout-3 task (bench/README.md "bytes per task on disk").
#pragma once

namespace parley::sqlite {

// The codes are kEventTypeCodesSql's (compact_log.cpp): 1 = dialog_created, 11 = course_started.
inline constexpr const char* kV21CoursesViewSql = R"sql(
DROP TABLE courses;
CREATE VIEW courses AS
  SELECT d.id AS dialog_id, c.course AS course, c.started_at_ms AS started_at_ms
  FROM (SELECT dialog_key, course, ts_ms AS started_at_ms, max(id) AS latest
        FROM (SELECT id, dialog_key, 1 AS course, ts_ms FROM event_log WHERE type_code = 1
              UNION ALL
              SELECT id, dialog_key, json_extract(parley_payload(payload), '$.course'), ts_ms
              FROM event_log WHERE type_code = 11)
        GROUP BY dialog_key, course) AS c
    JOIN dialog_keys AS d ON d.key = c.dialog_key;
)sql";

}  // namespace parley::sqlite
