// What a checked `mcp.json` becomes: one plan per server (how to start or reach it, or why it does not load).
import type { McpAuthConfig } from './mcp-config.js'
import type { McpProtocolChoice } from './negotiate-era.js'

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
  /** The entry's `protocol`: which era to speak (`auto` asks the server). */
  protocolVersion: McpProtocolChoice
  /** The entry's `taskWaitMs`: how long a task-augmented call is polled before the run suspends. */
  taskWaitMs?: number
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
  /** The entry's `protocol`: which era to speak (`auto` asks the server). */
  protocolVersion: McpProtocolChoice
  /** The entry's `taskWaitMs`: how long a task-augmented call is polled before the run suspends. */
  taskWaitMs?: number
  tools: ToolFilter
  secrets: string[]
  /** OAuth, when the entry has `auth`. */
  auth?: OAuthPlan
}

/**
 * How a remote server is authorized (the entry's `auth`, its values expanded): the grant, and a
 * pre-registered client when `clientId` is given (otherwise the client registers itself dynamically).
 * A `privateKey` is checked and read into `signingKey` (a private JWK and the algorithm it signs with).
 *
 * @example
 * const plan: OAuthPlan = { grant: 'client_credentials', clientId: 'svc', clientSecret: 's3cret' }
 */
export type OAuthPlan = Omit<McpAuthConfig, 'grant' | 'privateKey' | 'algorithm'> & {
  grant: NonNullable<McpAuthConfig['grant']>
  signingKey?: SigningKey
}

/**
 * A private key that signs client assertions, as a JWK, with the JWS algorithm it signs with.
 *
 * @example
 * const key: SigningKey = { jwk: { kty: 'EC', crv: 'P-256', x: '…', y: '…', d: '…' }, algorithm: 'ES256' }
 */
export interface SigningKey {
  jwk: Record<string, unknown>
  algorithm: string
}

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
