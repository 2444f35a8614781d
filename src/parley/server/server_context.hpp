// What every request handler and WebSocket session shares. Everything here lives on the one
// executor that runs the engine; handlers never block it: a read of the store that may wait for a
// commit runs on the read thread (store_reads.hpp).
#pragma once

#include <filesystem>
#include <string>

#include "parley/engine/engine.hpp"
#include "parley/server/server_options.hpp"
#include "parley/server/users.hpp"
#include "parley/store/store.hpp"

namespace parley::tot {
class run_board;
}

namespace parley::engine {
class message_analyst;
class store_reads;
}  // namespace parley::engine

namespace parley::server {

class tree_inputs;

class flow_host;
class metrics_observer;
class otlp_exporter;
class answer_relay;
class mcp_endpoint;
class pubchan;
class upload_store;
using store_reads = engine::store_reads;

struct server_context {
  engine::engine& engine;
  store& log;
  const server_options& options;
  pubchan& channels;
  const user_directory& users;
  bool scripted_offline = false;  // some member talks to the built-in scripted model
  std::string version;
  upload_store* uploads = nullptr;     // media of seed 002's image and audio messages; null: none
  tot::run_board* tot_runs = nullptr;  // POST /api/tot's runs (docs/tot.md); null: the routes answer 404
  flow_host* flows = nullptr;          // members of kind flow (seed 004); null: the team has none
  store_reads* reads = nullptr;        // the store's read thread; null: reads run on the loop
  // Seed 002's message analysis and embeddings (team.yaml `records`); null: not configured.
  engine::message_analyst* analyst = nullptr;
  metrics_observer* metrics = nullptr;  // GET /metrics' model and tool figures; null: left out
  otlp_exporter* traces = nullptr;      // spans sent to a collector; null: no traces
  // What the answers of the OpenAI-compatible endpoint and of the MCP server follow
  // (answer_relay.hpp); null: /v1/ and /mcp answer 503.
  answer_relay* answers = nullptr;
  // The sessions of the MCP endpoint at /mcp (`parley serve --mcp`, mcp_http.hpp); null: /mcp
  // answers 404.
  mcp_endpoint* mcp = nullptr;
  // Where a user's message or answer goes in a store several nodes share (tree_inputs.hpp); null:
  // straight to the engine.
  tree_inputs* inputs = nullptr;
  // The data directory, where `parley eval` keeps its runs (GET /api/eval/runs); empty: those
  // routes answer 404.
  std::filesystem::path data_dir;
};

}  // namespace parley::server
