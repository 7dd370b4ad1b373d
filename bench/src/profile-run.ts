// Profiles one implementation: starts the scripted endpoint, runs the scenario many times in this process,
// and exits. Run it under `node --cpu-prof` (see `npm run profile` in bench/package.json), then read the
// profile with `node dist/harness/summarize-profile.js <file>`.
//
//   node --cpu-prof --cpu-prof-dir results/profiles dist/profile-run.js <implementation> <native|mcp> [runs]

import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { startChild } from './harness/child.js'
import { median } from './harness/stats.js'
import { implementationById } from './impls/registry.js'
import type { CreateImplementation, ToolVariant } from './impls/types.js'
import { EXPECTED_ANSWER } from './scenario.js'

const distDir = dirname(fileURLToPath(import.meta.url))
const [id = 'toolnexus-ai-sdk', variantArgument = 'native', runsArgument = '2000'] = process.argv.slice(2)
const variant: ToolVariant = variantArgument === 'mcp' ? 'mcp' : 'native'
implementationById(id)

const logsDir = join(distDir, '..', 'results', 'logs')
mkdirSync(logsDir, { recursive: true })
const endpoint = startChild<{ type: string; port?: number }>(join(distDir, 'endpoint/scripted-endpoint.js'), {
  args: [],
  logFile: join(logsDir, 'profile-endpoint.log'),
})
const listening = await endpoint.first(10_000)
const origin = `http://127.0.0.1:${listening.port}`
const module = (await import(`./impls/${id}.js`)) as { create: CreateImplementation }
const instance = await module.create({
  variant,
  openaiBaseUrl: `${origin}/v1`,
  geminiBaseUrl: origin,
  mcpServer: { command: process.execPath, args: [join(distDir, 'mcp/bench-mcp-server.js')] },
})
const durations: number[] = []
const cpuStart = process.cpuUsage()
for (let index = 0; index < Number(runsArgument); index++) {
  const start = performance.now()
  const text = await instance.run()
  durations.push(performance.now() - start)
  if (text !== EXPECTED_ANSWER) throw new Error(`wrong answer: ${text}`)
}
const cpu = process.cpuUsage(cpuStart)
process.stdout.write(
  `${id} ${variant}: ${durations.length} runs, p50 ${median(durations).toFixed(2)} ms, CPU ${((cpu.user + cpu.system) / 1000 / durations.length).toFixed(2)} ms/run\n`,
)
await instance.close()
await endpoint.stop(2_000)
process.exit(0)
