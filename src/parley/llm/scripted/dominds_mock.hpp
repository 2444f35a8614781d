// Dominds' `apiType: mock` read as the scripted model (docs/team-yaml.md, "Dominds' mock
// provider"): the provider's baseUrl is a folder, and a member's model M answers from
// `<folder>/M.yaml`, Dominds' mock database ({responses: [{message, role, response, ...}]}),
// translated into scripted rules when first used and again whenever the file changes.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "parley/core/guarded.hpp"
#include "parley/core/result.hpp"
#include "parley/llm/provider.hpp"

namespace parley::llm {

struct scripted_script;

// The rules of a mock database: one per entry with a role, later entries first (Dominds takes the
// last of equal entries), then a catch-all that says no entry matched, as Dominds' mock does.
// `source_name` names the file in errors and in the catch-all's text.
result<std::shared_ptr<const scripted_script>> parse_dominds_mock(std::string_view yaml_text,
                                                                  std::string_view source_name);

class dominds_mock_provider final : public provider {
 public:
  explicit dominds_mock_provider(std::filesystem::path folder) : folder_(std::move(folder)) {}

  boost::asio::awaitable<result<model_response>> stream(const model_request& request, stream_sink& sink,
                                                        generation_control& control) override;
  std::string_view kind() const override { return "mock"; }

 private:
  struct loaded {
    std::filesystem::file_time_type written;
    std::shared_ptr<const scripted_script> script;
  };
  result<std::shared_ptr<const scripted_script>> script_for(std::string_view model);

  std::filesystem::path folder_;
  parley::mutex mutex_;
  std::map<std::string, loaded, std::less<>> scripts_ PARLEY_GUARDED_BY(mutex_);
};

}  // namespace parley::llm
