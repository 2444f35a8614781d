#include "parley/rtws/dominds_dialog.hpp"

#include <boost/json/value.hpp>

#include <charconv>
#include <fstream>
#include <map>
#include <system_error>

#include "parley/core/json_fields.hpp"
#include "parley/rtws/dominds_layout.hpp"
#include "parley/rtws/dominds_records.hpp"
#include "parley/rtws/index_text.hpp"
#include "parley/rtws/rtws_layout.hpp"

namespace parley::rtws::dominds {

namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

error at_file(const fs::path& file, const error& problem) {
  return make_error(problem.code, file.string() + ": " + problem.message);
}

result<void> prefixed(const std::string& prefix, result<void> outcome) {
  if (outcome) return outcome;
  const error problem = std::move(outcome).err();
  return make_error(problem.code, prefix + problem.message);
}

// A number from a YAML text tree (every scalar is its text there).
std::optional<std::int64_t> yaml_integer(const json::object& obj, std::string_view key) {
  const json::value* found = obj.if_contains(key);
  if (found == nullptr || !found->is_string()) return std::nullopt;
  const std::string_view text = found->get_string();
  std::int64_t out = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return out;
}

std::optional<events::call_kind> call_kind_of(std::string_view name) {
  if (name == "tellask") return events::call_kind::tellask;
  if (name == "tellaskSessionless") return events::call_kind::tellask_sessionless;
  if (name == "freshBootsReasoning") return events::call_kind::fresh_boots_reasoning;
  return std::nullopt;
}

// The first frame of asker-stack.jsonl (buildSideDialogAskerStack): who asked, and by which call.
result<void> read_asker(const fs::path& folder, dialog_info& info) {
  const fs::path file = folder / asker_stack_file;
  auto text = read_whole_file(file);
  if (!text) return std::move(text).err();
  const std::string_view first = std::string_view(*text).substr(0, text->find('\n'));
  std::size_t column = 0;
  auto value = parse_json_with_position(first, column);
  if (!value)
    return make_error(errc::invalid_argument,
                      file.string() + ":1:" + std::to_string(column) + ": " + value.err().message);
  if (!value->is_object()) return make_error(errc::invalid_argument, file.string() + ":1: not a JSON object");
  json_fields in(value->get_object());
  const std::string kind = in.string("kind");
  const std::string asker = in.string("askerDialogId");
  const json::object* assignment = in.optional_object("assignmentFromAsker");
  PARLEY_TRY(prefixed(file.string() + ": ", in.status()));
  if (kind != "asker_dialog_stack_frame") {
    return make_error(errc::invalid_argument, file.string() + ":1: field 'kind': expected 'asker_dialog_stack_frame'");
  }
  auto asker_id = parley_id_of(asker);
  if (!asker_id) return at_file(file, asker_id.err());
  info.asker_parley_id = std::move(*asker_id);
  if (assignment != nullptr) {
    if (const auto* name = assignment->if_contains("callName"); name != nullptr && name->is_string()) {
      info.call = call_kind_of(name->get_string());
    }
  }
  return ok();
}

// Open questions (q4h.yaml, DialogPersistence.writeQ4HStateToDisk): each a question_asked.
result<void> read_questions(const fs::path& folder, record_converter& out, std::int64_t& files) {
  const fs::path file = folder / "q4h.yaml";
  std::error_code ec;
  if (!fs::exists(file, ec)) return ok();
  ++files;
  auto tree = load_yaml_tree(file);
  if (!tree) return std::move(tree).err();
  const json::object* doc = tree->if_object();
  const json::value* questions = doc != nullptr ? doc->if_contains("questions") : nullptr;
  if (questions == nullptr || !questions->is_array()) {
    return make_error(errc::invalid_argument, file.string() + ": field 'questions': expected a list");
  }
  for (std::size_t i = 0; i < questions->get_array().size(); ++i) {
    const std::string where = file.string() + ": field 'questions[" + std::to_string(i) + "]";
    const json::object* q = questions->get_array()[i].if_object();
    const json::object* site = q != nullptr && q->contains("callSiteRef") ? q->at("callSiteRef").if_object() : nullptr;
    if (q == nullptr || site == nullptr) return make_error(errc::invalid_argument, where + "': expected a question");
    json_fields in(*q);
    events::question_asked asked;
    asked.question_id = in.string("id");
    asked.tellask_content = in.string("tellaskContent");
    asked.asked_at = in.string("askedAt");
    asked.call_id = in.string("callId");
    PARLEY_TRY(prefixed(where + "': ", in.status()));
    const auto course = yaml_integer(*site, "course");
    if (!course || *course < 1) return make_error(errc::invalid_argument, where + ".callSiteRef.course': not a course");
    asked.course = *course;
    asked.genseq = yaml_integer(*site, "callSiteGenseq").value_or(0);
    asked.mention_list = "@human";
    auto asked_ms = read_timestamp_ms(asked.asked_at);
    if (!asked_ms) return make_error(errc::invalid_argument, where + ".askedAt': " + asked_ms.err().message);
    out.append(std::move(asked), *asked_ms);
  }
  return ok();
}

// reminders.json (DialogPersistence._saveReminderState): each reminder's content, in order.
result<void> read_reminders(const fs::path& folder, record_converter& out, std::int64_t& files) {
  const fs::path file = folder / "reminders.json";
  std::error_code ec;
  if (!fs::exists(file, ec)) return ok();
  ++files;
  auto doc = load_json_file(file);
  if (!doc) return std::move(doc).err();
  if (!doc->is_object()) return make_error(errc::invalid_argument, file.string() + ": not a JSON object");
  json_fields in(doc->get_object());
  const json::array* reminders = in.array("reminders");
  PARLEY_TRY(prefixed(file.string() + ": ", in.status()));
  for (std::size_t i = 0; i < reminders->size(); ++i) {
    const json::object* entry = (*reminders)[i].if_object();
    const json::value* content = entry != nullptr ? entry->if_contains("content") : nullptr;
    if (content == nullptr || !content->is_string()) {
      return make_error(errc::invalid_argument,
                        file.string() + ": field 'reminders[" + std::to_string(i) + "].content': expected a string");
    }
    out.append(events::reminder_added{std::string(content->get_string())}, out.last_ts_ms());
  }
  return ok();
}

}  // namespace

result<dialog_info> read_dialog_info(const fs::path& folder, const std::string& dominds_id, bool is_side) {
  const fs::path file = folder / layout::dialog_file;
  auto tree = load_yaml_tree(file);
  if (!tree) return std::move(tree).err();
  if (!tree->is_object()) return make_error(errc::invalid_argument, file.string() + ": not a mapping");
  json_fields in(tree->get_object());
  dialog_info info;
  const std::string id = in.string("id");
  info.agent_id = in.string("agentId");
  info.task_doc_path = in.string("taskDocPath");
  const std::string created = in.string("createdAt");
  info.session_slug = in.optional_string("sessionSlug").value_or("");
  PARLEY_TRY(prefixed(file.string() + ": ", in.status()));
  // listDialogs files a dialog under the path of its id and refuses one whose id says otherwise.
  if (id != dominds_id) {
    return make_error(errc::invalid_argument, file.string() + ": field 'id': '" + id +
                                                  "' is not the id its folder says ('" + dominds_id + "')");
  }
  auto parley_id = parley_id_of(id);
  if (!parley_id) return at_file(file, parley_id.err());
  auto created_ms = read_timestamp_ms(created);
  if (!created_ms)
    return make_error(errc::invalid_argument, file.string() + ": field 'createdAt': " + created_ms.err().message);
  info.dominds_id = id;
  info.parley_id = std::move(*parley_id);
  info.folder = folder;
  info.created_ms = *created_ms;
  if (is_side) PARLEY_TRY(read_asker(folder, info));
  return info;
}

result<std::vector<event>> read_dialog_events(const dialog_info& info, const dialog_placement& at,
                                              std::int64_t& files) {
  record_converter out(info.parley_id, at.root_id);
  events::dialog_created created;
  created.member_id = info.agent_id;
  created.kind = at.parent_id.empty() ? events::dialog_kind::root : events::dialog_kind::sub;
  created.parent_id = at.parent_id;
  created.task_doc_path = info.task_doc_path;
  created.depth = at.depth;
  created.call = info.call;
  created.session_slug = info.session_slug;
  out.append(std::move(created), info.created_ms);

  std::map<std::int64_t, fs::path> courses;
  std::error_code ec;
  for (fs::directory_iterator it(info.folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (const auto course = course_of_file_name(it->path().filename().string())) courses.emplace(*course, it->path());
  }
  if (ec) return make_error(errc::io_error, info.folder.string() + ": cannot list it: " + ec.message());
  for (const auto& [course, file] : courses) {
    ++files;
    out.begin_course(course, out.last_ts_ms());
    std::ifstream in(file, std::ios::binary);
    if (!in) return make_error(errc::io_error, file.string() + ": cannot open it");
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // readCourseEvents skips blank lines
      const std::string where = file.string() + ":" + std::to_string(number);
      std::size_t column = 0;
      auto value = parse_json_with_position(line, column);
      if (!value)
        return make_error(errc::invalid_argument,
                          where + ":" + std::to_string(column) + ": " + value.err().message + " (a truncated record?)");
      if (!value->is_object()) return make_error(errc::invalid_argument, where + ": a record is a JSON object");
      if (auto taken = out.take_record(value->get_object()); !taken) {
        return make_error(errc::invalid_argument, where + ": " + taken.err().message);
      }
    }
  }
  out.close_generation();
  PARLEY_TRY(read_questions(info.folder, out, files));
  PARLEY_TRY(read_reminders(info.folder, out, files));
  if (at.status != events::dialog_status::running) out.append(events::status_changed{at.status}, out.last_ts_ms());
  return out.take_events();
}

}  // namespace parley::rtws::dominds
