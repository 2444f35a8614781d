#include "parley/tot/run_log.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <random>

#include "parley/core/file_text.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/core/time.hpp"
#include "parley/tot/protocol_names.hpp"

namespace parley::tot {
namespace fs = std::filesystem;

namespace {

constexpr const char* kTaskInfo = "00-task-info.json";
constexpr const char* kTimeline = "99-merged-timeline.log";

result<void> write_whole(const fs::path& file, const std::string& text) {
  // Written beside and renamed: a reader never sees half a file.
  const fs::path temp = file.string() + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) return make_error(errc::io_error, temp.string() + ": cannot write");
  }
  std::error_code ec;
  fs::rename(temp, file, ec);
  if (ec) return make_error(errc::io_error, file.string() + ": " + ec.message());
  return ok();
}

std::string six_random_chars() {
  static constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device device;
  std::string out;
  for (int i = 0; i < 6; ++i) out += kAlphabet[device() % kAlphabet.size()];
  return out;
}

bool valid_task_id(std::string_view id) {
  if (id.size() != 26 || id.substr(0, 4) != "tot-") return false;
  for (std::size_t i = 4; i < id.size(); ++i) {
    const char c = id[i];
    const bool dash = i == 12 || i == 19;
    if (dash ? c != '-' : !(std::isdigit(static_cast<unsigned char>(c)) != 0 || (c >= 'a' && c <= 'z'))) return false;
  }
  return true;
}

// "14:30:56.123" from an ISO time.
std::string clock_of(std::int64_t ms) { return format_iso8601_ms(ms).substr(11, 12); }

std::string duration_text(std::int64_t ms) {
  const auto seconds = ms / 1000;
  if (seconds >= 60) return std::to_string(seconds / 60) + "分" + std::to_string(seconds % 60) + "秒";
  return std::to_string(seconds) + "." + std::to_string((ms % 1000) / 100) + "秒";
}

}  // namespace

void log_buffer::add(std::string_view level, std::string msg, json::object data) {
  entries_.push_back(
      {now_ms(), static_cast<std::int64_t>(entries_.size()) + 1, std::string(level), std::move(msg), std::move(data)});
}

std::string to_json_line(const log_entry& entry) {
  json::object line{
      {"ts", format_iso8601_ms(entry.ts_ms)}, {"seq", entry.seq}, {"level", entry.level}, {"msg", entry.msg}};
  if (!entry.data.empty()) line["data"] = entry.data;
  return json::serialize(line);
}

result<log_entry> read_json_line(std::string_view line) {
  auto value = parse_json(line);
  if (!value || !value->is_object()) return make_error(errc::corrupt, "not a JSON object line");
  json_fields in(value->get_object());
  log_entry entry;
  const std::string ts_text = in.string("ts");
  entry.seq = in.integer("seq");
  entry.level = in.string("level");
  entry.msg = in.string("msg");
  if (const auto* data = in.optional_object("data")) entry.data = *data;  // absent: empty (to_json_line)
  if (!in.ok()) return make_error(errc::corrupt, in.message());
  const auto ts = parse_iso8601_ms(ts_text);
  if (!ts) return make_error(errc::corrupt, "ts: not an ISO-8601 time");
  entry.ts_ms = *ts;
  return entry;
}

result<task_info_fields> read_task_info_fields(const json::object& info) {
  json_fields in(info);
  task_info_fields out;
  out.problem = in.string("problem");
  out.task_type = in.string("task_type");
  out.start_time = in.string("start_time");
  // A status this version does not name reads as running: a run not known to have ended, as one
  // cut short (it must still be a string).
  out.status = from_name<task_status>(in.string("status")).value_or(task_status::running);
  out.end_time = in.optional_string("end_time").value_or("");
  out.duration_ms = in.optional_integer("duration_ms").value_or(0);
  out.root_dialogs = in.optional_strings("root_dialogs").value_or(std::vector<std::string>{});
  if (auto older = in.optional_string("root_dialog"); older && !older->empty() && out.root_dialogs.empty()) {
    out.root_dialogs.push_back(std::move(*older));
  }
  if (!in.ok()) return make_error(errc::corrupt, std::string(kTaskInfo) + ": " + in.message());
  return out;
}

result<run_folder> run_folder::create_in(const fs::path& logs_dir, std::int64_t start_ms) {
  const std::string iso = format_iso8601_ms(start_ms);  // 2025-10-30T14:30:56.123Z
  const std::string stamp = iso.substr(0, 4) + iso.substr(5, 2) + iso.substr(8, 2) + "-" + iso.substr(11, 2) +
                            iso.substr(14, 2) + iso.substr(17, 2);
  const std::string id = "tot-" + stamp + "-" + six_random_chars();
  const fs::path dir = logs_dir / id;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return make_error(errc::io_error, dir.string() + ": " + ec.message());
  return run_folder(dir, id);
}

result<run_folder> run_folder::open_in(const fs::path& logs_dir, const std::string& task_id) {
  if (!valid_task_id(task_id)) {
    return make_error(errc::invalid_argument,
                      "resume: '" + task_id.substr(0, 40) + "' is not a run id tot-YYYYMMDD-HHMMSS-xxxxxx");
  }
  const fs::path dir = logs_dir / task_id;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return make_error(errc::not_found, "resume: no run " + task_id + " in " + logs_dir.string());
  run_folder folder(dir, task_id);
  auto calls = folder.read_calls();
  if (!calls) return std::move(calls).err();
  for (const auto& [name, entries] : *calls) {
    folder.next_seq_ = std::max(folder.next_seq_, std::atoi(name.c_str()) + 1);
    const auto round_at = name.find("-round");
    if (round_at != std::string::npos) {
      const std::string agent = name.substr(name.find('-') + 1, round_at - name.find('-') - 1);
      folder.rounds_[agent] = std::max(folder.rounds_[agent], std::atoi(name.c_str() + round_at + 6));
    }
  }
  return folder;
}

std::string run_folder::reserve(agent_role role) {
  char seq[16];
  std::snprintf(seq, sizeof seq, "%02d", next_seq_++);
  const std::string agent(name_of(role));
  const bool once = role == agent_role::orchestrator || role == agent_role::decomposer ||
                    role == agent_role::explorer || role == agent_role::synthesizer;
  if (once) return std::string(seq) + "-" + agent + ".log";
  std::string name = std::string(seq) + "-" + agent + "-round" + std::to_string(++rounds_[agent]) + ".log";
  reserved_rounds_[agent].push_back(name);
  return name;
}

result<void> run_folder::finish_names() {
  for (const auto& [agent, names] : reserved_rounds_) {
    if (names.size() != 1 || rounds_[agent] != 1) continue;
    const std::string& name = names.front();
    const std::string plain = name.substr(0, name.find("-round")) + ".log";
    std::error_code ec;
    if (!fs::exists(dir_ / name, ec)) continue;  // reserved, never written (a call that was not made)
    fs::rename(dir_ / name, dir_ / plain, ec);
    if (ec) return make_error(errc::io_error, (dir_ / name).string() + ": " + ec.message());
  }
  reserved_rounds_.clear();
  return ok();
}

result<void> run_folder::write_thought_tree(const json::value& tree) const {
  return write_whole(dir_ / kThoughtTreeFile, json::serialize(tree) + "\n");
}

result<void> run_folder::write(const std::string& file_name, const log_buffer& buffer) const {
  std::string text;
  for (const auto& entry : buffer.entries()) text += to_json_line(entry) + "\n";
  return write_whole(dir_ / file_name, text);
}

result<void> run_folder::write_task_info(const json::object& info) const {
  return write_whole(dir_ / kTaskInfo, json::serialize(info) + "\n");
}

result<json::object> run_folder::read_task_info() const {
  auto text = read_regular_file(dir_ / kTaskInfo, errc::io_error);
  if (!text) return std::move(text).err();
  auto value = parse_json(*text);
  if (!value || !value->is_object())
    return make_error(errc::corrupt, (dir_ / kTaskInfo).string() + ": not a JSON object");
  return value->get_object();
}

result<std::map<std::string, std::vector<log_entry>>> run_folder::read_calls() const {
  std::map<std::string, std::vector<log_entry>> out;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(dir_, ec)) {
    const std::string name = item.path().filename().string();
    if (item.path().extension() != ".log" || name == kTimeline) continue;
    auto text = read_regular_file(item.path(), errc::io_error);
    if (!text) return std::move(text).err();
    auto& entries = out[name];
    std::size_t at = 0;
    while (at < text->size()) {
      auto end = text->find('\n', at);
      if (end == std::string::npos) end = text->size();
      // A line that does not read (a torn write by something else) is skipped, not fatal.
      if (auto entry = read_json_line(std::string_view(*text).substr(at, end - at)))
        entries.push_back(std::move(*entry));
      at = end + 1;
    }
  }
  if (ec) return make_error(errc::io_error, dir_.string() + ": " + ec.message());
  return out;
}

result<void> run_folder::merge_timeline(std::int64_t llm_calls) const {
  auto info = read_task_info();
  if (!info) return std::move(info).err();
  auto calls = read_calls();
  if (!calls) return std::move(calls).err();
  struct line {
    const log_entry* entry;
    std::string file;
  };
  std::vector<line> lines;
  for (const auto& [name, entries] : *calls) {
    for (const auto& entry : entries) lines.push_back({&entry, name.substr(0, name.size() - 4)});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const line& a, const line& b) {
    return a.entry->ts_ms != b.entry->ts_ms ? a.entry->ts_ms < b.entry->ts_ms : a.entry->seq < b.entry->seq;
  });
  auto fields = read_task_info_fields(*info);
  if (!fields) return std::move(fields).err();
  const std::string& start = fields->start_time;
  const std::string& end = fields->end_time;
  std::string text =
      "# ToT 执行时间线\n\n任务 ID: " + task_id_ + "\n问题: " + fields->problem + "\n\n任务开始: " + start + "\n\n";
  for (const auto& l : lines) {
    text += "[" + clock_of(l.entry->ts_ms) + "] [" + l.file + "] " + l.entry->msg + "\n";
    if (!l.entry->data.empty()) text += "         数据: " + json::serialize(l.entry->data) + "\n";
  }
  text += "\n任务结束: " + end + "\n总耗时: " + duration_text(fields->duration_ms) +
          "\n\n---\n\n统计信息:\n- 总日志条目: " + std::to_string(lines.size()) +
          " 条\n- Agent 调用次数: " + std::to_string(calls->size()) + "\n- LLM 调用次数: " + std::to_string(llm_calls) +
          " 次\n";
  return write_whole(dir_ / kTimeline, text);
}

}  // namespace parley::tot
