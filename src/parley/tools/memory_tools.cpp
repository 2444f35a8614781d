#include "parley/tools/memory_tools.hpp"

#include <boost/json/array.hpp>

#include "parley/core/file_io.hpp"
#include "parley/core/json_fields.hpp"
#include "parley/tools/function_tool.hpp"
#include "parley/tools/workspace_ops.hpp"

namespace parley::tools {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

enum class scope { personal, team };

fs::path folder_of(const tool_context& ctx, scope where) {
  const fs::path root = ctx.workspace / ".minds" / "memory";
  return where == scope::team ? root / "team_shared" : root / "individual" / ctx.member_id;
}

// "notes/build" -> "notes/build.md"; refuses what could leave the folder or is not a plain name.
result<fs::path> entry_path(std::string_view name) {
  auto refuse = [&](std::string why) {
    return make_error(errc::invalid_argument, "path '" + std::string(name) + "': " + std::move(why));
  };
  if (name.empty()) return refuse("is empty");
  if (name.size() > 200) return refuse("is longer than 200 characters");
  std::string text(name);
  if (!text.ends_with(".md")) text += ".md";
  fs::path path(text);
  if (path.is_absolute()) return refuse("must be relative, like 'build/commands'");
  for (const auto& part : path) {
    const std::string segment = part.string();
    if (segment.empty() || segment == "." || segment == "..") return refuse("has an empty, '.' or '..' part");
    for (const char c : segment) {
      const bool plain = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == '.';
      if (!plain) return refuse("may hold only letters, digits, '-', '_', '.' and '/'");
    }
  }
  return path;
}

const char* scope_name(scope where) { return where == scope::team ? "team memory" : "your memory"; }

tool_outcome write_entry(const boost::json::object& args, const tool_context& ctx, scope where, bool must_exist) {
  if (where == scope::personal && ctx.member_id.empty()) return detail::failed("personal memory needs a member");
  json_fields in(args);
  const std::string name = in.string("path");
  const std::string content = in.string("content");
  if (!in.ok()) return detail::failed(in.message());
  auto relative = entry_path(name);
  if (!relative) return detail::failed(relative.err().message);
  if (content.size() > kMaxMemoryEntryBytes) {
    return detail::failed("content is " + std::to_string(content.size()) + " bytes; a memory entry holds at most " +
                          std::to_string(kMaxMemoryEntryBytes) + ". Distill it");
  }
  const fs::path file = folder_of(ctx, where) / *relative;
  std::error_code ec;
  const bool exists = fs::is_regular_file(file, ec);
  if (must_exist && !exists)
    return detail::failed("no entry '" + relative->generic_string() + "' in " + scope_name(where) +
                          "; use add to create it");
  if (!must_exist && exists)
    return detail::failed("'" + relative->generic_string() + "' is already in " + scope_name(where) +
                          "; use replace to change it");
  fs::create_directories(file.parent_path(), ec);
  if (ec) return detail::failed("cannot create the folder for '" + relative->generic_string() + "': " + ec.message());
  if (auto written = write_file_atomically(file, content); !written) return detail::failed(written.err().message);
  return tool_outcome{true, std::string(must_exist ? "replaced '" : "added '") + relative->generic_string() + "' in " +
                                scope_name(where) + " (" + std::to_string(content.size()) + " bytes)"};
}

tool_outcome drop_entry(const boost::json::object& args, const tool_context& ctx, scope where) {
  if (where == scope::personal && ctx.member_id.empty()) return detail::failed("personal memory needs a member");
  json_fields in(args);
  const std::string name = in.string("path");
  if (!in.ok()) return detail::failed(in.message());
  auto relative = entry_path(name);
  if (!relative) return detail::failed(relative.err().message);
  std::error_code ec;
  if (!fs::remove(folder_of(ctx, where) / *relative, ec) || ec) {
    return detail::failed("no entry '" + relative->generic_string() + "' in " + scope_name(where));
  }
  return tool_outcome{true, "dropped '" + relative->generic_string() + "' from " + scope_name(where)};
}

tool_outcome clear_entries(const tool_context& ctx, scope where) {
  if (where == scope::personal && ctx.member_id.empty()) return detail::failed("personal memory needs a member");
  std::error_code ec;
  const auto removed = fs::remove_all(folder_of(ctx, where), ec);
  if (ec) return detail::failed("cannot clear " + std::string(scope_name(where)) + ": " + ec.message());
  return tool_outcome{true, "cleared " + std::string(scope_name(where)) + " (" +
                                std::to_string(removed == 0 ? 0 : removed - 1) + " entries and folders)"};
}

json::object schema(bool with_content) {
  json::object properties{{"path", json::object{{"type", "string"},
                                                {"minLength", 1},
                                                {"maxLength", 200},
                                                {"description", "Entry name, e.g. 'build/commands' (.md is added)"}}}};
  json::array required{"path"};
  if (with_content) {
    properties["content"] = json::object{{"type", "string"}, {"description", "The entry's Markdown text"}};
    required.emplace_back("content");
  }
  return json::object{{"type", "object"},
                      {"properties", std::move(properties)},
                      {"required", std::move(required)},
                      {"additionalProperties", false}};
}

json::object empty_schema() {
  return json::object{
      {"type", "object"}, {"properties", json::object{}}, {"required", json::array{}}, {"additionalProperties", false}};
}

void add_scope(tool_registry& registry, scope where, const std::string& infix, const std::string& what) {
  registry.add(std::make_unique<function_tool>(
      tool_spec{"add" + infix + "memory",
                "Add a new entry to " + what + "; it is in your prompt from the next generation on.", schema(true)},
      [where](const json::object& args, const tool_context& ctx) { return write_entry(args, ctx, where, false); }));
  registry.add(std::make_unique<function_tool>(
      tool_spec{"replace" + infix + "memory", "Replace the whole text of an existing entry of " + what + ".",
                schema(true)},
      [where](const json::object& args, const tool_context& ctx) { return write_entry(args, ctx, where, true); }));
  registry.add(std::make_unique<function_tool>(
      tool_spec{"drop" + infix + "memory", "Remove one entry of " + what + ".", schema(false)},
      [where](const json::object& args, const tool_context& ctx) { return drop_entry(args, ctx, where); }));
  registry.add(std::make_unique<function_tool>(
      tool_spec{"clear" + infix + "memory", "Remove every entry of " + what + ".", empty_schema()},
      [where](const json::object&, const tool_context& ctx) { return clear_entries(ctx, where); }));
}

}  // namespace

void register_memory_tools(tool_registry& registry) {
  add_scope(registry, scope::personal, "_", "your personal memory (what you keep across dialogs)");
  add_scope(registry, scope::team, "_team_", "the team's shared memory (conventions every member sees)");
  registry.add_toolset("memory", {"add_memory", "replace_memory", "drop_memory", "clear_memory"});
  registry.add_toolset("team_memory",
                       {"add_team_memory", "replace_team_memory", "drop_team_memory", "clear_team_memory"});
}

}  // namespace parley::tools
