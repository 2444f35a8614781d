// The engines of an eval run: one per distinct team (a team file or a folder with `.minds/`),
// loaded when a case first names it and kept for the run; a team that fails to load is remembered
// with its error, so each of its cases reports it without loading it again. Also runs one attempt
// of a case (attempt.cpp) and a judge's verdict.
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parley/core/result.hpp"
#include "parley/engine/engine.hpp"
#include "parley/eval/runner.hpp"

namespace parley::eval {

class team_engines {
 public:
  team_engines(boost::asio::any_io_executor executor, store& log, std::vector<std::filesystem::path> protected_dirs,
               std::string owner)
      : executor_(std::move(executor)),
        log_(log),
        protected_dirs_(std::move(protected_dirs)),
        owner_(std::move(owner)) {}
  // The engine of `team` (loaded on first use), or the error that kept it from loading.
  result<engine::engine*> engine_of(const std::filesystem::path& team);
  // Ends every engine's MCP servers (their processes would keep the loop running).
  void stop();
  // The run's owner (eval_run::owner): the human of every root the run makes, "" for none.
  const std::string& owner() const noexcept { return owner_; }

 private:
  struct loaded {
    std::unique_ptr<engine::engine> engine;
    std::string error;
  };
  boost::asio::any_io_executor executor_;
  store& log_;
  std::vector<std::filesystem::path> protected_dirs_;
  std::string owner_;
  std::map<std::string, loaded> engines_;
};

// A root tree of `eng`'s team given `message`, driven until it settles, its questions answered
// from `answers` (the first unused whose `question` text the question contains); its id, or why it
// could not be made. `problem`: why it could not be run to the end (a question no answer fits).
// `owner`: the root's human ("" for none), so that its owner sees the tree as the run.
struct root_spec {
  std::string member;
  std::string title;
  std::string message;
  std::string owner;
};
boost::asio::awaitable<result<std::string>> run_root(engine::engine& eng, store& log, root_spec spec,
                                                     const std::vector<scripted_answer>& answers, std::string& problem);

// One attempt of `one`: its tree, then its checks (judges run their own trees).
boost::asio::awaitable<case_attempt> run_attempt(team_engines& engines, store& log, const eval_case& one, int attempt);

}  // namespace parley::eval
