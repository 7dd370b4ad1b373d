// Checking a parsed `mcp.json`: its sections, each server entry's kind, command or URL, OAuth settings,
// timeout and tool filter, into one plan per server.
import { isAbsolute, resolve } from 'node:path'
import { ConfigError } from '../errors.js'
import { didYouMean } from '../shared/did-you-mean.js'
import { isRecord } from '../shared/is-record.js'
import { secretNames } from '../shared/secret-names.js'
import { DEFAULT_MCP_TIMEOUT_MS } from './mcp-config.js'
import type {
  McpServerPlan,
  ParsedMcpConfig,
  ParseMcpConfigOptions,
  RemoteServerPlan,
  ToolFilter,
} from './mcp-server-plan.js'
import { type McpProtocolChoice, PROTOCOL_CHOICES } from './negotiate-era.js'
import { oauthPlanOf } from './parse-oauth-plan.js'
import {
  describeValue,
  type EntryContext,
  EntryProblem,
  expandEntryEnv,
  expandEntryHeaders,
  expandEntryValue,
  optionalBoolean,
  optionalString,
  parseUrl,
  stringList,
  stringMap,
  urlSecrets,
} from './read-entry-value.js'

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
  'protocol',
  'taskWaitMs',
]
const LOCAL_TYPES = new Set(['local', 'stdio'])
const STREAMABLE_TYPES = new Set(['remote', 'http', 'streamable-http', 'streamablehttp'])

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
      `MCP config ${origin} must be a JSON object with "mcpServers" (or "servers", or "mcp"); got ${describeValue(value)}.`,
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
          `got ${describeValue(entries)}.`,
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

function planServer(name: string, entry: unknown, context: EntryContext): McpServerPlan {
  try {
    if (!isRecord(entry)) {
      throw new EntryProblem(`must be an object with "command" or "url"; got ${describeValue(entry)}`)
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
  const protocolVersion = protocolOf(entry)
  const tools = toolFilterOf(entry)
  const taskWait = taskWaitOf(entry)
  const secrets: string[] = []
  if (type === 'stdio') {
    const { command, args } = commandOf(entry)
    const env = expandEntryEnv(
      { ...stringMap(entry, 'environment'), ...stringMap(entry, 'env') },
      context,
      secrets,
    )
    const cwd = optionalString(entry, 'cwd')
    return {
      kind: 'stdio',
      name,
      command: isRelativePath(command) ? resolve(context.baseDir, command) : command,
      args: args.map((arg, index) => expandEntryValue(arg, `args[${index}]`, context, secrets)),
      env,
      cwd: cwd === undefined ? undefined : resolve(context.baseDir, cwd),
      timeoutMs,
      protocolVersion,
      ...taskWait,
      tools,
      secrets,
    }
  }
  const rawUrl = optionalString(entry, 'url')
  if (rawUrl === undefined) throw new EntryProblem(`"type": "${String(entry.type)}" needs a "url"`)
  const url = parseUrl(expandEntryValue(rawUrl, 'url', context, secrets, true))
  secrets.push(...urlSecrets(url, context.names))
  const headers = expandEntryHeaders(stringMap(entry, 'headers'), context, secrets)
  const plan: RemoteServerPlan = {
    kind: 'remote',
    name,
    url,
    protocol: type,
    headers,
    timeoutMs,
    protocolVersion,
    ...taskWait,
    tools,
    secrets,
  }
  const auth = oauthPlanOf(entry, context, secrets)
  if (auth !== undefined) plan.auth = auth
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
      typeof raw === 'string' ? JSON.stringify(raw) : describeValue(raw)
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
      `got ${describeValue(raw)}`,
  )
}

function timeoutOf(entry: Record<string, unknown>): number {
  const raw = entry.timeout
  if (raw === undefined) return DEFAULT_MCP_TIMEOUT_MS
  if (typeof raw === 'number' && Number.isFinite(raw) && raw > 0) return raw
  throw new EntryProblem(`"timeout" must be a positive number of milliseconds; got ${describeValue(raw)}`)
}

/** The entry's `taskWaitMs`, when it has one: a positive whole number of milliseconds. */
function taskWaitOf(entry: Record<string, unknown>): { taskWaitMs?: number } {
  const raw = entry.taskWaitMs
  if (raw === undefined) return {}
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return { taskWaitMs: raw }
  throw new EntryProblem(
    `"taskWaitMs" must be a positive whole number of milliseconds (how long a task is polled before the run suspends); got ${describeValue(raw)}`,
  )
}

function protocolOf(entry: Record<string, unknown>): McpProtocolChoice {
  const raw = entry.protocol
  if (raw === undefined) return 'auto'
  if (PROTOCOL_CHOICES.includes(raw as McpProtocolChoice)) return raw as McpProtocolChoice
  throw new EntryProblem(
    `"protocol" must be one of ${PROTOCOL_CHOICES.map((choice) => `"${choice}"`).join(', ')}; got ${typeof raw === 'string' ? JSON.stringify(raw) : describeValue(raw)}`,
  )
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

/** A command with a folder in it is a path (resolved against the config); a bare name is looked up on PATH. */
function isRelativePath(command: string): boolean {
  return !isAbsolute(command) && /[\\/]/.test(command)
}
