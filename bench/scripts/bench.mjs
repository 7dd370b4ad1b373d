// `npm run bench` from the repository root: installs the bench's own dependencies when they are missing or
// stale, builds the library, prepares the bench and runs it. Arguments pass through:
//   npm run bench -- --quick            a smoke run (about a minute on an idle machine)
//   npm run bench -- --only toolnexus-ai-sdk,floor-do-generate --skip-scale
//   npm run bench -- --skip-durable      without the durable-run figures (bench/durable-overhead.ts)
//   npm run bench -- --skip-loop-overhead without the in-process loop figures (bench/loop-overhead.ts)
//   npm run bench -- --skip-mcp-connect  without the MCP connection figures (bench/mcp-connect-cost.ts)
// BENCH_SKIP_LIBRARY_BUILD=1 reuses the library's current dist/.

import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const libraryDir = join(benchDir, '..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

const installed = join(benchDir, 'node_modules', '.package-lock.json')
const lockfile = join(benchDir, 'package-lock.json')
if (!existsSync(installed) || statSync(lockfile).mtimeMs > statSync(installed).mtimeMs) {
  process.stderr.write(
    '[bench] installing the bench dependencies (peers live in bench/, not in the library)\n',
  )
  run(npm, ['ci', '--no-audit', '--no-fund'], benchDir)
}
if (process.env.BENCH_SKIP_LIBRARY_BUILD !== '1') {
  process.stderr.write('[bench] building the library\n')
  run(npm, ['run', 'build', '--silent'], libraryDir)
}
run(process.execPath, [join(benchDir, 'scripts', 'build.mjs')], benchDir)
const given = process.argv.slice(2)
const skipDurable = given.includes('--skip-durable')
const skipLoopOverhead = given.includes('--skip-loop-overhead')
const skipMcpConnect = given.includes('--skip-mcp-connect')
const own = new Set(['--skip-durable', '--skip-loop-overhead', '--skip-mcp-connect'])
run(
  process.execPath,
  [join(benchDir, 'dist', 'run-bench.js'), ...given.filter((arg) => !own.has(arg))],
  benchDir,
)
// The loop against the bare doGenerate loop in one process, taking turns: one run after another, 100 runs
// at once (with each loop's share of time in garbage collection), and the bytes each run allocates. Over
// the library as built, the real @ai-sdk/openai provider and an in-memory fetch.
if (!skipLoopOverhead) {
  const quick = given.includes('--quick') ? ['--rounds', '6'] : []
  run(
    process.execPath,
    ['--import', 'tsx', join(benchDir, 'loop-overhead.ts'), '--library', join(libraryDir, 'dist'), ...quick],
    libraryDir,
  )
}
// What an MCP connection costs through a toolkit against the v2 SDK's own clients, side by side in one
// process: connecting 10 and 20 stdio servers, one tools/call, and tools/list inside ttlMs (must be 0).
if (!skipMcpConnect) {
  const quick = given.includes('--quick') ? ['--rounds', '3', '--calls', '200'] : []
  run(process.execPath, ['--import', 'tsx', join(benchDir, 'mcp-connect-cost.ts'), ...quick], libraryDir)
}
// The durable-run figures (per-step cost on a local Postgres, kill → finish): Postgres binaries needed.
if (!skipDurable) {
  const quick = given.includes('--quick') ? ['--rounds', '40', '--kills', '1'] : []
  run(process.execPath, ['--import', 'tsx', join(benchDir, 'durable-overhead.ts'), ...quick], libraryDir)
}
