#!/usr/bin/env bash
# Runs the test suite against `ai` 6 and the @3 providers, in a copy of the project, so both AI SDK
# majors are proven on every CI run. Usage: scripts/test-ai6.sh [vitest args…]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
copy="${AI6_DIR:-${TMPDIR:-/tmp}/toolnexus-ai6}"
mkdir -p "$copy"
# Keep the copy's node_modules between runs; refresh everything else (a file moved or deleted here since
# the last run must not stay behind in the copy).
find "$copy" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./examples/next-chat --exclude=./bench/node_modules --exclude=./bench/results \
  --exclude=./.git -cf - . | tar -C "$copy" -xf -
cd "$copy"
if [ ! -f node_modules/.ai6-installed ] || [ package.json -nt node_modules/.ai6-installed ]; then
  npm install --no-audit --no-fund --no-save \
    ai@6 @ai-sdk/provider@3 @ai-sdk/provider-utils@4 @ai-sdk/openai@3 @ai-sdk/anthropic@3 @ai-sdk/google@3
  touch node_modules/.ai6-installed
fi
node -e "console.log('ai', require('ai/package.json').version, '@ai-sdk/openai', require('@ai-sdk/openai/package.json').version)"
npx vitest run "$@"
