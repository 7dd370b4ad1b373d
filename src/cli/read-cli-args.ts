// The `toolnexus` command line: its options, read with node:util's parseArgs, and a mistyped option or
// command answered with the nearest one instead of Node's parser text.
import { parseArgs } from 'node:util'
import { didYouMean } from '../shared/did-you-mean.js'

/** The options every command takes (`--name` → how parseArgs reads it). */
const OPTIONS = {
  mcp: { type: 'string' },
  skills: { type: 'string', multiple: true },
  http: { type: 'string', multiple: true },
  provider: { type: 'string', multiple: true },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The command line read: the options given, and the words after the command. */
export interface CliArgs {
  values: {
    mcp?: string
    skills?: string[]
    http?: string[]
    provider?: string[]
    limit?: string
    json?: boolean
    help?: boolean
  }
  positionals: string[]
}

/** A usage mistake: the message for stderr, with exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/**
 * Reads the command line. An option no command takes is a `UsageError` naming the nearest one.
 *
 * @example
 * readCliArgs(['tools', '--mcp', 'mcp.json']) // { values: { mcp: 'mcp.json' }, positionals: ['tools'] }
 * readCliArgs(['tools', '--mpc', 'mcp.json']) // throws UsageError: Unknown option --mpc. Did you mean --mcp?
 */
export function readCliArgs(argv: readonly string[]): CliArgs {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS })
    return { values, positionals }
  } catch (error) {
    const code = (error as { code?: unknown }).code
    const message = error instanceof Error ? error.message : String(error)
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'(-[^']*)'/.exec(message)?.[1] ?? ''
      throw new UsageError(`Unknown option ${option}.${suggestion(option, optionNames())}`)
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      const option = /'(-[^']*)'/.exec(message)?.[1]
      throw new UsageError(
        option === undefined
          ? message
          : `${option.split(/[ ,]/)[0]} needs a value: ${option.split(/[ ,]/)[0]} <value>.`,
      )
    }
    throw new UsageError(message)
  }
}

/**
 * ` Did you mean X?` for the nearest of `candidates`, or nothing when none is near.
 *
 * @example
 * suggestion('tols', ['tools', 'status']) // ' Did you mean tools?'
 */
export function suggestion(name: string, candidates: Iterable<string>): string {
  const guess = didYouMean(name, candidates)
  return guess === undefined ? '' : ` Did you mean ${guess}?`
}

function optionNames(): string[] {
  return Object.entries(OPTIONS).flatMap(([name, spec]) => [
    `--${name}`,
    ...('short' in spec ? [`-${spec.short}`] : []),
  ])
}
