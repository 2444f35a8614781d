// What a file tool may touch, on top of workspace confinement (workspace_path.hpp): the protected
// folders of tool_context (Parley's data, wherever it is) and the member's access rules
// (access_rules.hpp). The rules judge the path as given and the path it resolves to, so a
// symbolic link neither launders a denied folder nor lets a denied path through.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "parley/access/access_rules.hpp"
#include "parley/core/result.hpp"
#include "parley/tools/tool.hpp"
#include "parley/tools/workspace_path.hpp"

namespace parley::tools {

enum class file_access { read, write };

// resolve_workspace_path, then the protected folders, then the rules for `mode`. Refusals are
// errc::invalid_argument with a message for the model that quotes `path` and says why.
result<workspace_path> resolve_for(const tool_context& ctx, std::string_view path, file_access mode,
                                   access::path_kind kind);

// The protected folder `absolute` (canonical) is in, or nullptr.
const protected_dir* protected_dir_of(const tool_context& ctx, const std::filesystem::path& absolute);

// The protected folder a resolved path is in, judged by the file it names and by the path as
// written (a link inside a protected folder is no way around it), or nullptr.
const protected_dir* protected_dir_for(const tool_context& ctx, const workspace_path& where);

// The rules of the context (an empty set when it has none).
const access::access_rules& rules_of(const tool_context& ctx);

// The member's own memory folder, `.minds/memory/individual/<member id>/`: the one place under
// `.minds/` its file tools may read and write (self-reflection keeps memories there), whatever
// its access rules say. Empty without a member.
std::string own_memory_folder(const tool_context& ctx);
// check_read / check_write of the context's rules, with the member's own memory folder let through.
access::verdict check_path(const tool_context& ctx, std::string_view relative_path, file_access mode,
                           access::path_kind kind);

// "'x' is not readable for you: <reason>", naming the link when the resolved path was the one refused.
std::string access_refusal(std::string_view shown, file_access mode, const workspace_path& where,
                           const access::verdict& verdict, bool resolved_one);

// Both forms of a path pass `check` (the resolved one only when it differs).
template <class Check>
std::pair<access::verdict, bool> judge_both(const workspace_path& where, Check&& check) {
  if (auto lexical = check(where.lexical.generic_string()); !lexical) return {std::move(lexical), false};
  if (where.relative == where.lexical) return {access::verdict{}, false};
  return {check(where.relative.generic_string()), true};
}

}  // namespace parley::tools
