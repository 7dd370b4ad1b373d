// Figures for docs/reliability.md, measured on this machine:
//   1. validation time of the ReDoS case (`^(a+)+$` against 'a'×n + '!'): the platform's backtracking
//      RegExp at small n, beside toolnexus's check (linear-time engine) at n = 30 and n = 100,000;
//   2. peak memory (max RSS) of a process whose MCP server answers with 50 MB (over the 10 MB message
//      limit), beside one answered with 1 MB.
// Run: npx tsx scripts/reliability-figures.mts
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const here = fileURLToPath(import.meta.url)
const root = fileURLToPath(new URL('..', import.meta.url))

if (process.argv[2] === '--child') {
  // One MCP call answered with `megabytes` MB; prints this process's max RSS in MB.
  const { createToolkit } = await import('../src/index.js')
  const server = `${root}test/fixtures/reliability/oversized-server.mjs`
  const tk = await createToolkit({
    logger: { warn() {} },
    mcpConfig: { mcpServers: { big: { command: process.execPath, args: [server] } } },
  })
  const before = process.resourceUsage().maxRSS / 1024
  const result = await tk.execute('big_huge', { megabytes: Number(process.argv[3]) })
  const after = process.resourceUsage().maxRSS / 1024
  await tk.close()
  console.log(JSON.stringify({ before, after, isError: result.isError, output: result.output.slice(0, 160) }))
  process.exit(0)
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number
const time = (work: () => unknown, runs = 5): number => {
  const samples: number[] = []
  for (let run = 0; run < runs; run++) {
    const started = performance.now()
    work()
    samples.push(performance.now() - started)
  }
  return median(samples)
}

const { checkArgs } = await import('../src/tool/check-args.js')
const pattern = '^(a+)+$'
const schema = { type: 'object', properties: { text: { type: 'string', pattern } } }
const native = new RegExp(pattern, 'u')
console.log('ReDoS: ^(a+)+$ against "a"×n + "!"')
const nativeTimes: Array<[number, number]> = []
for (const n of [20, 22, 24, 26]) {
  const ms = time(() => native.test(`${'a'.repeat(n)}!`), 3)
  nativeTimes.push([n, ms])
  console.log(`  platform RegExp, n = ${n}: ${ms.toFixed(1)} ms`)
}
const [lastN, lastMs] = nativeTimes.at(-1) as [number, number]
const [prevN, prevMs] = nativeTimes.at(-2) as [number, number]
const growth = (lastMs / prevMs) ** (1 / (lastN - prevN))
// The shape doubles its paths with each character; the measured growth is printed beside it.
const at30 = (lastMs * 2 ** (30 - lastN)) / 1000
console.log(
  `  platform RegExp, n = 30: ~${at30.toFixed(0)} s (extrapolated ×2 per character; measured ×${growth.toFixed(2)})`,
)
for (const n of [30, 100_000]) {
  const ms = time(() => checkArgs(schema, { text: `${'a'.repeat(n)}!` }))
  console.log(`  toolnexus checkArgs, n = ${n}: ${ms.toFixed(2)} ms`)
}

console.log('MCP result over the message limit: max RSS of the process')
for (const megabytes of [1, 50]) {
  const line = execFileSync(process.execPath, ['--import', 'tsx', here, '--child', String(megabytes)], {
    cwd: root,
    encoding: 'utf8',
  }).trim()
  const figures = JSON.parse(line.split('\n').at(-1) as string)
  console.log(
    `  ${megabytes} MB answer: max RSS ${figures.before.toFixed(0)} MB before the call, ${figures.after.toFixed(0)} MB after; isError ${figures.isError}: ${figures.output.slice(0, 120)}`,
  )
}
