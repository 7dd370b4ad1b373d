#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against test/conformance/client.mts (a client
# over the toolkit). The suite's CLI needs Node 22: scripts/node22.sh provides one from the npm registry.
# Scenarios that do not apply to this client are listed in SKIPPED, with the reason, and not run. Then the
# 0.2 line (@modelcontextprotocol/conformance-next) runs with the 2026-07-28 requirement set; its scenarios
# that do not pass yet are test/conformance/client-2026-baseline.yml.
# Usage: scripts/mcp-client-conformance.sh [scenario…]   (default: every client scenario the suite lists)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
node22="$(bash scripts/node22.sh)"
# The suite is a devDependency; its CLI runs on Node 22.
cli="$root/node_modules/@modelcontextprotocol/conformance/dist/index.js"
conformance() { PATH="$(dirname "$node22"):$PATH" "$node22" "$cli" "$@"; }

# Scenarios this client refuses by rule, with the reason.
declare -A SKIPPED=(
  [auth/2025-03-26-oauth-metadata-backcompat]="its authorization server's metadata names another issuer than the URL it is found at, which the issuer check refuses (a metadata document must name its own issuer)"
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

# Only when the whole suite ran (no scenarios named on the command line).
if [ "$#" -eq 0 ]; then
  echo "== 0.2 line, --requirements 2026-07-28"
  next="$root/node_modules/@modelcontextprotocol/conformance-next/dist/index.js"
  # Exits non-zero on a failure outside the baseline, and on a baselined scenario that passes.
  if ! PATH="$(dirname "$node22"):$PATH" "$node22" "$next" client --command "$client" \
    --requirements 2026-07-28 --timeout 120000 \
    --expected-failures "$root/test/conformance/client-2026-baseline.yml" >"${TMPDIR:-/tmp}/client-2026.txt" 2>&1; then
    grep -E '^(✓|✗) |^Total' "${TMPDIR:-/tmp}/client-2026.txt" || tail -40 "${TMPDIR:-/tmp}/client-2026.txt"
    echo "conformance (2026-07-28): a scenario outside the baseline failed, or a baselined one passed" >&2
    exit 1
  fi
  grep -E '^Total' "${TMPDIR:-/tmp}/client-2026.txt" || true
  echo "conformance (2026-07-28): every scenario outside the baseline passed"
fi
