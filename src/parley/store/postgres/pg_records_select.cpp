#include "parley/store/postgres/pg_records_select.hpp"

namespace parley::pg {

void visibility_condition(sql_conditions& q, std::string_view dialogue_column, const records_filter& f) {
  if (f.visible_to.empty()) return;
  std::string condition = std::string(dialogue_column) +
                          " IN (SELECT d.id FROM dialogue d JOIN dialogs g ON g.id = d.dialog_id JOIN dialogs r ON "
                          "r.id = g.root_id WHERE strpos(',' || r.humans || ',', ',' || ?::text || ',') > 0";
  condition += f.or_unowned ? " OR r.humans = '')" : ")";
  q.where(condition, f.visible_to);
}

void message_conditions(sql_conditions& q, const records_filter& f) {
  visibility_condition(q, "m.dialogue_id", f);
  q.where_text("m.dialogue_id = ?", f.dialogue_id);
  q.where_text("m.session_id = ?", f.session_id);
  q.where_text("m.turn_id = ?", f.turn_id);
  q.where_in("m.turn_id", f.turn_ids);
  q.where_vocab("m.sender_role = ?", f.role);
  q.where_vocab("m.content_type = ?", f.content_type);
  q.where_time("m.created_at", f);
}

}  // namespace parley::pg
