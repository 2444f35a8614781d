// Dominds' team_mgmt file-system and search tools: its workspace tools (mk_dir, move_file,
// move_dir, rm_file, rm_dir, ripgrep_*) run with `.minds/` as their workspace, their answers as
// those tools give them (Dominds' team_mgmt tools return their inner tool's answer too). A change
// is first made on a copy of `.minds/`; when the copy no longer loads as a team, the change is
// refused with the loader's error and the real `.minds/` is untouched.
#include <boost/json/object.hpp>

#include "parley/tools/dominds_tool_support.hpp"
#include "parley/tools/team_mgmt_support.hpp"

namespace parley::tools::team_mgmt_detail {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

// The path arguments of the wrapped tools, which Dominds takes relative to `.minds/` or to the
// workspace ('.minds/team/a' and 'team/a' name the same folder).
constexpr std::string_view kMindsPathFields[] = {"path", "from", "to"};

json::object minds_arguments(const json::object& args) {
  json::object out = args;
  for (const auto field : kMindsPathFields) {
    auto* value = out.if_contains(field);
    if (value != nullptr && value->is_string()) *value = minds_relative(std::string_view(value->get_string()));
  }
  return out;
}

// The memory files are not part of the team the loader reads, and are left out of the copy.
bool only_memory(const json::object& args) {
  bool any = false;
  for (const auto field : kMindsPathFields) {
    const auto* value = args.if_contains(field);
    if (value == nullptr || !value->is_string()) continue;
    any = true;
    const std::string_view path = value->get_string();
    if (path != "memory" && !path.starts_with("memory/")) return false;
  }
  return any;
}

class minds_tool final : public tool {
 public:
  minds_tool(std::string_view name, std::unique_ptr<tool> inner, bool checked)
      : spec_(dominds_detail::dominds_spec_or_note(name)), inner_(std::move(inner)), checked_(checked) {}

  const tool_spec& spec() const override { return spec_; }
  bool has_effects() const override { return inner_->has_effects(); }

  boost::asio::awaitable<tool_outcome> invoke(const json::object& args, const tool_context& ctx) override {
    const json::object inner_args = minds_arguments(args);
    const fs::path minds = ctx.workspace / ".minds";
    std::error_code ec;
    if (!fs::is_directory(minds, ec)) co_return tool_outcome{false, "Error: the workspace has no .minds/ folder"};
    if (checked_ && !only_memory(inner_args)) {
      auto copy = minds_copy::of(ctx.workspace);
      if (!copy) co_return tool_outcome{false, "Error: " + copy.err().message};
      const tool_context trial_ctx = minds_rooted(ctx, copy->workspace() / ".minds");
      auto trial = co_await inner_->invoke(inner_args, trial_ctx);
      if (!trial.ok) co_return trial;  // the same call fails on the real folder: nothing is changed
      if (auto loads = copy->loads(ctx.workspace); !loads) {
        co_return dominds_detail::yaml_error(inner_->spec().name, "", "TEAM_WOULD_NOT_LOAD", loads.err().message);
      }
    }
    const tool_context real_ctx = minds_rooted(ctx, minds);
    co_return co_await inner_->invoke(inner_args, real_ctx);
  }

 private:
  tool_spec spec_;
  std::unique_ptr<tool> inner_;
  bool checked_;
};

}  // namespace

void register_minds_fs_tools(tool_registry& registry) {
  tool_registry workspace_tools;
  dominds_detail::register_workspace_fs_tools(workspace_tools);
  dominds_detail::register_search_tools(workspace_tools);
  // An empty folder changes nothing the loader reads.
  registry.add(std::make_unique<minds_tool>("team_mgmt_mk_dir", workspace_tools.release("mk_dir"), false));
  for (const char* name : {"move_file", "move_dir", "rm_file", "rm_dir"}) {
    registry.add(std::make_unique<minds_tool>("team_mgmt_" + std::string(name), workspace_tools.release(name), true));
  }
  registry.add(std::make_unique<minds_tool>("team_mgmt_read_symlink", workspace_tools.release("read_symlink"), false));
  for (const char* name : {"create_symlink", "rm_symlink"}) {
    registry.add(std::make_unique<minds_tool>("team_mgmt_" + std::string(name), workspace_tools.release(name), true));
  }
  for (const char* name : {"ripgrep_files", "ripgrep_snippets", "ripgrep_count", "ripgrep_fixed", "ripgrep_search"}) {
    registry.add(std::make_unique<minds_tool>("team_mgmt_" + std::string(name), workspace_tools.release(name), false));
  }
}

}  // namespace parley::tools::team_mgmt_detail
