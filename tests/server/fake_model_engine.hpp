// An engine on the in-memory store whose members (by default one, `lead`) talk to an
// OpenAI-compatible fake model server: for tests of what the engine makes of a real provider's
// answers, and of what it sends (the server records every request).
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>

#include "parley/config/team.hpp"
#include "parley/engine/assembly.hpp"
#include "parley/engine/engine.hpp"
#include "parley/store/store.hpp"

namespace parley::testing {

struct fake_model_engine {
  boost::asio::io_context io{1};
  std::unique_ptr<store> log = make_memory_store();
  std::unique_ptr<engine::engine> engine;  // null when the set-up failed (a test failure says why)

  static constexpr const char* kLeadOnly = "  lead: {name: Lead, persona: You lead., provider: fake, model: m}\n";

  // `base_url`: the fake server's, without /v1. `members`: the entries of team.yaml's `members`
  // mapping, each with `provider: fake`.
  explicit fake_model_engine(const std::string& base_url, const std::string& members = kLeadOnly) {
    start(base_url, members);
  }

 private:
  void start(const std::string& base_url, const std::string& members) {
    std::random_device device;
    const auto dir = std::filesystem::temp_directory_path() / ("parley-fake-model-" + std::to_string(device()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "team.yaml") << "version: 1\nproviders:\n  fake: {kind: openai, base_url: \"" << base_url
                                     << "/v1\", api_key_env: PARLEY_TEST_NO_KEY}\nmembers:\n"
                                     << members;
    auto team = config::load_team_file(dir / "team.yaml");
    std::filesystem::remove_all(dir);
    ASSERT_TRUE(team) << team.err().message;
    auto providers = engine::build_providers(*team);
    ASSERT_TRUE(providers) << providers.err().message;
    auto created =
        engine::engine::create(io.get_executor(), *log, *team, std::move(*providers), engine::build_builtin_tools());
    ASSERT_TRUE(created) << created.err().message;
    engine = std::move(*created);
  }
};

}  // namespace parley::testing
