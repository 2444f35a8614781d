// A model channel that writes each agent call to the run's folder as seed 003 lays it out: one
// JSON-Lines file per agent and round (`04-generator-round1.log` holds every generator call of the
// explorer's first round; the decomposer and synthesizer, called once, have no round), rewritten
// whole as each call ends so a crash leaves every finished call readable; and, for a resumed run, answers calls the log
// already holds from the log instead of the model: the search is deterministic given its replies, so it retraces the
// logged part of the tree without model calls and goes on live where the log stops.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parley/tot/model_channel.hpp"
#include "parley/tot/run_log.hpp"

namespace parley::tot {

// role + request → the replies the run's folder holds for it, in the order they were asked. Calls
// that were themselves answered from the log (a resumed run's copies) are left out, so a run
// resumed twice replays each reply once.
using recorded_replies = std::map<std::string, std::vector<std::string>>;
result<recorded_replies> read_recorded_replies(const run_folder& folder);
std::string replay_key(std::string_view role, std::string_view request);

class logged_channel final : public model_channel {
 public:
  logged_channel(model_channel& inner, run_folder& folder, std::string language = "en");
  // Loads the replies of the folder's call files (for --resume).
  result<void> load_replays();
  boost::asio::awaitable<result<std::string>> ask(agent_call& call) override;
  const call_meter& meter() const override { return inner_.meter(); }
  std::int64_t replayed() const noexcept { return replayed_; }
  // The explorer begins a round: the generator's and evaluator's next calls open new round files.
  void start_round();

 private:
  struct open_file {
    std::string name;
    log_buffer buffer;
  };
  model_channel& inner_;
  run_folder& folder_;
  recorded_replies replays_;
  std::map<agent_role, std::shared_ptr<open_file>> open_;  // the file each role writes in the current round
  std::int64_t replayed_ = 0;
  std::string language_;
};

}  // namespace parley::tot
