#!/usr/bin/env bash
# The main job: set up, build, and talk to the demo team. Uses a real model when
# OPENAI_API_KEY / OPENAI_BASE_URL (or ANTHROPIC_API_KEY) is set, the offline scripted model otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
message="${*:-What is in the project notes, and how long would 3 sprints of 12 days be in hours?}"
exec build/release/apps/parley/parley run --team examples/demo/team.yaml --data .parley "$message"
