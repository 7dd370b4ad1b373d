#!/usr/bin/env node
// The `toolnexus` command: list, check and call the tools an mcp.json, skill folders and HTTP specs give.
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { DOCTOR_PROVIDERS, type DoctorProvider, type DoctorVerdict } from '../doctor/doctor.js'
import type { HttpToolSpec } from '../http/http-tool-spec.js'
import { createToolkit, type Toolkit } from '../toolkit/create-toolkit.js'

const USAGE = `Usage: toolnexus <command> [options]

Commands:
  tools                     list every tool, with its source
  status                    each MCP server's state
  doctor                    per tool and provider: sent as is, lowered (what was lost) or refused (why);
                            exits 1 when a tool would be refused by a provider asked for
  call <tool> '<json>'      run one tool with these arguments and print its output
  search "<query>"          the tools that best match a request, best first (--limit, default 8)

Options:
  --mcp <mcp.json>          MCP servers to connect
  --skills <dir>            a folder of SKILL.md skills (repeatable)
  --http <spec.json>        HTTP tool specs: one spec or an array (repeatable)
  --provider <name>         doctor: gemini, openai, openai-strict or anthropic (repeatable; default all)
  --limit <n>               search: how many tools (1 to 50)
  --json                    print JSON instead of text
  -h, --help                this text`

/** Exit codes: 0 fine, 1 a tool refused / a call failed, 2 a usage or configuration error. */
async function main(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`)
    return 2
  }
  const { values, positionals } = parsed
  const [command, ...rest] = positionals
  if (values.help === true || command === undefined) {
    process.stdout.write(`${USAGE}\n`)
    return command === undefined && values.help !== true ? 2 : 0
  }
  if (!['tools', 'status', 'doctor', 'call', 'search'].includes(command)) {
    process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`)
    return 2
  }
  const providers = (values.provider ?? [...DOCTOR_PROVIDERS]) as string[]
  const unknown = providers.filter((provider) => !DOCTOR_PROVIDERS.some((known) => known === provider))
  if (unknown.length > 0) {
    process.stderr.write(`Unknown provider ${unknown.join(', ')}: use ${DOCTOR_PROVIDERS.join(', ')}.\n`)
    return 2
  }
  let http: HttpToolSpec[]
  try {
    http = await readHttpSpecs(values.http ?? [])
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    return 2
  }
  const warnings: string[] = []
  const toolkit = await withProgress(values.mcp, () =>
    createToolkit({
      ...(values.mcp === undefined ? {} : { mcpConfig: values.mcp }),
      ...(values.skills === undefined ? {} : { skillsDir: values.skills }),
      http,
      logger: { warn: (message) => warnings.push(message) },
    }),
  )
  try {
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`)
    switch (command) {
      case 'tools':
        return printTools(toolkit, values.json === true)
      case 'status':
        return printStatus(toolkit, values.json === true)
      case 'doctor':
        return printDoctor(toolkit, providers as DoctorProvider[], values.json === true)
      case 'search':
        return await printSearch(toolkit, {
          query: rest.join(' '),
          limit: values.limit,
          json: values.json === true,
        })
      default:
        return await callTool(toolkit, rest)
    }
  } finally {
    await toolkit.close()
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      mcp: { type: 'string' },
      skills: { type: 'string', multiple: true },
      http: { type: 'string', multiple: true },
      provider: { type: 'string', multiple: true },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

async function readHttpSpecs(files: readonly string[]): Promise<HttpToolSpec[]> {
  const specs: HttpToolSpec[] = []
  for (const file of files) {
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'))
    } catch (error) {
      throw new Error(
        `Cannot read the HTTP spec ${file}: ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    // The shape is checked where every spec is: httpTool refuses a bad one with the reason.
    for (const spec of Array.isArray(parsed) ? parsed : [parsed]) specs.push(spec as HttpToolSpec)
  }
  return specs
}

// A progress line on stderr while MCP servers connect (they start in parallel; the slowest sets the time).
async function withProgress(mcp: string | undefined, create: () => Promise<Toolkit>): Promise<Toolkit> {
  if (mcp === undefined) return create()
  let servers: string[] = []
  try {
    const config = JSON.parse(await readFile(mcp, 'utf8')) as { mcpServers?: Record<string, unknown> }
    servers = Object.keys(config.mcpServers ?? {})
  } catch {
    // createToolkit reports an unreadable config itself.
  }
  const started = Date.now()
  const line = () =>
    `Connecting to ${servers.length} MCP server${servers.length === 1 ? '' : 's'} (${servers.join(', ')})… ${((Date.now() - started) / 1000).toFixed(1)}s`
  process.stderr.write(line())
  const timer = setInterval(() => process.stderr.write(`\r${line()}`), 250)
  try {
    const toolkit = await create()
    const status = Object.values(toolkit.mcpStatus())
    const connected = status.filter((each) => each === 'connected').length
    process.stderr.write(`\r${line()} done: ${connected}/${status.length} connected\n`)
    return toolkit
  } finally {
    clearInterval(timer)
  }
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

async function printSearch(
  toolkit: Toolkit,
  options: { query: string; limit: string | undefined; json: boolean },
): Promise<number> {
  const limit = options.limit === undefined ? 8 : Number(options.limit)
  if (options.query.trim() === '' || !(Number.isInteger(limit) && limit >= 1 && limit <= 50)) {
    process.stderr.write('Usage: toolnexus search "<query>" [--limit 1-50]\n')
    return 2
  }
  const matches = await toolkit.search(options.query, { limit })
  if (options.json) process.stdout.write(`${JSON.stringify(matches, null, 2)}\n`)
  else
    process.stdout.write(
      table(
        ['tool', 'score', 'description'],
        matches.map((match) => [match.name, match.score.toFixed(2), match.description.split('\n')[0] ?? '']),
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
  const refused = providers.reduce((sum, provider) => sum + report.refused[provider], 0)
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
    return refused > 0 ? 1 : 0
  }
  const rows = report.tools.map((tool) => [
    tool.name,
    ...providers.map((provider) => cell(tool.providers[provider])),
  ])
  process.stdout.write(table(['tool', ...providers], rows))
  const details = report.tools.flatMap((tool) =>
    providers.flatMap((provider) => {
      const verdict = tool.providers[provider]
      if (verdict.status === 'as-is') return []
      const what = verdict.status === 'refused' ? verdict.reasons : verdict.lost
      return [`  ${tool.name} · ${provider} · ${verdict.status}: ${what.join('; ')}`]
    }),
  )
  if (details.length > 0) process.stdout.write(`\n${details.join('\n')}\n`)
  process.stdout.write(
    `\n${report.tools.length} tools; ${refused === 0 ? 'every tool is accepted by' : `${refused} refused by`} ${providers.join(', ')}\n`,
  )
  return refused > 0 ? 1 : 0
}

function cell(verdict: DoctorVerdict): string {
  switch (verdict.status) {
    case 'as-is':
      return 'as is'
    case 'lowered':
      return 'lowered'
    case 'refused':
      return 'REFUSED'
    default:
      return verdict satisfies never
  }
}

async function callTool(toolkit: Toolkit, rest: readonly string[]): Promise<number> {
  const [name, text = '{}'] = rest
  if (name === undefined) {
    process.stderr.write(`call needs a tool name: toolnexus call <tool> '<json args>'\n`)
    return 2
  }
  let args: unknown
  try {
    args = JSON.parse(text)
  } catch (error) {
    process.stderr.write(
      `The arguments are not JSON: ${error instanceof Error ? error.message : String(error)}\n`,
    )
    return 2
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    process.stderr.write('The arguments must be a JSON object.\n')
    return 2
  }
  const result = await toolkit.execute(name, args as Record<string, unknown>)
  ;(result.isError ? process.stderr : process.stdout).write(`${result.output}\n`)
  return result.isError ? 1 : 0
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`toolnexus: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  },
)
