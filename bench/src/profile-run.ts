// Profiles one implementation: starts the scripted endpoint, runs the scenario many times in this process,
// and exits. Run it under `node --cpu-prof` (see `npm run profile` in bench/package.json), then read the
// profile with `node dist/harness/summarize-profile.js <file>`.
//
//   node --cpu-prof --cpu-prof-dir results/profiles dist/profile-run.js <implementation> <native|mcp> [runs]

import { startLocalBench } from './harness/in-process.js'
import { median } from './harness/stats.js'
import { timedRun } from './harness/timed-run.js'
import { implementationById } from './impls/registry.js'

const [id = 'toolnexus-ai-sdk', variantArgument = 'native', runsArgument = '2000'] = process.argv.slice(2)
const variant = variantArgument === 'mcp' ? 'mcp' : 'native'
implementationById(id)

const local = await startLocalBench(variant, 'profile-endpoint')
const instance = await local.load(id)
const durations: number[] = []
const cpuStart = process.cpuUsage()
for (let index = 0; index < Number(runsArgument); index++) durations.push(await timedRun(instance))
const cpu = process.cpuUsage(cpuStart)
process.stdout.write(
  `${id} ${variant}: ${durations.length} runs, p50 ${median(durations).toFixed(2)} ms, CPU ${((cpu.user + cpu.system) / 1000 / durations.length).toFixed(2)} ms/run\n`,
)
await instance.close()
await local.stop()
process.exit(0)
