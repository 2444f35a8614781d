// Puts a flow's work on the PubChan (docs/server.md "Flows"), on the flow's dialog: a
// `flow_thread_evt` each time its thread changes (fetch it again: GET /api/dialogs/{id}/thread)
// and while a step is under way, and a `flow_chunk_evt` for each piece of the bot's reply in the
// main thread as the model streams it (seed 004 §6.1). Subscribers of the dialog — who may see it
// — get them, numbered and replayed like every dialog event.
#pragma once

#include "parley/server/flow_host.hpp"
#include "parley/server/pubchan.hpp"

namespace parley::server {

class flow_progress_relay final : public flow_observer {
 public:
  explicit flow_progress_relay(pubchan& channels) : channels_(channels) {}
  void on_thread_changed(std::string_view dialog_id, bool working) override;
  void on_saying_chunk(std::string_view dialog_id, std::string_view text) override;

 private:
  pubchan& channels_;
};

}  // namespace parley::server
