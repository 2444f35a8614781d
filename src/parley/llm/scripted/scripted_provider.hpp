// The scripted provider: a deterministic model that answers from a YAML script of rules
// (docs/scripted-model.md). It streams through the same sink events and returns the same
// responses as a real provider, so the offline demo, tests and benchmarks exercise the real
// engine paths. The script is immutable once loaded and can be shared by many providers.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>

#include "parley/core/result.hpp"
#include "parley/llm/provider.hpp"

namespace parley::llm {

// Opaque here: it holds compiled regexes, and the engine includes this header.
struct scripted_script;

// Load errors are errc::config_error with text `FILE:LINE:COLUMN: path.to.key: problem`.
result<std::shared_ptr<const scripted_script>> load_scripted_script(const std::filesystem::path& file);
// `source_name` stands in for the file name in error messages.
result<std::shared_ptr<const scripted_script>> parse_scripted_script(std::string_view yaml_text,
                                                                     std::string_view source_name);

class scripted_provider final : public provider {
 public:
  explicit scripted_provider(std::shared_ptr<const scripted_script> script);

  boost::asio::awaitable<result<model_response>> stream(const model_request& request, stream_sink& sink,
                                                        generation_control& control) override;
  std::string_view kind() const override { return "scripted"; }

 private:
  std::shared_ptr<const scripted_script> script_;
};

}  // namespace parley::llm
