// The coordinator: starts the scripted endpoint, one worker process per implementation and tool variant,
// drives them in interleaved rounds (one worker at a time), then toolnexus and each row it is compared with
// taking turns inside shared fresh processes, then the scale bench, and prints the report.
//
//   node dist/run-bench.js [--quick] [--only id,id] [--skip-scale] [--profile id:variant,…] [--seed N]
//                        [--warmup N] [--rounds N] [--batch N]

import { mkdirSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type IpcChild, startChild } from './harness/child.js'
import type { WorkerConfig, WorkerReply } from './harness/protocol.js'
import { type Batch, type PairedRound, renderReport, type SpecResult } from './harness/report.js'
import { seededRandom, shuffle } from './harness/stats.js'
import { IMPLEMENTATIONS, REFERENCES } from './impls/registry.js'
import type { ScaleReport } from './scale/scale-bench.js'

const distDir = dirname(fileURLToPath(import.meta.url))
const benchDir = dirname(distDir)
const resultsDir = join(benchDir, 'results')
const logsDir = join(resultsDir, 'logs')

interface Flags {
  quick: boolean
  only: string[] | undefined
  skipScale: boolean
  profile: string[] | undefined
  seed: number
  warmup: number | undefined
  rounds: number | undefined
  batch: number | undefined
}

function parseFlags(argv: string[]): Flags {
  const value = (name: string): string | undefined => {
    const index = argv.indexOf(name)
    return index === -1 ? undefined : argv[index + 1]
  }
  const numberFlag = (name: string): number | undefined => {
    const text = value(name)
    if (text === undefined) return undefined
    const number = Number(text)
    if (!Number.isInteger(number) || number < 1)
      throw new Error(`${name} takes a positive integer, got ${text}`)
    return number
  }
  const known = new Set([
    '--quick',
    '--only',
    '--skip-scale',
    '--profile',
    '--seed',
    '--warmup',
    '--rounds',
    '--batch',
  ])
  for (const argument of argv) {
    if (argument.startsWith('--') && !known.has(argument))
      throw new Error(`unknown flag ${argument}; known: ${[...known].join(' ')}`)
  }
  return {
    quick: argv.includes('--quick'),
    only: value('--only')?.split(','),
    skipScale: argv.includes('--skip-scale'),
    profile: value('--profile')?.split(','),
    seed: Number(value('--seed') ?? 8),
    warmup: numberFlag('--warmup'),
    rounds: numberFlag('--rounds'),
    batch: numberFlag('--batch'),
  }
}

const flags = parseFlags(process.argv.slice(2))
// Full: about 13–15 minutes on this 2-core machine (long warm-ups, then the shared processes). Quick: a
// smoke run.
const params = flags.quick
  ? {
      coldSamples: 1,
      warmup: flags.warmup ?? 10,
      rounds: flags.rounds ?? 6,
      pairedSets: 1,
      pairWarmup: 100,
      pairedRounds: flags.rounds ?? 4,
      batch: flags.batch ?? 4,
      concurrency: 100,
      concurrentRepeats: 1,
      concurrentWarmups: 0,
    }
  : {
      coldSamples: 3,
      warmup: flags.warmup ?? 1500,
      rounds: flags.rounds ?? 40,
      pairedSets: 3,
      pairWarmup: flags.warmup ?? 2000,
      pairedRounds: flags.rounds ?? 30,
      batch: flags.batch ?? 6,
      concurrency: 100,
      concurrentRepeats: 2,
      concurrentWarmups: 1,
    }

type Worker = IpcChild<WorkerReply>
type EndpointReply =
  | { type: 'listening'; port: number }
  | { type: 'stats'; openai: number; gemini: number; errors: number }

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`)
}

async function main(): Promise<void> {
  mkdirSync(logsDir, { recursive: true })
  const startedAt = new Date()
  const loadAtStart = loadavg()[0] ?? Number.NaN
  const endpoint = startChild<EndpointReply>(join(distDir, 'endpoint/scripted-endpoint.js'), {
    args: [],
    logFile: join(logsDir, 'endpoint.log'),
  })
  const listening = await endpoint.first(10_000)
  if (listening.type !== 'listening') throw new Error('endpoint did not start')
  const origin = `http://127.0.0.1:${listening.port}`
  const modelCalls = async (): Promise<number> => {
    const stats = await endpoint.request({ type: 'stats' }, 5_000)
    return stats.type === 'stats' ? stats.openai + stats.gemini : Number.NaN
  }
  const mcpServer = { command: process.execPath, args: [join(distDir, 'mcp/bench-mcp-server.js')] }

  const specs: SpecResult[] = IMPLEMENTATIONS.filter(
    (info) => flags.only === undefined || flags.only.includes(info.id),
  ).flatMap((info) =>
    info.variants.map(
      (variant): SpecResult => ({
        info,
        variant,
        key: `${info.id}:${variant}`,
        cold: { importMs: [], initMs: [], firstRunMs: [] },
        rounds: [],
        cpuRounds: [],
        paired: {},
        concurrentWallMs: [],
        concurrency: params.concurrency,
        modelCallsPerRun: Number.NaN,
      }),
    ),
  )
  const workerConfig = (spec: SpecResult, companion: SpecResult | undefined): WorkerConfig => ({
    implementations: companion === undefined ? [spec.info.id] : [spec.info.id, companion.info.id],
    variant: spec.variant,
    openaiBaseUrl: `${origin}/v1`,
    geminiBaseUrl: origin,
    mcpServer,
  })
  const spawnWorker = (spec: SpecResult, profiled: boolean, companion: SpecResult | undefined): Worker =>
    startChild<WorkerReply>(join(distDir, 'harness/worker.js'), {
      args: [JSON.stringify(workerConfig(spec, companion))],
      // A 100 µs sampling interval: a run takes a few milliseconds, so the default 1 ms sees too little.
      execArgv: profiled
        ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', join(resultsDir, 'profiles')]
        : [],
      logFile: join(logsDir, `${spec.key.replace(':', '-')}.log`),
    })
  const fail = (spec: SpecResult, phase: string, message: string): void => {
    spec.error ??= `${phase}: ${message}`
    log(`${spec.key} failed in ${phase}: ${message}`)
  }
  const expect = <T extends WorkerReply['type']>(
    spec: SpecResult,
    reply: WorkerReply,
    type: T,
  ): Extract<WorkerReply, { type: T }> | undefined => {
    if (reply.type === type) return reply as Extract<WorkerReply, { type: T }>
    fail(
      spec,
      reply.type === 'error' ? reply.phase : type,
      reply.type === 'error' ? reply.message : `unexpected ${reply.type}`,
    )
    return undefined
  }
  /** A worker for `spec` (and `companion`, in the same process), once it is ready; cold figures recorded. */
  const startReady = async (
    spec: SpecResult,
    profiled: boolean,
    companion?: SpecResult,
  ): Promise<Worker | undefined> => {
    const worker = spawnWorker(spec, profiled, companion)
    try {
      const ready = expect(spec, await worker.first(120_000), 'ready')
      if (ready === undefined) {
        await worker.stop(2_000)
        return undefined
      }
      if (companion === undefined) {
        spec.cold.importMs.push(ready.importMs)
        spec.cold.initMs.push(ready.initMs)
        spec.cold.firstRunMs.push(ready.firstRunMs)
      }
      return worker
    } catch (error) {
      fail(spec, 'start', error instanceof Error ? error.message : String(error))
      await worker.stop(2_000)
      return undefined
    }
  }
  const random = seededRandom(flags.seed)

  // Cold init: fresh processes, one at a time, so that no two compete for the two cores.
  for (let sample = 1; sample < params.coldSamples; sample++) {
    log(`cold start sample ${sample}/${params.coldSamples - 1}`)
    for (const spec of shuffle(specs, random)) {
      if (spec.error !== undefined) continue
      const worker = await startReady(spec, false)
      if (worker === undefined) continue
      await worker.request({ type: 'close' }, 30_000).catch(() => undefined)
      await worker.stop(5_000)
    }
  }

  log('starting the measured workers')
  const workers = new Map<string, Worker>()
  for (const spec of specs) {
    if (spec.error !== undefined) continue
    const worker = await startReady(spec, flags.profile?.includes(spec.key) === true)
    if (worker !== undefined) workers.set(spec.key, worker)
  }
  const live = (): SpecResult[] => specs.filter((spec) => spec.error === undefined && workers.has(spec.key))
  const batch = (spec: SpecResult, count: number): Promise<Batch | undefined> =>
    batchOn(workers.get(spec.key)!, spec, count)
  const batchOn = async (
    worker: Worker,
    spec: SpecResult,
    count: number,
    slot = 0,
  ): Promise<Batch | undefined> => {
    try {
      const before = await modelCalls()
      const reply = expect(spec, await worker.request({ type: 'batch', count, slot }, 300_000), 'batch')
      const calls = (await modelCalls()) - before
      spec.modelCallsPerRun = calls / count
      return reply
    } catch (error) {
      fail(spec, 'batch', error instanceof Error ? error.message : String(error))
      return undefined
    }
  }

  /**
   * In one worker hosting `self` (slot 0) and `other` (slot 1): warm-up in turns of 100 runs, then the
   * measured rounds, the order alternating from round to round.
   */
  const pairedRounds = async (
    worker: Worker,
    self: SpecResult,
    other: SpecResult,
    processIndex: number,
  ): Promise<PairedRound[]> => {
    const turn = (selfTurn: boolean, count: number): Promise<Batch | undefined> =>
      selfTurn ? batchOn(worker, self, count, 0) : batchOn(worker, other, count, 1)
    for (let index = 0; index < params.pairWarmup / 100; index++) {
      if ((await turn(true, 100)) === undefined || (await turn(false, 100)) === undefined) return []
    }
    const rounds: PairedRound[] = []
    for (let round = 0; round < params.pairedRounds; round++) {
      const selfFirst = round % 2 === 0
      const first = await turn(selfFirst, params.batch)
      const second = await turn(!selfFirst, params.batch)
      if (first === undefined || second === undefined) break
      rounds.push(
        selfFirst
          ? { process: processIndex, self: first, other: second }
          : { process: processIndex, self: second, other: first },
      )
    }
    return rounds
  }

  log(`warm-up: ${params.warmup} runs each (discarded)`)
  for (const spec of live()) await batch(spec, params.warmup)
  for (let round = 1; round <= params.rounds; round++) {
    if (round === 1 || round % 10 === 0) log(`round ${round}/${params.rounds}`)
    for (const spec of shuffle(live(), random)) {
      const result = await batch(spec, params.batch)
      if (result !== undefined) {
        spec.rounds.push(result.durations)
        spec.cpuRounds.push(result.cpuMsPerRun)
      }
    }
  }
  for (const spec of live()) {
    const reply = await workers.get(spec.key)!.request({ type: 'memory' }, 10_000)
    if (reply.type === 'memory') spec.maxRssSequentialBytes = reply.maxRssBytes
  }

  log(`throughput: ${params.concurrency} concurrent runs, interleaved like the rounds`)
  for (let repeat = 0; repeat < params.concurrentWarmups + params.concurrentRepeats; repeat++) {
    for (const spec of shuffle(live(), random)) {
      try {
        const reply = expect(
          spec,
          await workers.get(spec.key)!.request({ type: 'concurrent', count: params.concurrency }, 300_000),
          'concurrent',
        )
        if (reply !== undefined && repeat >= params.concurrentWarmups)
          spec.concurrentWallMs.push(reply.wallMs)
      } catch (error) {
        fail(spec, 'concurrent', error instanceof Error ? error.message : String(error))
      }
    }
  }
  for (const [key, worker] of workers) {
    const spec = specs.find((candidate) => candidate.key === key)!
    try {
      const reply = await worker.request({ type: 'close' }, 30_000)
      if (reply.type === 'closed') {
        spec.maxRssPeakBytes = reply.maxRssBytes
        spec.closeMs = reply.closeMs
      }
    } catch (error) {
      fail(spec, 'close', error instanceof Error ? error.message : String(error))
    }
    await worker.stop(5_000)
  }

  // The ratios that the targets rest on. Two processes measured seconds apart see a busy machine in
  // different states, and one fresh process of a row settles a few percent — up to tens of percent —
  // faster or slower than the next, for no reason in its code (memory layout, JIT decisions). So toolnexus
  // and each row it is compared with are measured again inside shared fresh processes, one at a time:
  // both warm up taking turns, then take turns at the measured batches; several processes are pooled.
  // Each floor is also paired with a second copy of itself the same way: the method's own error.
  const pairs = specs
    .filter((spec) => spec.info.toolnexus && spec.error === undefined)
    .flatMap((self) => {
      const references = REFERENCES[self.info.protocol]
      const ids = new Set<string>(
        self.info.comparedWith ?? [references.floor, references.rawFloor, references.framework],
      )
      const others = specs.filter(
        (other) => ids.has(other.info.id) && other.variant === self.variant && other.error === undefined,
      )
      const floor =
        self.info.comparedWith === undefined
          ? others.find((other) => other.info.id === references.floor)
          : undefined
      return [
        ...others.map((other) => ({ self, other })),
        ...(floor === undefined ? [] : [{ self: floor, other: floor }]),
      ]
    })
  log(
    `shared processes: ${pairs.length} comparisons × ${params.pairedSets} fresh processes, ${params.pairWarmup} warm-up runs and ${params.pairedRounds} rounds each`,
  )
  for (const { self, other } of shuffle(pairs, random)) {
    const rounds: PairedRound[] = []
    for (let set = 0; set < params.pairedSets; set++) {
      const worker = await startReady(self, false, other)
      if (worker === undefined) continue
      rounds.push(...(await pairedRounds(worker, self, other, set)))
      await worker.request({ type: 'close' }, 30_000).catch(() => undefined)
      await worker.stop(5_000)
    }
    self.paired[other.key] = rounds
  }
  const finalStats = await endpoint.request({ type: 'stats' }, 5_000)
  await endpoint.stop(2_000)

  let scale: ScaleReport | { error: string } | undefined
  if (!flags.skipScale) {
    log('scale: 1,000-tool conversion, 10 and 20 MCP servers')
    const child = startChild<{ type: 'scale'; report: ScaleReport } | { type: 'error'; message: string }>(
      join(distDir, 'scale/scale-bench.js'),
      { args: [JSON.stringify({ quick: flags.quick, mcpServer })], logFile: join(logsDir, 'scale.log') },
    )
    try {
      const reply = await child.first(300_000)
      scale = reply.type === 'scale' ? reply.report : { error: reply.message }
    } catch (error) {
      scale = { error: error instanceof Error ? error.message : String(error) }
    }
    await child.stop(5_000)
  }

  const report = renderReport({
    specs,
    scale,
    params,
    quick: flags.quick,
    startedAt,
    finishedAt: new Date(),
    benchDir,
    endpointErrors: finalStats.type === 'stats' ? finalStats.errors : Number.NaN,
    profiled: flags.profile?.join(', '),
    load: { start: loadAtStart, end: loadavg()[0] ?? Number.NaN },
  })
  process.stdout.write(`${report.text}\n`)
  mkdirSync(resultsDir, { recursive: true })
  const name = flags.quick ? 'latest-quick' : 'latest'
  writeFileSync(join(resultsDir, `${name}.md`), report.markdown)
  writeFileSync(join(resultsDir, `${name}.json`), JSON.stringify({ params, specs, scale }, null, 2))
  log(`wrote ${join(resultsDir, `${name}.md`)}`)
}

main().catch((error: unknown) => {
  process.stderr.write(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
