// The commands of `toolnexus`, one entry each: what `--help` lists, what is checked before any server
// starts, and what runs on the toolkit. A new command is one more entry in COMMANDS.
import { DOCTOR_PROVIDERS, type DoctorProvider, type DoctorVerdict } from '../doctor/diagnose-tools.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import type { CliArgs } from './read-cli-args.js'
import { suggestion, UsageError } from './read-cli-args.js'

/** One command of the CLI. */
export interface CliCommand {
  name: string
  /** What follows the name in the usage, like `<tool> '<json>'`. */
  usage?: string
  /** One line (or two) for `--help`. */
  summary: string
  /** Checks the words after the command before anything connects; returns what `run` needs from them. */
  prepare?(rest: readonly string[], args: CliArgs): unknown
  /** Runs on the assembled toolkit; resolves the exit code. */
  run(toolkit: Toolkit, prepared: unknown, args: CliArgs): number | Promise<number>
}

interface CallArguments {
  name: string
  args: Record<string, unknown>
}

export const COMMANDS: readonly CliCommand[] = [
  {
    name: 'tools',
    summary: 'list every tool, with its source',
    run: (toolkit, _prepared, { values }) => printTools(toolkit, values.json === true),
  },
  {
    name: 'status',
    summary: "each MCP server's state",
    run: (toolkit, _prepared, { values }) => printStatus(toolkit, values.json === true),
  },
  {
    name: 'doctor',
    summary:
      'per tool and provider: sent as is, adapted (and what was lost) or refused (why);\nexits 1 when a tool would be refused by a provider asked for',
    prepare: (_rest, { values }) => readProviders(values.provider),
    run: (toolkit, providers, { values }) =>
      printDoctor(toolkit, providers as DoctorProvider[], values.json === true),
  },
  {
    name: 'call',
    usage: "<tool> '<json>'",
    summary: 'run one tool with these arguments and print its output',
    prepare: (rest) => readCallArguments(rest),
    run: (toolkit, prepared) => callTool(toolkit, prepared as CallArguments),
  },
  {
    name: 'search',
    usage: '"<query>"',
    summary: 'the tools that best match a request, best first (--limit, default 8)',
    prepare: (rest, { values }) => readSearch(rest, values.limit),
    run: (toolkit, prepared, { values }) =>
      printSearch(toolkit, prepared as SearchRequest, values.json === true),
  },
]

interface SearchRequest {
  query: string
  limit: number
}

// Before any server connects: an empty query or a limit out of range is refused at once.
function readSearch(rest: readonly string[], given: string | undefined): SearchRequest {
  const query = rest.join(' ').trim()
  const limit = given === undefined ? 8 : Number(given)
  if (query === '') throw new UsageError('search needs a query: toolnexus search "email the weekly report"')
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 50)) {
    throw new UsageError(
      `--limit must be a whole number from 1 to 50 (toolnexus search "<query>" --limit 5); got ${given}.`,
    )
  }
  return { query, limit }
}

async function printSearch(
  toolkit: Toolkit,
  { query, limit }: SearchRequest,
  json: boolean,
): Promise<number> {
  const matches = await toolkit.search(query, { limit })
  if (json) process.stdout.write(`${JSON.stringify(matches, null, 2)}\n`)
  else
    process.stdout.write(
      table(
        ['tool', 'score', 'description'],
        matches.map((match) => [match.name, match.score.toFixed(2), match.description.split('\n')[0] ?? '']),
      ),
    )
  return 0
}

function readProviders(given: readonly string[] | undefined): DoctorProvider[] {
  const providers = given ?? [...DOCTOR_PROVIDERS]
  for (const provider of providers) {
    if (!DOCTOR_PROVIDERS.some((known) => known === provider)) {
      throw new UsageError(
        `Unknown provider ${provider}.${suggestion(provider, DOCTOR_PROVIDERS)} Use ${DOCTOR_PROVIDERS.join(', ')}.`,
      )
    }
  }
  return providers as DoctorProvider[]
}

// Before any server connects: a call that cannot run is refused at once.
function readCallArguments(rest: readonly string[]): CallArguments {
  const [name, text = '{}', ...extra] = rest
  if (name === undefined) throw new UsageError(`call needs a tool name: toolnexus call <tool> '<json args>'`)
  if (extra.length > 0) {
    throw new UsageError(`call takes one JSON argument; quote it as one: toolnexus call ${name} '{"a": 1}'`)
  }
  let args: unknown
  try {
    args = JSON.parse(text)
  } catch (error) {
    throw new UsageError(
      `The arguments are not JSON: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new UsageError('The arguments must be a JSON object, like \'{"city": "Chennai"}\'.')
  }
  return { name, args: args as Record<string, unknown> }
}

async function callTool(toolkit: Toolkit, { name, args }: CallArguments): Promise<number> {
  if (toolkit.get(name) === undefined) {
    const names = toolkit.tools().map((tool) => tool.name)
    const hint = suggestion(name, names)
    process.stderr.write(
      `No tool is named ${name}.${hint === '' ? ` The tools are: ${names.join(', ') || '(none)'}.` : hint}\n`,
    )
    return 2
  }
  const result = await toolkit.execute(name, args)
  ;(result.isError ? process.stderr : process.stdout).write(`${result.output}\n`)
  return result.isError ? 1 : 0
}

function printTools(toolkit: Toolkit, json: boolean): number {
  const tools = toolkit.tools().map((tool) => ({
    name: tool.name,
    source: tool.source,
    description: tool.description.split('\n')[0] ?? '',
  }))
  if (json) process.stdout.write(`${JSON.stringify(tools, null, 2)}\n`)
  else
    process.stdout.write(
      table(
        ['tool', 'source', 'description'],
        tools.map((tool) => [tool.name, tool.source, tool.description]),
      ),
    )
  return 0
}

function printStatus(toolkit: Toolkit, json: boolean): number {
  const servers = Object.entries(toolkit.mcpServers())
  if (json) process.stdout.write(`${JSON.stringify(Object.fromEntries(servers), null, 2)}\n`)
  else {
    process.stdout.write(
      table(
        ['server', 'status', 'tools', 'reason'],
        servers.map(([name, info]) => [name, info.status, String(info.tools.length), info.reason ?? '']),
      ),
    )
  }
  return servers.some(([, info]) => info.status === 'failed') ? 1 : 0
}

function printDoctor(toolkit: Toolkit, providers: DoctorProvider[], json: boolean): number {
  const report = toolkit.doctor()
  const refusing = providers.filter((provider) => report.refused[provider] > 0)
  const code = refusing.length > 0 ? 1 : 0
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return code
  }
  const rows = report.tools.map((tool) => [
    tool.name,
    ...providers.map((provider) => cell(tool.providers[provider])),
  ])
  process.stdout.write(table(['tool', ...providers], rows))
  const details = report.tools.flatMap((tool) =>
    providers.flatMap((provider) => {
      const verdict = tool.providers[provider]
      const said = detail(verdict)
      return said === undefined ? [] : [`  ${tool.name} · ${provider} · ${said}`]
    }),
  )
  if (details.length > 0) process.stdout.write(`\n${details.join('\n')}\n`)
  const summary =
    refusing.length === 0
      ? `every tool is accepted by ${providers.join(', ')}`
      : refusing.map((provider) => `${report.refused[provider]} refused by ${provider}`).join(', ')
  process.stdout.write(`\n${report.tools.length} tool${report.tools.length === 1 ? '' : 's'}; ${summary}\n`)
  return code
}

/** `adapted, nothing lost: …`, `adapted: …; lost: minLength`, `refused: …`; nothing for a tool sent as is. */
function detail(verdict: DoctorVerdict): string | undefined {
  switch (verdict.status) {
    case 'as-is':
      return undefined
    case 'adapted':
      if (verdict.lost.length === 0) return `adapted, nothing lost: ${verdict.changes.join('; ')}`
      return `adapted: ${[...verdict.changes, `lost ${verdict.lost.join(', ')}`].join('; ')}`
    case 'lowered':
      return `adapted: lost ${verdict.lost.join(', ')}`
    case 'refused':
      return `refused: ${verdict.reasons.join('; ')}`
    default:
      return verdict satisfies never
  }
}

function cell(verdict: DoctorVerdict): string {
  switch (verdict.status) {
    case 'as-is':
      return 'as is'
    case 'adapted':
    case 'lowered':
      return 'adapted'
    case 'refused':
      return 'REFUSED'
    default:
      return verdict satisfies never
  }
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.min(60, Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length))),
  )
  const render = (row: string[]) =>
    row
      .map((value, column) => {
        const width = widths[column] ?? 0
        const text = value.length > width ? `${value.slice(0, width - 1)}…` : value
        return column === row.length - 1 ? text : text.padEnd(width)
      })
      .join('  ')
      .trimEnd()
  return `${[render(header), render(widths.map((width) => '-'.repeat(width))), ...rows.map(render)].join('\n')}\n`
}
