// Puts a ToT run's progress (tot/run_progress.hpp) on the PubChan as tot_progress_evt, on the
// run's root: the subscribers of that root — who may see it — learn of each thought as the
// search makes, values or prunes it, and of the run's end.
#pragma once

#include "parley/server/pubchan.hpp"
#include "parley/tot/run_progress.hpp"

namespace parley::server {

class tot_progress_relay final : public tot::run_listener {
 public:
  explicit tot_progress_relay(pubchan& channels) : channels_(channels) {}
  void on_progress(const tot::run_progress& progress) override;

 private:
  pubchan& channels_;
};

}  // namespace parley::server
