#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against test/conformance/client.mts (a client
# over the toolkit). The suite's CLI needs Node 22: scripts/node22.sh provides one from the npm registry.
# Scenarios that do not apply to this client are listed in SKIPPED, with the reason, and not run.
# Usage: scripts/mcp-client-conformance.sh [scenario…]   (default: every client scenario the suite lists)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
node22="$(bash scripts/node22.sh)"
# The suite is a devDependency; its CLI runs on Node 22.
cli="$root/node_modules/@modelcontextprotocol/conformance/dist/index.js"
conformance() { PATH="$(dirname "$node22"):$PATH" "$node22" "$cli" "$@"; }

# Enterprise flows outside what an mcp.json entry configures.
declare -A SKIPPED=(
  [auth/2025-03-26-oauth-metadata-backcompat]="its authorization server's metadata names another issuer than the URL it is found at, which the issuer check refuses (a metadata document must name its own issuer)"
  [auth/cross-app-access-complete-flow]="enterprise-managed authorization (an IdP ID token exchanged for an ID-JAG grant): not an mcp.json auth grant"
)

if [ "$#" -gt 0 ]; then
  scenarios=("$@")
else
  mapfile -t scenarios < <(conformance list --client | sed -n 's/^ *- \([^ ]*\).*/\1/p')
fi
client="node --import tsx $root/test/conformance/client.mts"
failed=()
for scenario in "${scenarios[@]}"; do
  if [ -n "${SKIPPED[$scenario]:-}" ]; then
    printf '%-45s skipped: %s\n' "$scenario" "${SKIPPED[$scenario]}"
    continue
  fi
  if output="$(conformance client --command "$client" --scenario "$scenario" --timeout 60000 2>&1)" \
    && grep -q 'OVERALL: PASSED' <<<"$output"; then
    printf '%-45s passed %s\n' "$scenario" "$(grep -o 'Passed: [0-9]*/[0-9]*' <<<"$output" | head -1)"
  else
    printf '%-45s FAILED\n' "$scenario"
    grep -E 'FAILURE|Failed Checks|^  - ' <<<"$output" | head -20 || true
    failed+=("$scenario")
  fi
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "conformance: ${#failed[@]} scenario(s) failed: ${failed[*]}" >&2
  exit 1
fi
echo "conformance: every applicable client scenario passed"
