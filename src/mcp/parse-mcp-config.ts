import { dirname, isAbsolute, resolve } from 'node:path'
import { ConfigError } from '../errors.js'
import { didYouMean } from '../shared/did-you-mean.js'
import { expandEnvVars } from '../shared/expand-env-vars.js'
import { isRecord } from '../shared/is-record.js'
import { readConfigFile } from '../shared/read-config-file.js'
import { secretPartsOf } from '../shared/scrub-secrets.js'
import { headerIsSecret, type SecretNames, secretNames } from '../shared/secret-names.js'
import { errorMessage } from '../tool/tool-result.js'
import { DEFAULT_MCP_TIMEOUT_MS, type McpAuthConfig, type McpConfig } from './mcp-config.js'
import { parseJsonWithComments } from './parse-json-with-comments.js'

/**
 * Which of a server's tools load, by the server's own names.
 *
 * @example
 * const filter: ToolFilter = { allow: new Set(['search']), drop: new Set() }
 */
export interface ToolFilter {
  /** When set, only these load. */
  allow: ReadonlySet<string> | undefined
  /** These never load. */
  drop: ReadonlySet<string>
}

/**
 * A local server: a process spoken to over stdin/stdout.
 *
 * @example
 * const { servers } = await readMcpConfig('./mcp.json')
 * const local = servers.filter((plan): plan is StdioServerPlan => plan.kind === 'stdio')
 */
export interface StdioServerPlan {
  kind: 'stdio'
  name: string
  command: string
  args: string[]
  /** Only the server's own variables; the process environment is added when it starts. */
  env: Record<string, string>
  cwd: string | undefined
  timeoutMs: number
  tools: ToolFilter
  /** Values that must never be shown (env values, expanded variables). */
  secrets: string[]
}

/**
 * A remote server: streamable HTTP (falling back to SSE), or SSE only.
 *
 * @example
 * const { servers } = await readMcpConfig('./mcp.json')
 * const remote = servers.filter((plan): plan is RemoteServerPlan => plan.kind === 'remote')
 */
export interface RemoteServerPlan {
  kind: 'remote'
  name: string
  url: URL
  protocol: 'streamable-http' | 'sse'
  headers: Record<string, string>
  timeoutMs: number
  tools: ToolFilter
  secrets: string[]
  /** OAuth, when the entry has `auth`. */
  auth?: OAuthPlan
}

/**
 * How a remote server is authorized (the entry's `auth`, its values expanded): the grant, and a
 * pre-registered client when `clientId` is given (otherwise the client registers itself dynamically).
 *
 * @example
 * const plan: OAuthPlan = { grant: 'client_credentials', clientId: 'svc', clientSecret: 's3cret' }
 */
export type OAuthPlan = Omit<McpAuthConfig, 'grant'> & { grant: NonNullable<McpAuthConfig['grant']> }

/**
 * What the config says about one server: how to reach it, or why it is skipped (`disabled`) or cannot be
 * used (`invalid`, with a reason that names the field to change).
 *
 * @example
 * const plan: McpServerPlan = { kind: 'disabled', name: 'old', reason: 'disabled in the config ("enabled": false)' }
 */
export type McpServerPlan =
  | StdioServerPlan
  | RemoteServerPlan
  | { kind: 'disabled'; name: string; reason: string }
  | { kind: 'invalid'; name: string; reason: string }

/**
 * A checked `mcp.json`: one plan per server, in config order, and what was noticed on the way.
 *
 * @example
 * const { servers, warnings }: ParsedMcpConfig = await readMcpConfig('./mcp.json')
 */
export interface ParsedMcpConfig {
  servers: McpServerPlan[]
  warnings: string[]
}

/**
 * Where a config came from and what it may read: relative paths resolve against `baseDir`.
 *
 * @example
 * const options: ParseMcpConfigOptions = { origin: '/app/mcp.json', baseDir: '/app', env: process.env }
 */
export interface ParseMcpConfigOptions {
  /** Names the config in messages: its file path, or `mcpConfig` for an object. */
  origin: string
  /** The folder relative commands and `cwd` resolve against. */
  baseDir: string
  /** The variables `${VAR}` expands from. */
  env: Readonly<Record<string, string | undefined>>
  /**
   * Environment variables whose values are secrets besides those whose names mark one (the toolkit's
   * `secrets`).
   */
  secretNames?: readonly string[]
}

const SECTIONS = ['mcpServers', 'servers', 'mcp'] as const
/** The keys a server entry may have; a key close to one of these is most likely a typo of it. */
const SERVER_KEYS = [
  'type',
  'command',
  'args',
  'env',
  'environment',
  'cwd',
  'url',
  'headers',
  'enabled',
  'disabled',
  'timeout',
  'tools',
]
const LOCAL_TYPES = new Set(['local', 'stdio'])
const STREAMABLE_TYPES = new Set(['remote', 'http', 'streamable-http', 'streamablehttp'])

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

/**
 * Checks a parsed `mcp.json`. Throws a `ConfigError` when the whole config has the wrong shape; a bad server
 * entry becomes an `invalid` plan with a reason instead, so the other servers still load.
 *
 * @example
 * const { servers } = parseMcpConfig(
 *   { mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'] } } },
 *   { origin: 'mcpConfig', baseDir: process.cwd(), env: process.env },
 * )
 */
export function parseMcpConfig(value: unknown, options: ParseMcpConfigOptions): ParsedMcpConfig {
  const { origin } = options
  const names = secretNames(options.secretNames)
  const file = origin === 'mcpConfig' ? {} : { file: origin }
  if (!isRecord(value)) {
    throw new ConfigError(
      `MCP config ${origin} must be a JSON object with "mcpServers" (or "servers", or "mcp"); got ${describe(value)}.`,
      file,
    )
  }
  // A bare map of servers ({ "github": { "command": … } }), as other ports accept it, is read as mcpServers.
  const config =
    SECTIONS.some((section) => value[section] !== undefined) || !isServerMap(value)
      ? value
      : { mcpServers: value }
  const present = SECTIONS.filter((section) => config[section] !== undefined)
  if (present.length === 0) {
    const typo = Object.keys(config)
      .map((key) => ({ key, guess: didYouMean(key, SECTIONS) }))
      .find((each) => each.guess !== undefined)
    throw new ConfigError(
      `MCP config ${origin} has no servers: put them under "mcpServers": { "<name>": { "command": ... } } ` +
        `(also accepted: "servers", "mcp").` +
        (typo === undefined ? '' : ` Did you mean "${typo.guess}"? (found "${typo.key}")`),
      { ...file, field: typo?.key ?? 'mcpServers' },
    )
  }
  const servers: McpServerPlan[] = []
  const warnings: string[] = []
  const seen = new Map<string, string>()
  for (const section of present) {
    const entries = config[section]
    if (!isRecord(entries)) {
      throw new ConfigError(
        `MCP config ${origin}: "${section}" must be an object mapping server names to their settings; ` +
          `got ${describe(entries)}.`,
        { ...file, field: section },
      )
    }
    for (const [name, entry] of Object.entries(entries)) {
      const first = seen.get(name)
      if (first !== undefined) {
        warnings.push(
          `MCP server "${name}" appears under both "${first}" and "${section}" in ${origin}: kept the one under "${first}".`,
        )
        continue
      }
      seen.set(name, section)
      const path = `${section}.${name}`
      const plan = planServer(name, entry, { ...options, path, names })
      // An invalid entry's reason carries the hint already.
      for (const typo of plan.kind === 'invalid' ? [] : keyTypos(entry)) {
        warnings.push(
          `MCP server "${name}" (${path} in ${origin}) has an unknown key "${typo.key}": did you mean "${typo.guess}"?`,
        )
      }
      servers.push(plan)
    }
  }
  return { servers, warnings }
}

/** A field of one server entry that has to change; the message names the field, never its value. */
class EntryProblem extends Error {}

interface EntryContext extends ParseMcpConfigOptions {
  /** The entry's path in the config, such as `mcpServers.github`. */
  path: string
  /** Which variables hold secrets. */
  names: SecretNames
}

function planServer(name: string, entry: unknown, context: EntryContext): McpServerPlan {
  try {
    if (!isRecord(entry)) {
      throw new EntryProblem(`must be an object with "command" or "url"; got ${describe(entry)}`)
    }
    const enabled = optionalBoolean(entry, 'enabled')
    const disabled = optionalBoolean(entry, 'disabled')
    if (enabled === false)
      return { kind: 'disabled', name, reason: 'disabled in the config ("enabled": false)' }
    if (disabled === true)
      return { kind: 'disabled', name, reason: 'disabled in the config ("disabled": true)' }
    return planEnabledServer(name, entry, context)
  } catch (error) {
    if (!(error instanceof EntryProblem)) throw error
    const hints = keyTypos(entry).map((typo) => `; did you mean "${typo.guess}"? (found "${typo.key}")`)
    return {
      kind: 'invalid',
      name,
      reason: `${error.message}${hints.join('')} (${context.path} in ${context.origin})`,
    }
  }
}

/** The keys of a server entry that are near misses of a known key (`comand` for `command`). */
function keyTypos(entry: unknown): { key: string; guess: string }[] {
  if (!isRecord(entry)) return []
  return Object.keys(entry).flatMap((key) => {
    if (SERVER_KEYS.includes(key)) return []
    const guess = didYouMean(key, SERVER_KEYS)
    return guess === undefined || entry[guess] !== undefined ? [] : [{ key, guess }]
  })
}

/** Whether every value is a server entry: an object with `command`, `url` or `type`. */
function isServerMap(value: Record<string, unknown>): boolean {
  const entries = Object.values(value)
  return (
    entries.length > 0 &&
    entries.every(
      (entry) =>
        isRecord(entry) &&
        (entry.command !== undefined || entry.url !== undefined || entry.type !== undefined),
    )
  )
}

function planEnabledServer(
  name: string,
  entry: Record<string, unknown>,
  context: EntryContext,
): McpServerPlan {
  const type = serverType(entry)
  const timeoutMs = timeoutOf(entry)
  const tools = toolFilterOf(entry)
  const secrets: string[] = []
  if (type === 'stdio') {
    const { command, args } = commandOf(entry)
    const env = expandEnv(
      { ...stringMap(entry, 'environment'), ...stringMap(entry, 'env') },
      context,
      secrets,
    )
    const cwd = optionalString(entry, 'cwd')
    return {
      kind: 'stdio',
      name,
      command: isRelativePath(command) ? resolve(context.baseDir, command) : command,
      args: args.map((arg, index) => expand(arg, `args[${index}]`, context, secrets)),
      env,
      cwd: cwd === undefined ? undefined : resolve(context.baseDir, cwd),
      timeoutMs,
      tools,
      secrets,
    }
  }
  const rawUrl = optionalString(entry, 'url')
  if (rawUrl === undefined) throw new EntryProblem(`"type": "${String(entry.type)}" needs a "url"`)
  const url = parseUrl(expand(rawUrl, 'url', context, secrets, true))
  secrets.push(...urlSecrets(url, context.names))
  const headers = expandHeaders(stringMap(entry, 'headers'), context, secrets)
  const plan: RemoteServerPlan = {
    kind: 'remote',
    name,
    url,
    protocol: type,
    headers,
    timeoutMs,
    tools,
    secrets,
  }
  const auth = oauthPlanOf(entry, context, secrets)
  if (auth !== undefined) plan.auth = auth
  return plan
}

const GRANTS = new Set(['authorization_code', 'client_credentials'])

/** The entry's `auth`; `clientSecret` is a secret even when written literally. */
function oauthPlanOf(
  entry: Record<string, unknown>,
  context: EntryContext,
  secrets: string[],
): OAuthPlan | undefined {
  const raw = entry.auth
  if (raw === undefined) return undefined
  if (!isRecord(raw)) throw new EntryProblem(`"auth" must be an object; got ${describe(raw)}`)
  const field = (key: string): string | undefined => {
    const value = optionalString(raw, key)
    return value === undefined ? undefined : expand(value, `auth.${key}`, context, secrets)
  }
  const grant = optionalString(raw, 'grant') ?? 'authorization_code'
  if (!GRANTS.has(grant)) {
    throw new EntryProblem(
      `"auth.grant" must be "authorization_code" or "client_credentials"; got ${describe(grant)}`,
    )
  }
  const plan: OAuthPlan = { grant: grant as OAuthPlan['grant'] }
  const keys = [
    'clientId',
    'clientSecret',
    'scope',
    'redirectUrl',
    'clientMetadataUrl',
    'clientName',
  ] as const
  for (const key of keys) {
    const value = field(key)
    if (value !== undefined) plan[key] = value
  }
  if (plan.clientSecret !== undefined) secrets.push(...secretPartsOf(plan.clientSecret))
  if (
    plan.grant === 'client_credentials' &&
    (plan.clientId === undefined || plan.clientSecret === undefined)
  ) {
    throw new EntryProblem('"auth" with "grant": "client_credentials" needs "clientId" and "clientSecret"')
  }
  return plan
}

function serverType(entry: Record<string, unknown>): 'stdio' | 'streamable-http' | 'sse' {
  const raw = entry.type
  if (raw === undefined) {
    const hasCommand = entry.command !== undefined
    const hasUrl = entry.url !== undefined
    if (hasCommand && hasUrl) {
      throw new EntryProblem(`has both "command" and "url": set "type" to "local" or "remote"`)
    }
    if (hasCommand) return 'stdio'
    if (hasUrl) return 'streamable-http'
    throw new EntryProblem(`needs "command" (a local server) or "url" (a remote server)`)
  }
  const type = typeof raw === 'string' ? raw.trim().toLowerCase().replace(/_/g, '-') : undefined
  if (type !== undefined && LOCAL_TYPES.has(type)) return 'stdio'
  if (type !== undefined && STREAMABLE_TYPES.has(type)) return 'streamable-http'
  if (type === 'sse') return 'sse'
  throw new EntryProblem(
    `"type" must be one of "local", "stdio", "remote", "http", "streamable-http", "sse"; got ${
      typeof raw === 'string' ? JSON.stringify(raw) : describe(raw)
    }`,
  )
}

function commandOf(entry: Record<string, unknown>): { command: string; args: string[] } {
  const raw = entry.command
  const extra = entry.args === undefined ? [] : stringList(entry.args, 'args')
  if (typeof raw === 'string' && raw.trim() !== '') return { command: raw, args: extra }
  if (Array.isArray(raw) && raw.length > 0) {
    const [command, ...args] = stringList(raw, 'command')
    if (command !== undefined && command.trim() !== '') return { command, args: [...args, ...extra] }
  }
  throw new EntryProblem(
    `"command" must be a program name (with "args": [...]) or a non-empty array such as ["npx", "-y", "pkg"]; ` +
      `got ${describe(raw)}`,
  )
}

function timeoutOf(entry: Record<string, unknown>): number {
  const raw = entry.timeout
  if (raw === undefined) return DEFAULT_MCP_TIMEOUT_MS
  if (typeof raw === 'number' && Number.isFinite(raw) && raw > 0) return raw
  throw new EntryProblem(`"timeout" must be a positive number of milliseconds; got ${describe(raw)}`)
}

function toolFilterOf(entry: Record<string, unknown>): ToolFilter {
  const raw = entry.tools
  if (raw === undefined) return { allow: undefined, drop: new Set() }
  if (!isRecord(raw) || !Object.values(raw).every((value) => typeof value === 'boolean')) {
    throw new EntryProblem(
      `"tools" must map the server's tool names to true (allow) or false (drop), such as { "search": true }`,
    )
  }
  const allowed = Object.keys(raw).filter((tool) => raw[tool] === true)
  const dropped = Object.keys(raw).filter((tool) => raw[tool] === false)
  return { allow: allowed.length > 0 ? new Set(allowed) : undefined, drop: new Set(dropped) }
}

/**
 * Every header value expanded; each is a secret (a literal token needs no `${VAR}`) but those that only
 * describe the request (`Accept`, `Content-Type`).
 */
function expandHeaders(
  map: Record<string, string>,
  context: EntryContext,
  secrets: string[],
): Record<string, string> {
  const expanded = Object.entries(map).map(([key, raw]) => {
    const value = expand(raw, `headers.${key}`, context, secrets, true)
    if (headerIsSecret(key)) secrets.push(...secretPartsOf(value))
    return [key, value] as const
  })
  // fromEntries defines own properties, so a key such as "__proto__" is kept as a key.
  return Object.fromEntries(expanded)
}

/**
 * Every `env` value expanded; a value is a secret when its variable's name marks one (`API_TOKEN`) or the
 * toolkit lists it, and never otherwise (`READ_ONLY`, `LOG_LEVEL`, a base directory stay as they are).
 */
function expandEnv(
  map: Record<string, string>,
  context: EntryContext,
  secrets: string[],
): Record<string, string> {
  const expanded = Object.entries(map).map(([key, raw]) => {
    const value = expand(raw, `env.${key}`, context, secrets, false)
    if (context.names.marks(key)) secrets.push(...secretPartsOf(value))
    return [key, value] as const
  })
  return Object.fromEntries(expanded)
}

/** A URL's password, and its query values whose names mark a secret (`?api_key=…`). */
function urlSecrets(url: URL, names: SecretNames): string[] {
  const found: string[] = []
  if (url.password !== '') found.push(url.password, decodeURIComponent(url.password))
  for (const [name, value] of url.searchParams) if (names.marks(name)) found.push(value)
  return found
}

/**
 * `${VAR}` expanded. What went in is a secret when it went into a header or a URL (`always`), or when
 * its variable's name marks one.
 */
function expand(
  raw: string,
  field: string,
  context: EntryContext,
  secrets: string[],
  always = false,
): string {
  const expansion = expandEnvVars(raw, context.env)
  switch (expansion.kind) {
    case 'expanded':
      for (const { variable, value } of expansion.substituted) {
        if (always || context.names.marks(variable)) secrets.push(...secretPartsOf(value))
      }
      return expansion.value
    case 'missing':
      throw new EntryProblem(
        `environment variable "${expansion.variable}" is not set (used in "${field}"); set it, ` +
          `or give a default with \${${expansion.variable}:-default}`,
      )
    case 'unsupported':
      throw new EntryProblem(
        `"${field}" uses ${expansion.placeholder}, which cannot be expanded: only \${VAR}, \${env:VAR} and ` +
          `\${VAR:-default} are supported`,
      )
    default:
      return expansion satisfies never
  }
}

function parseUrl(text: string): URL {
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  // The URL itself is not shown: it may carry a key in its query.
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new EntryProblem(`"url" must be an absolute http:// or https:// URL`)
  }
  return url
}

function stringMap(entry: Record<string, unknown>, key: string): Record<string, string> {
  const raw = entry[key]
  if (raw === undefined) return {}
  if (!isRecord(raw))
    throw new EntryProblem(`"${key}" must be an object of string values; got ${describe(raw)}`)
  const entries = Object.entries(raw).map(([name, value]) => {
    // Numbers and booleans are what people write for ports and flags; the process sees them as text anyway.
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      return [name, String(value)] as const
    }
    throw new EntryProblem(`"${key}.${name}" must be a string; got ${describe(value)}`)
  })
  return Object.fromEntries(entries)
}

function stringList(raw: unknown, key: string): string[] {
  if (!Array.isArray(raw))
    throw new EntryProblem(`"${key}" must be an array of strings; got ${describe(raw)}`)
  return raw.map((item, index) => {
    if (typeof item === 'string') return item
    if (typeof item === 'number' || typeof item === 'boolean') return String(item)
    throw new EntryProblem(`"${key}[${index}]" must be a string; got ${describe(item)}`)
  })
}

function optionalString(entry: Record<string, unknown>, key: string): string | undefined {
  const raw = entry[key]
  if (raw === undefined || typeof raw === 'string') return raw
  throw new EntryProblem(`"${key}" must be a string; got ${describe(raw)}`)
}

function optionalBoolean(entry: Record<string, unknown>, key: string): boolean | undefined {
  const raw = entry[key]
  if (raw === undefined || typeof raw === 'boolean') return raw
  throw new EntryProblem(`"${key}" must be true or false; got ${describe(raw)}`)
}

/** A command with a folder in it is a path (resolved against the config); a bare name is looked up on PATH. */
function isRelativePath(command: string): boolean {
  return !isAbsolute(command) && /[\\/]/.test(command)
}

/** The kind of a value, for messages: never a string's text, which may be a secret. */
function describe(value: unknown): string {
  if (value === null) return 'null'
  if (value === undefined) return 'nothing'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'object':
      return 'an object'
    case 'string':
      return value === '' ? 'an empty string' : 'a string'
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`
    default:
      return `a ${typeof value}`
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
