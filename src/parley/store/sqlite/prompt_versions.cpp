#include "parley/store/sqlite/prompt_versions.hpp"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace parley::sqlite {
namespace {

boost::json::array tools_array(const std::vector<std::string>& tools) {
  boost::json::array names;
  names.reserve(tools.size());
  for (const auto& name : tools) names.emplace_back(name);
  return names;
}

// Compared as JSON, not as text: a version the migration stored was written by SQLite's json
// functions, whose escapes may differ from ours.
bool same_tools(std::string_view stored, const boost::json::array& tools) {
  boost::system::error_code ec;
  const boost::json::value parsed = boost::json::parse(stored, ec);
  return !ec && parsed.is_array() && parsed.get_array() == tools;
}

}  // namespace

result<void> prompt_version_store::prepare(connection& db) {
  PARLEY_TRY(prepare_into(db, find_, "SELECT system_prompt, tools FROM prompt_versions WHERE version = ?1"));
  return prepare_into(db, insert_, "INSERT INTO prompt_versions (version, system_prompt, tools) VALUES (?1, ?2, ?3)");
}

result<void> prompt_version_store::share(const events::prompt_logged& logged, boost::json::object& payload) {
  const boost::json::array tools = tools_array(logged.tools);
  bool same = false;
  {
    reset_guard guard(find_);
    find_.bind_text(1, logged.version);
    auto found = find_.step();
    if (!found) return std::move(found).err();
    if (*found) {
      same = find_.text_view_at(0) == logged.system_prompt && same_tools(find_.text_view_at(1), tools);
      // Another text under this version: the event keeps its own copy, the stored one stays.
      if (!same) return ok();
    }
  }
  if (!same) {
    tools_text_ = boost::json::serialize(tools);
    insert_.bind_text(1, logged.version);
    insert_.bind_text(2, logged.system_prompt);
    insert_.bind_text(3, tools_text_);
    PARLEY_TRY(insert_.run());
  }
  payload.erase("systemPrompt");
  payload.erase("tools");
  return ok();
}

}  // namespace parley::sqlite
