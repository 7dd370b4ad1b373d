// Turns the measurements into the tables: per request, toolnexus against each, the issue targets, scale.

import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, release, totalmem } from 'node:os'
import { join } from 'node:path'
import { type ImplementationInfo, type Protocol, REFERENCES } from '../impls/registry.js'
import type { ToolVariant } from '../impls/types.js'
import type { ScaleReport } from '../scale/scale-bench.js'
import { median, percentile } from './stats.js'

/** Everything measured for one implementation and tool variant. */
export interface SpecResult {
  info: ImplementationInfo
  variant: ToolVariant
  key: string
  error?: string
  cold: { importMs: number[]; initMs: number[]; firstRunMs: number[] }
  /** Each round's run durations, after warm-up. */
  rounds: number[][]
  /** Each round's client CPU time per run (this process, all threads), in ms. */
  cpuRounds: number[]
  /**
   * The paired rounds against each row this one is compared with, by that row's key: toolnexus rows
   * against the floors and generateText, a floor against a second copy of itself (under its own key). In
   * each round the two, hosted in one process, ran one batch apiece, back to back.
   */
  paired: Record<string, PairedRound[]>
  concurrency: number
  concurrentWallMs: number[]
  modelCallsPerRun: number
  maxRssSequentialBytes?: number
  maxRssPeakBytes?: number
  closeMs?: number
}

/** One batch of runs: their durations and the client CPU time per run, in ms. */
export interface Batch {
  durations: number[]
  cpuMsPerRun: number
}

/** One paired round: this row's batch and the other row's, measured back to back in one process. */
export interface PairedRound {
  /** Which of the comparison's fresh processes ran it (0, 1, …). */
  process: number
  self: Batch
  other: Batch
}

export interface ReportInput {
  specs: SpecResult[]
  scale: ScaleReport | { error: string } | undefined
  params: Record<string, number>
  quick: boolean
  startedAt: Date
  finishedAt: Date
  benchDir: string
  endpointErrors: number
  profiled: string | undefined
  /** The 1-minute load average at the start and at the end: how busy the machine was besides the bench. */
  load: { start: number; end: number }
}

const PEER_PACKAGES = [
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/mcp',
  '@mastra/core',
  '@mastra/mcp',
  'langchain',
  '@langchain/core',
  '@langchain/openai',
  '@langchain/langgraph',
  '@langchain/mcp-adapters',
  '@google/genai',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/client',
  'zod',
]

function versionOf(directory: string): string {
  try {
    return (JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { version: string }).version
  } catch {
    return 'not installed'
  }
}

function gitRevision(directory: string): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: directory, encoding: 'utf8' }).trim()
  } catch {
    return 'unknown'
  }
}

function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '—'
  if (Math.abs(value) < 10) return value.toFixed(2)
  if (Math.abs(value) < 100) return value.toFixed(1)
  return value.toFixed(0)
}

function ratio(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '—' : `${value.toFixed(2)}×`
}

function megabytes(bytes: number | undefined): string {
  return bytes === undefined ? '—' : (bytes / 1024 / 1024).toFixed(0)
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`
  return [
    line(header),
    `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`,
    ...rows.map(line),
  ].join('\n')
}

function measured(spec: SpecResult | undefined): spec is SpecResult {
  return spec !== undefined && spec.error === undefined && spec.rounds.length > 0
}

type Metric = (batch: Batch) => number
const wall: Metric = (batch) => median(batch.durations)
const cpuTime: Metric = (batch) => batch.cpuMsPerRun

/**
 * Where a comparison's rounds come from: `paired` uses the rounds in which toolnexus (the first row) and
 * the other row took turns (falling back to the shuffled rounds when there are none), `shuffled` the
 * shuffled rounds, which line up by index.
 */
type Source = 'paired' | 'shuffled'

/** The median over rounds of `combine(a's value, b's value)`. */
function perRound(
  a: SpecResult | undefined,
  b: SpecResult | undefined,
  metric: Metric,
  source: Source,
  combine: (x: number, y: number) => number,
): number | undefined {
  if (!measured(a) || !measured(b)) return undefined
  const paired = a.paired[b.key] ?? []
  if (source === 'paired' && paired.length > 0) {
    return median(paired.map((round) => combine(metric(round.self), metric(round.other))))
  }
  const count = Math.min(a.rounds.length, b.rounds.length)
  const values: number[] = []
  for (let round = 0; round < count; round++) {
    values.push(combine(metric(shuffledBatch(a, round)), metric(shuffledBatch(b, round))))
  }
  return median(values)
}

function shuffledBatch(spec: SpecResult, round: number): Batch {
  return { durations: spec.rounds[round]!, cpuMsPerRun: spec.cpuRounds[round]! }
}

function ratioOf(
  a: SpecResult | undefined,
  b: SpecResult | undefined,
  metric: Metric = wall,
  source: Source = 'paired',
): number | undefined {
  if (a === b) return measured(a) ? 1 : undefined
  return perRound(a, b, metric, source, (x, y) => x / y)
}

/** The median over paired rounds of this row's value divided by the other row's. */
function pairedRatio(rounds: readonly PairedRound[], metric: Metric): number {
  return median(rounds.map((round) => metric(round.self) / metric(round.other)))
}

/** A row against a second copy of itself in the paired rounds: what the method reads when nothing differs. */
function controlOf(spec: SpecResult | undefined, metric: Metric = wall): number | undefined {
  const rounds = spec?.paired[spec.key] ?? []
  return rounds.length === 0 ? undefined : pairedRatio(rounds, metric)
}

/** The wall ratio of each shared process behind a paired figure, in the order they ran: its spread. */
function perProcess(a: SpecResult | undefined, b: SpecResult | undefined): string {
  const rounds = a === undefined || b === undefined ? [] : (a.paired[b.key] ?? [])
  const processes = [...new Set(rounds.map((round) => round.process))]
  return processes
    .map((index) =>
      ratio(
        pairedRatio(
          rounds.filter((round) => round.process === index),
          wall,
        ),
      ),
    )
    .join(', ')
}

function differenceOf(
  a: SpecResult | undefined,
  b: SpecResult | undefined,
  metric: Metric = wall,
  source: Source = 'paired',
): number | undefined {
  return perRound(a, b, metric, source, (x, y) => x - y)
}

function verdict(value: number | undefined, limit: number): string {
  if (value === undefined) return 'not measured'
  return value <= limit ? 'met' : 'MISSED'
}

export function renderReport(input: ReportInput): { text: string; markdown: string } {
  const { specs } = input
  const find = (id: string, variant: ToolVariant): SpecResult | undefined =>
    specs.find((spec) => spec.info.id === id && spec.variant === variant)
  const libraryDir = join(input.benchDir, '..')
  const cpu = cpus()
  const lines: string[] = []
  lines.push(`# toolnexus benchmark${input.quick ? ' (quick smoke run: figures are rough)' : ''}`)
  lines.push('')
  lines.push(
    `- Date: ${input.startedAt.toISOString()} (took ${((input.finishedAt.getTime() - input.startedAt.getTime()) / 1000).toFixed(0)} s)`,
  )
  lines.push(
    `- Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GB RAM, Linux ${release()}, Node ${process.version}`,
  )
  lines.push(`- toolnexus ${versionOf(libraryDir)} (git ${gitRevision(libraryDir)})`)
  lines.push(
    `- Peers: ${PEER_PACKAGES.map((name) => `${name} ${versionOf(join(input.benchDir, 'node_modules', name))}`).join(', ')}`,
  )
  lines.push(
    `- Method: every row runs in its own process against one scripted endpoint in another process (keep-alive, JSON): one question → two parallel tool calls → the answer (2 model round trips, 2 tool executions; each answer checked). ${input.params.warmup} warm-up runs discarded, then ${input.params.rounds} interleaved rounds of ${input.params.batch} runs in a shuffled order, one process at a time: each batch starts after a pause of seconds while the other rows ran, so the per-request table includes refilling the CPU caches after that pause. The ratios of toolnexus to the floors and to generateText (the targets) come from shared fresh processes instead, one at a time, ${input.params.pairedSets} per comparison: each hosts both implementations (each with its own model client, tools and MCP server), which warm up taking turns of 100 runs (${input.params.pairWarmup} runs each), then take turns at ${input.params.pairedRounds} rounds of ${input.params.batch} runs, the order alternating, so that both are equally warm, see the machine in the same state and share the process's luck (a fresh process of one row may settle tens of percent faster or slower than the next); the rounds of all processes are pooled. Each floor is paired with a second copy of itself the same way, to show the method's own error. Ratios are medians of per-round ratios of batch medians. Cold init = the implementation's setup (model client, tools, toolkit incl. MCP connect), median of ${input.params.coldSamples} fresh processes; import = loading its modules. Peak RSS = the process's max RSS after the sequential runs (and after ${input.specs[0]?.concurrency ?? 100} concurrent runs).`,
  )
  lines.push(
    `- Machine load (1-minute load average; other work shared these ${cpu.length} cores): ${input.load.start.toFixed(1)} at the start, ${input.load.end.toFixed(1)} at the end. Wall times move with it; the client CPU time per run moves far less, so both are shown.`,
  )
  lines.push(
    '- Reproduce: `npm run bench` (or `npm run bench -- --quick` for a smoke run) in a clone of the repository.',
  )
  if (input.profiled !== undefined)
    lines.push(`- Note: ${input.profiled} ran under --cpu-prof; its timings include the profiler.`)
  lines.push('')

  const groups: Array<{ protocol: Protocol; variant: ToolVariant; title: string }> = [
    { protocol: 'openai', variant: 'native', title: 'OpenAI-compatible endpoint, native tools' },
    {
      protocol: 'openai',
      variant: 'mcp',
      title: 'OpenAI-compatible endpoint, tools from one stdio MCP server',
    },
    { protocol: 'gemini', variant: 'native', title: 'Gemini endpoint (@google/genai), native tools' },
    {
      protocol: 'gemini',
      variant: 'mcp',
      title: 'Gemini endpoint (@google/genai), tools from one stdio MCP server',
    },
  ]
  lines.push('## Per request')
  lines.push('')
  const notes: string[] = []
  for (const group of groups) {
    const members = specs.filter(
      (spec) => spec.info.protocol === group.protocol && spec.variant === group.variant,
    )
    if (members.length === 0) continue
    const references = REFERENCES[group.protocol]
    const floor = find(references.floor, group.variant)
    const rawFloor = find(references.rawFloor, group.variant)
    const framework = find(references.framework, group.variant)
    const header = [
      'Implementation',
      'cold init ms',
      'import ms',
      'p50 ms',
      'p95 ms',
      'client CPU ms/run',
      `overhead ms/run vs ${group.protocol === 'openai' ? 'raw fetch' : 'bare loop'}`,
      `× ${group.protocol === 'openai' ? 'doGenerate floor' : 'bare generateContent'} (wall / CPU)`,
      ...(group.protocol === 'openai' ? ['× generateText'] : []),
      'model calls/run',
      'peak RSS MB (seq / @100)',
      `runs/s @${input.specs[0]?.concurrency ?? 100} concurrent`,
    ]
    const rows = members.map((spec) => {
      if (spec.error !== undefined) {
        notes.push(`- **${spec.info.label}, ${spec.variant}**: ${spec.error}`)
      }
      const all = spec.rounds.flat()
      const throughput =
        spec.concurrentWallMs.length === 0
          ? undefined
          : spec.concurrency / (median(spec.concurrentWallMs) / 1000)
      return [
        spec.error === undefined ? spec.info.label : `${spec.info.label} (failed, see below)`,
        ms(median(spec.cold.initMs)),
        ms(median(spec.cold.importMs)),
        ms(percentile(all, 0.5)),
        ms(percentile(all, 0.95)),
        ms(spec.cpuRounds.length === 0 ? undefined : median(spec.cpuRounds)),
        ms(differenceOf(spec, rawFloor, wall, 'shuffled')),
        `${ratio(ratioOf(spec, floor, wall, 'shuffled'))} / ${ratio(ratioOf(spec, floor, cpuTime, 'shuffled'))}`,
        ...(group.protocol === 'openai' ? [ratio(ratioOf(spec, framework, wall, 'shuffled'))] : []),
        Number.isFinite(spec.modelCallsPerRun) ? spec.modelCallsPerRun.toFixed(1) : '—',
        `${megabytes(spec.maxRssSequentialBytes)} / ${megabytes(spec.maxRssPeakBytes)}`,
        throughput === undefined ? '—' : throughput.toFixed(0),
      ]
    })
    lines.push(`### ${group.title}`)
    lines.push('')
    lines.push(table(header, rows))
    lines.push('')
  }
  if (notes.length > 0) {
    lines.push('Rows that could not run (kept, with the reason; no number is invented):')
    lines.push('')
    lines.push(...notes)
    lines.push('')
  }

  lines.push('## toolnexus against each (median of per-round ratios; below 1.00× = toolnexus is faster)')
  lines.push('')
  lines.push(
    'Against the floors and generateText: the shared processes (see Method). Against Mastra and LangChain: the shuffled rounds.',
  )
  lines.push('')
  for (const [id, protocol] of [
    ['toolnexus-ai-sdk', 'openai'],
    ['toolnexus-genai', 'gemini'],
  ] as const) {
    const others = specs.filter((spec) => spec.info.protocol === protocol && spec.info.id !== id)
    const ids = [...new Set(others.map((spec) => spec.info.id))]
    if (ids.length === 0) continue
    const rows = ids.map((otherId) => {
      const label = others.find((spec) => spec.info.id === otherId)!.info.label
      const pair = (variant: ToolVariant): [SpecResult | undefined, SpecResult | undefined] => [
        find(id, variant),
        find(otherId, variant),
      ]
      return [
        label,
        ratio(ratioOf(...pair('native'))),
        ratio(ratioOf(...pair('native'), cpuTime)),
        ms(differenceOf(...pair('native'))),
        ratio(ratioOf(...pair('mcp'))),
        ratio(ratioOf(...pair('mcp'), cpuTime)),
        ms(differenceOf(...pair('mcp'))),
      ]
    })
    lines.push(
      `### ${id === 'toolnexus-ai-sdk' ? 'toolnexus (AI SDK model)' : 'toolnexus (@google/genai)'} ÷ …`,
    )
    lines.push('')
    lines.push(
      table(
        [
          'Other',
          'native wall ×',
          'native CPU ×',
          'native Δ wall ms/run',
          'MCP wall ×',
          'MCP CPU ×',
          'MCP Δ wall ms/run',
        ],
        rows,
      ),
    )
    lines.push('')
  }

  lines.push('## Targets')
  lines.push('')
  const targetRows: string[][] = []
  for (const variant of ['native', 'mcp'] as const) {
    const target = (
      what: string,
      pair: [SpecResult | undefined, SpecResult | undefined],
      limit: number | undefined,
    ): string[] => {
      const value = ratioOf(...pair)
      return [
        variant,
        what,
        limit === undefined ? '— (reported)' : `≤ ${limit.toFixed(2)}×`,
        `${ratio(value)} (CPU ${ratio(ratioOf(...pair, cpuTime))}; processes ${perProcess(...pair) || '—'})`,
        limit === undefined
          ? measured(pair[0]) && measured(pair[1])
            ? 'reported'
            : 'not measured'
          : verdict(value, limit),
      ]
    }
    const toolnexus = find('toolnexus-ai-sdk', variant)
    targetRows.push(
      target(
        'toolnexus loop ÷ AI SDK generateText',
        [toolnexus, find('ai-sdk-generate-text', variant)],
        0.85,
      ),
      target('toolnexus loop ÷ bare doGenerate loop', [toolnexus, find('floor-do-generate', variant)], 1.1),
      target(
        'toolnexus genai loop ÷ bare generateContent loop',
        [find('toolnexus-genai', variant), find('genai-generate-content', variant)],
        1.1,
      ),
      target(
        'provider form in generateText ÷ toolnexus createClient',
        [find('toolnexus-provider-form', variant), toolnexus],
        1.05,
      ),
      target(
        'provider form in generateText ÷ its floor (createClient + one generateText step)',
        [find('toolnexus-provider-form', variant), find('floor-create-client-and-step', variant)],
        1.05,
      ),
      target(
        'provider form in generateText ÷ generateText with toolkit.toAISDK()',
        [find('toolnexus-provider-form', variant), find('ai-sdk-generate-text-toolkit', variant)],
        undefined,
      ),
    )
  }
  for (const variant of ['native', 'mcp'] as const) {
    const toolnexus = find('toolnexus-ai-sdk', variant)
    const peers = specs.filter(
      (spec) =>
        spec.variant === variant &&
        spec.info.protocol === 'openai' &&
        !spec.info.floor &&
        !spec.info.toolnexus,
    )
    const slower = peers.filter((peer) => (ratioOf(toolnexus, peer) ?? Number.POSITIVE_INFINITY) >= 1)
    const measuredPeers = peers.filter(measured)
    targetRows.push([
      variant,
      'lowest per-request time among the frameworks',
      `< every peer (${measuredPeers.length} measured)`,
      slower.length === 0 ? 'lowest' : `not lower than ${slower.map((peer) => peer.info.label).join(', ')}`,
      !measured(toolnexus) || measuredPeers.length === 0
        ? 'not measured'
        : slower.length === 0
          ? 'met'
          : 'MISSED',
    ])
  }
  lines.push(
    table(
      ['Tools', 'What', 'Target', 'Measured (wall; CPU and each shared process beside)', 'Verdict (wall)'],
      targetRows,
    ),
  )
  lines.push('')
  const controls = specs.flatMap((spec) => {
    const value = controlOf(spec)
    return value === undefined
      ? []
      : [
          `${spec.info.label}, ${spec.variant}: ${ratio(value)} (CPU ${ratio(controlOf(spec, cpuTime))}; processes ${perProcess(spec, spec)})`,
        ]
  })
  if (controls.length > 0) {
    lines.push(
      `The method's own error — each floor against a second copy of itself, measured like the targets: ${controls.join('; ')}.`,
    )
    lines.push('')
  }
  // generateText runs over the same doGenerate: toolnexus can only undercut it by what generateText adds.
  const bounds = (['native', 'mcp'] as const).flatMap((variant) => {
    const over = ratioOf(
      find('ai-sdk-generate-text', variant),
      find('floor-do-generate', variant),
      wall,
      'shuffled',
    )
    const overCpu = ratioOf(
      find('ai-sdk-generate-text', variant),
      find('floor-do-generate', variant),
      cpuTime,
      'shuffled',
    )
    return over === undefined || overCpu === undefined
      ? []
      : [
          `${variant}: generateText ÷ bare doGenerate = ${ratio(over)} wall (${ratio(overCpu)} CPU), so 0.85× generateText = ${ratio(0.85 * over)} of the floor (${ratio(0.85 * overCpu)} CPU)`,
        ]
  })
  if (bounds.length > 0) {
    lines.push(
      `The floor bounds the generateText target: ${bounds.join('; ')}. Below 1.00× of the floor a loop would have to do less than the bare loop does.`,
    )
    lines.push('')
  }

  lines.push('## Scale (toolnexus)')
  lines.push('')
  const scale = input.scale
  if (scale === undefined) lines.push('Skipped (--skip-scale).')
  else if ('error' in scale) lines.push(`The scale bench failed: ${scale.error}`)
  else {
    const conversion = scale.conversion
    lines.push(
      `A toolkit of ${conversion.toolCount} tools (JSON Schema with nested object, enum, nullable, array): defineTool × ${conversion.toolCount} ${ms(conversion.defineMs)} ms, createToolkit ${ms(conversion.createToolkitMs)} ms.`,
    )
    lines.push('')
    lines.push(
      table(
        ['Format', 'first call ms', 'warm median ms', 'JSON size KB'],
        conversion.formats.map((format) => [
          format.format,
          ms(format.firstMs),
          ms(format.warmMs),
          format.bytes === 0 ? '—' : (format.bytes / 1024).toFixed(0),
        ]),
      ),
    )
    lines.push('')
    lines.push(
      `MCP connect (stdio, each server a Node process of the MCP SDK; toolkit built incl. connect + tools/list; one server alone: ${ms(scale.singleServerMs)} ms median):`,
    )
    lines.push('')
    lines.push(
      table(
        [
          'Servers',
          'toolkit, together ms',
          'SDK Clients, Promise.all ms (toolkit ÷)',
          'the same, host env ms (toolkit ÷)',
          'slowest alone ms',
          'sum of each alone ms',
          'together ÷ slowest',
          'together ÷ sum',
        ],
        scale.mcp.map((row) => {
          const slowest = Math.max(...row.aloneMs)
          const sum = row.aloneMs.reduce((total, value) => total + value, 0)
          return [
            row.label,
            ms(row.togetherMs),
            `${ms(row.rawSdkMs)} (${ratio(row.toolkitToSdk)})`,
            `${ms(row.rawSdkHostEnvMs)} (${ratio(row.toolkitToSdkHostEnv)})`,
            ms(slowest),
            ms(sum),
            ratio(row.togetherMs / slowest),
            ratio(row.togetherMs / sum),
          ]
        }),
      ),
    )
    lines.push('')
    lines.push(
      `Each server is a Node process that loads the MCP SDK and zod: booting many at once is CPU-bound on ${cpu.length} cores, so "together" cannot reach "slowest alone" here; the MCP SDK's own \`Client\`s started with \`Promise.all\` (no toolkit) show what the machine allows. The toolkit gives each server the host's whole environment, the SDK's default six variables: a variable every Node process reads as it starts (\`NODE_EXTRA_CA_CERTS\`) costs each toolkit server the time to read it, so the "host env" column, the SDK's clients given the same environment, is the like-for-like one. Medians of rounds taking turns, ratios the median of per-round ratios. The 300 ms rows stand for servers that wait on I/O before they answer (an \`npx\` resolve, a login): that wait overlaps.`,
    )
    lines.push('')
  }
  if (Number.isFinite(input.endpointErrors) && input.endpointErrors > 0) {
    lines.push(
      `Warning: the scripted endpoint saw ${input.endpointErrors} malformed exchanges (see the failed rows).`,
    )
  }
  const markdown = `${lines.join('\n')}\n`
  return { text: markdown, markdown }
}
