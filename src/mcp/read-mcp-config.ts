// Finding an `mcp.json` and reading its text: a path, the config's own JSON text, or the parsed object.
import { dirname, resolve } from 'node:path'
import { ConfigError } from '../errors.js'
import { readConfigFile } from '../shared/read-config-file.js'
import { errorMessage } from '../tool/tool-result.js'
import type { McpConfig } from './mcp-config.js'
import type { ParsedMcpConfig } from './mcp-server-plan.js'
import { parseJsonWithComments } from './parse-json-with-comments.js'
import { parseMcpConfig } from './parse-mcp-config.js'

/**
 * Reads an `mcp.json` (a path, relative to `cwd`; its JSON text, when the string starts with `{`; or the
 * parsed object) and checks it. A config that cannot be read or has the wrong shape throws a
 * `ConfigError` naming the file and the field; a bad server entry only makes that server `invalid`.
 *
 * @example
 * const { servers } = await readMcpConfig('./mcp.json')
 * servers.map((server) => `${server.name}: ${server.kind}`)
 */
export async function readMcpConfig(
  config: string | McpConfig,
  options: {
    cwd?: string
    env?: Readonly<Record<string, string | undefined>>
    secretNames?: readonly string[]
  } = {},
): Promise<ParsedMcpConfig> {
  const cwd = options.cwd ?? process.cwd()
  const env = options.env ?? process.env
  const secretNames = options.secretNames ?? []
  if (typeof config !== 'string') {
    return parseMcpConfig(config, { origin: 'mcpConfig', baseDir: cwd, env, secretNames })
  }
  // No file name starts with `{`: such a string is the config's own text (as other ports accept it).
  if (config.trimStart().startsWith('{')) {
    return parseMcpConfig(parseText(config, 'mcpConfig', undefined), {
      origin: 'mcpConfig',
      baseDir: cwd,
      env,
      secretNames,
    })
  }
  const path = resolve(cwd, config)
  let text: string
  try {
    text = await readConfigFile(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const problem =
      code === 'ENOENT'
        ? `was not found (resolved against the working directory ${cwd})`
        : `could not be read: ${errorMessage(error)}`
    throw new ConfigError(
      `MCP config ${path} ${problem}. Pass the path of an existing mcp.json as mcpConfig, or the parsed object.`,
      { cause: error, file: path },
    )
  }
  return parseMcpConfig(parseText(text, path, path), {
    origin: path,
    baseDir: dirname(path),
    env,
    secretNames,
  })
}

function parseText(text: string, origin: string, file: string | undefined): unknown {
  try {
    return parseJsonWithComments(text)
  } catch (error) {
    throw new ConfigError(
      `MCP config ${origin} is not valid JSON${locate(text, error)}: ${errorMessage(error)}. Fix the ${file === undefined ? 'text' : "file's"} syntax.`,
      { cause: error, ...(file !== undefined && { file }) },
    )
  }
}

/** ` at line L, column C` for a JSON error that gives a character position. */
function locate(text: string, error: unknown): string {
  const position = /position (\d+)/.exec(errorMessage(error))?.[1]
  if (position === undefined) return ''
  const before = text.slice(0, Number(position))
  const line = before.split('\n').length
  const column = before.length - before.lastIndexOf('\n')
  return ` at line ${line}, column ${column}`
}
