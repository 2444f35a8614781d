#include "fanout3_team.hpp"

#include <boost/json/parse.hpp>

#include <fstream>

#include "fanout3_common.hpp"
#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/tools/function_tool.hpp"

namespace parley::bench::fanout3 {

namespace fs = std::filesystem;

// Each member gets only what the workload uses unless `all_dialog_tools`, as the peers' agents do:
// the lead tellaskSessionless, the worker none.
void write_team(const fs::path& dir, const std::string& mock, bool stream, bool all_dialog_tools) {
  fs::create_directories(dir / "workspace");
  const char* streaming = stream ? "true" : "false";
  std::ofstream team(dir / "team.yaml");
  team << "version: 1\nworkspace: workspace\nproviders:\n"
       << "  mock: {kind: openai, base_url: \"" << mock << "/v1\", api_key_env: " << kKeyVariable << "}\n"
       << "members:\n"
       << "  lead:\n    persona: \"" << kLeadPrompt << "\"\n"
       << "    provider: mock\n    model: mock\n    streaming: " << streaming << "\n"
       << (all_dialog_tools ? "" : "    dialog_tools: [tellaskSessionless]\n");
  team << "  worker:\n    persona: \"" << kWorkerPrompt << "\"\n"
       << "    provider: mock\n    model: mock\n    tools: [lookup]\n    streaming: " << streaming << "\n"
       << (all_dialog_tools ? "" : "    dialog_tools: []\n");
}

tools::tool_registry tools_with_lookup() {
  auto registry = engine::build_builtin_tools();
  llm::tool_spec spec{"lookup", "Look up the value stored under a key.",
                      boost::json::parse(R"({"type":"object","properties":{"key":{"type":"string"}},)"
                                         R"("required":["key"],"additionalProperties":false})")
                          .as_object()};
  registry.add(std::make_unique<tools::function_tool>(
      std::move(spec),
      [](const boost::json::object& args, const tools::tool_context&) {
        const auto* key = args.if_contains("key");
        if (key == nullptr || !key->is_string()) return tools::tool_outcome{false, "lookup needs a string key"};
        return tools::tool_outcome{true, lookup_value(std::string(key->as_string()))};
      },
      tools::function_tool::effects::none));
  return registry;
}

boost::asio::awaitable<result<std::string>> run_task(engine::engine& eng, std::string task_id) {
  engine::new_dialog spec{"lead", "", ""};
  spec.first_message = task_input(task_id);
  auto root = co_await eng.create_root_dialog(std::move(spec));
  if (!root) co_return std::move(root).err();
  co_await eng.runs().wait_until_settled(*root);
  const auto* dialog = eng.find(*root);
  if (dialog == nullptr) co_return make_error(errc::not_found, "root dialog " + *root + " is gone");
  if (!dialog->row().last_error.empty()) co_return make_error(errc::provider_error, dialog->row().last_error);
  if (dialog->messages().empty() || dialog->messages().back().role != events::message_role::assistant)
    co_return make_error(errc::internal, "root dialog " + *root + " ended without an answer");
  co_return dialog->messages().back().content;
}

result<std::unique_ptr<store>> open_store(const fs::path& dir, const std::string& sync,
                                          std::chrono::milliseconds projection_lag) {
  if (sync == "memory") return make_memory_store();
  sqlite_options storage;
  storage.durable = sync == "full";
  storage.projection_lag = projection_lag;
  return open_sqlite_store((dir / "data").string(), storage);
}

}  // namespace parley::bench::fanout3
