#!/usr/bin/env bash
# The server scenarios of the MCP conformance suite that apply to a toolkit served over MCP, run against
# createMcpHandler (test/mcp-server/conformance-server.ts) on a loopback port: the 0.1.16 line's 2025
# scenarios one by one, then the 0.2 line (@modelcontextprotocol/conformance-next) with the 2026-07-28
# requirement set, whose scenarios that do not apply are test/conformance/server-2026-baseline.yml. The
# suite's CLI needs Node 22 (scripts/node22.sh). docs/mcp-server.md lists every scenario and why the
# others do not apply.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
node22="$(bash scripts/node22.sh)"
scenarios=(
  server-initialize ping logging-set-level completion-complete tools-list tools-call-simple-text
  tools-call-image tools-call-audio tools-call-embedded-resource tools-call-mixed-content
  tools-call-with-logging tools-call-error tools-call-with-progress json-schema-2020-12
  server-sse-multiple-streams resources-list resources-read-text resources-read-binary
  resources-templates-read prompts-list prompts-get-simple prompts-get-with-args
  prompts-get-embedded-resource prompts-get-with-image dns-rebinding-protection tools-call-sampling
  tools-call-elicitation elicitation-sep1034-defaults elicitation-sep1330-enums resources-subscribe
  resources-unsubscribe server-sse-polling
)
work="$(mktemp -d)"
node --import tsx test/mcp-server/conformance-server.ts >"$work/url" 2>"$work/server.log" &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 1 100); do
  [ -s "$work/url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/server.log"; exit 1; }
  sleep 0.2
done
url="$(head -n 1 "$work/url")"
[ -n "$url" ] || { echo "the conformance server printed no URL" >&2; cat "$work/server.log"; exit 1; }
failed=0
for scenario in "${scenarios[@]}"; do
  # Results go to the work folder, not the repository.
  if ! (cd "$work" && "$node22" "$root/node_modules/@modelcontextprotocol/conformance/dist/index.js" server \
    --url "$url" --scenario "$scenario" >"$work/$scenario.txt" 2>&1); then
    failed=1
    cat "$work/$scenario.txt"
  fi
  printf "%-30s %s\n" "$scenario" "$(grep -E "^Passed:" "$work/$scenario.txt" || echo "no result")"
done

echo "== 0.2 line, --requirements 2026-07-28"
# Exits non-zero on a failure outside the baseline, and on a baselined scenario that passes.
if ! (cd "$work" && "$node22" "$root/node_modules/@modelcontextprotocol/conformance-next/dist/index.js" server \
  --url "$url" --requirements 2026-07-28 \
  --expected-failures "$root/test/conformance/server-2026-baseline.yml" >"$work/2026.txt" 2>&1); then
  failed=1
  grep -vE '^\S+Z\S* \[' "$work/2026.txt" | tail -40
fi
grep -E '^[✓✗] ' "$work/2026.txt" || true
grep -E '^Total:' "$work/2026.txt" || true
exit "$failed"
