#!/usr/bin/env node
// The `toolnexus` command: list, check and call the tools an mcp.json, skill folders and HTTP specs give.
import { access } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { HttpToolSpec } from '../http/http-tool-spec.js'
import { readConfigFile } from '../shared/read-config-file.js'
import { createToolkit } from '../toolkit/create-toolkit.js'
import { COMMANDS } from './commands.js'
import { startConnectProgress } from './connect-progress.js'
import { type CliArgs, readCliArgs, suggestion, UsageError } from './read-cli-args.js'

const USAGE = `Usage: toolnexus <command> [options]

Commands:
${COMMANDS.map((command) => {
  const head = `  ${command.name}${command.usage === undefined ? '' : ` ${command.usage}`}`
  const [first = '', ...more] = command.summary.split('\n')
  return [`${head.padEnd(28)}${first}`, ...more.map((line) => `${' '.repeat(28)}${line}`)].join('\n')
}).join('\n')}

Options:
  --mcp <mcp.json>          MCP servers to connect
  --skills <dir>            a folder of SKILL.md skills (repeatable)
  --http <spec.json>        HTTP tool specs: one spec or an array (repeatable)
  --provider <name>         doctor: gemini, openai, openai-strict or anthropic (repeatable; default all)
  --json                    print JSON instead of text
  -h, --help                this text`

/** Exit codes: 0 fine, 1 a tool refused / a call failed, 2 a usage or configuration error. */
async function main(argv: readonly string[]): Promise<number> {
  let args: CliArgs
  let prepared: unknown
  let http: HttpToolSpec[]
  let command: (typeof COMMANDS)[number] | undefined
  try {
    args = readCliArgs(argv)
    const [name, ...rest] = args.positionals
    if (args.values.help === true) {
      process.stdout.write(`${USAGE}\n`)
      return 0
    }
    if (name === undefined) throw new UsageError('Name a command.')
    command = COMMANDS.find((each) => each.name === name)
    if (command === undefined) {
      throw new UsageError(
        `Unknown command "${name}".${suggestion(
          name,
          COMMANDS.map((each) => each.name),
        )}`,
      )
    }
    prepared = command.prepare?.(rest, args)
    const { mcp, skills } = args.values
    if (mcp === undefined && skills === undefined && args.values.http === undefined) {
      throw new UsageError(
        'No tools to work with: pass --mcp <mcp.json>, --skills <dir> or --http <spec.json>.',
      )
    }
    if (mcp !== undefined) await mustExist(mcp, '--mcp', 'an mcp.json')
    for (const dir of skills ?? []) await mustExist(dir, '--skills', 'a folder of skills')
    http = await readHttpSpecs(args.values.http ?? [])
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    process.stderr.write(`${error.message}\n\n${USAGE}\n`)
    return 2
  }
  const { mcp, skills } = args.values
  const warnings: string[] = []
  const progress = mcp === undefined ? undefined : await startConnectProgress(mcp, process.stderr)
  let toolkit: Awaited<ReturnType<typeof createToolkit>>
  try {
    toolkit = await createToolkit({
      ...(mcp === undefined ? {} : { mcpConfig: mcp }),
      ...(skills === undefined ? {} : { skillsDir: skills }),
      http,
      logger: { warn: (message) => warnings.push(message) },
    })
  } catch (error) {
    progress?.fail()
    throw error
  }
  const status = Object.values(toolkit.mcpStatus())
  progress?.done(status.filter((each) => each === 'connected').length, status.length)
  try {
    for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`)
    return await command.run(toolkit, prepared, args)
  } finally {
    await toolkit.close()
  }
}

// A path the user typed that is not there: said with the option it came from, before anything starts.
async function mustExist(path: string, option: string, what: string): Promise<void> {
  try {
    await access(path)
  } catch {
    throw new UsageError(
      `${resolve(path)} was not found (${option} ${path}, resolved against ${process.cwd()}). Pass ${what} that exists: ${option} <path>.`,
    )
  }
}

async function readHttpSpecs(files: readonly string[]): Promise<HttpToolSpec[]> {
  const specs: HttpToolSpec[] = []
  for (const file of files) {
    let parsed: unknown
    try {
      parsed = JSON.parse(await readConfigFile(file))
    } catch (error) {
      throw new UsageError(
        `Cannot read the HTTP spec ${file} (--http): ${error instanceof Error ? error.message : String(error)}`,
      )
    }
    // The shape is checked where every spec is: httpTool refuses a bad one with the reason.
    for (const spec of Array.isArray(parsed) ? parsed : [parsed]) specs.push(spec as HttpToolSpec)
  }
  return specs
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
