// The model channel through Parley's engine: each agent call is a subdialog of the ToT run's root,
// held by the team member `tot-<role>` (its persona is the role's), so the log and the web UI show
// every call under the run. A correction of the same call is posted to the same subdialog, so the
// member sees its reply and the parse error. Each call is bounded in time: when it is up the
// generation is stopped (drive_control::stop) and the call fails with errc::limit_exceeded.
#pragma once

#include <chrono>
#include <string>

#include "parley/engine/engine.hpp"
#include "parley/tot/model_channel.hpp"

namespace parley::tot {

// The member id of a role: "tot-generator" ...
std::string member_id_of(agent_role role);

class engine_channel final : public model_channel {
 public:
  engine_channel(engine::engine& engine, std::string root_id,
                 std::chrono::milliseconds timeout = std::chrono::seconds(120));
  boost::asio::awaitable<result<std::string>> ask(agent_call& call) override;
  const call_meter& meter() const override { return meter_; }

 private:
  engine::engine& engine_;
  std::string root_id_;
  std::chrono::milliseconds timeout_;
  call_meter meter_;
};

}  // namespace parley::tot
