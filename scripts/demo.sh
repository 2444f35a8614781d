#!/usr/bin/env bash
# The main job: set up, build, and serve the demo team: the web UI, REST API and WebSocket on
# http://127.0.0.1:7878/ (extra arguments go to `parley serve`, e.g. --port 0 or --host 0.0.0.0).
# Uses a real model when OPENAI_API_KEY / OPENAI_BASE_URL (or ANTHROPIC_API_KEY) is set, the
# offline scripted model otherwise. Ctrl-C stops the server gracefully.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# The server alone: the tests and benchmarks are scripts/test.sh's to build.
scripts/build.sh release --target parley
exec build/release/apps/parley/parley serve --team examples/demo/team.yaml --data .parley "$@"
