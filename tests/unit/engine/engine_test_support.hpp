// Helpers for engine tests: a team written to a temp folder, and running coroutines to the end.
#pragma once

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "parley/config/team.hpp"
#include "parley/store/store.hpp"

namespace parley::engine::testing {

class temp_team {
 public:
  temp_team(const std::string& team_yaml, const std::string& script_yaml) {
    std::random_device device;
    dir_ = std::filesystem::temp_directory_path() / ("parley-engine-" + std::to_string(device()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "team.yaml") << team_yaml;
    std::ofstream(dir_ / "script.yaml") << script_yaml;
  }
  ~temp_team() { std::filesystem::remove_all(dir_); }
  temp_team(const temp_team&) = delete;
  temp_team& operator=(const temp_team&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  config::team_config load() const { return config::load_team_file(dir_ / "team.yaml").value(); }

 private:
  std::filesystem::path dir_;
};

inline const char* kOneMemberTeam =
    "version: 1\nproviders:\n  offline: {kind: scripted, script: script.yaml}\n"
    "members:\n  lead: {persona: \"You lead.\", provider: offline, model: m, toolsets: [basic]}\n";

// A store that hands everything to a memory store: a test overrides what it watches or changes
// (which batches it records, which appends it refuses).
class forwarding_store : public store {
 public:
  void append(std::vector<event> batch, append_callback on_durable) override {
    inner_->append(std::move(batch), std::move(on_durable));
  }
  void flush() override { inner_->flush(); }
  result<std::vector<event>> read_events(std::string_view id, std::int64_t after) override {
    return inner_->read_events(id, after);
  }
  result<std::vector<event>> read_all_events() override { return inner_->read_all_events(); }
  result<std::vector<dialog_row>> list_dialogs(const dialog_filter& filter) override {
    return inner_->list_dialogs(filter);
  }
  result<std::optional<dialog_row>> get_dialog(std::string_view id) override { return inner_->get_dialog(id); }
  result<std::vector<message_row>> messages(std::string_view id, std::int64_t course) override {
    return inner_->messages(id, course);
  }
  result<std::optional<input_record>> find_input(std::string_view msg_id) override {
    return inner_->find_input(msg_id);
  }
  result<void> rebuild_projections() override { return inner_->rebuild_projections(); }
  store_stats stats() const override { return inner_->stats(); }

 private:
  std::unique_ptr<store> inner_ = make_memory_store();
};

}  // namespace parley::engine::testing
