#!/usr/bin/env bash
# The main job: install, build, compile every example, then run the example
# programs on the GPU if one is present, else in the CPU interpreter.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/run-examples.sh
