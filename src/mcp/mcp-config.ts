import type { McpProtocolChoice } from './negotiate-era.js'

/**
 * The ways a server's `type` may be spelled: `local`/`stdio` start a process; `remote`, `http` and
 * `streamable-http` speak streamable HTTP (falling back to SSE); `sse` speaks only SSE.
 *
 * @example
 * const type: McpServerType = 'stdio'
 */
export type McpServerType = 'local' | 'stdio' | 'remote' | 'http' | 'streamable-http' | 'sse'

/**
 * One server in an `mcp.json`. Both dialects are accepted: Claude Desktop (`command` + `args`, `env`)
 * and opencode (`command` as an array, `environment`).
 *
 * @example
 * const claude: McpServerConfig = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }
 * const opencode: McpServerConfig = { type: 'local', command: ['npx', '-y', '@modelcontextprotocol/server-everything'] }
 * const remote: McpServerConfig = { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } }
 */
export interface McpServerConfig {
  /** How to reach the server; inferred when absent (`url` ⇒ remote, `command` ⇒ local). */
  type?: McpServerType
  /**
   * The program to start: a string (with `args`), or the whole command line as an array. A relative path
   * (`./server.sh`, `bin/server`) resolves against the config file's folder; a bare name is looked up on `PATH`.
   */
  command?: string | string[]
  /** Arguments after `command` (also appended after an array `command`). */
  args?: string[]
  /** Extra environment for a local server, on top of the process environment; values expand `${VAR}`. */
  env?: Record<string, string>
  /** opencode's name for `env` (both may be given; `env` wins on a clash). */
  environment?: Record<string, string>
  /** The working directory of a local server, relative to the config file's folder. @default process.cwd() */
  cwd?: string
  /** A remote server's endpoint; expands `${VAR}`. */
  url?: string
  /** Headers sent to a remote server; values expand `${VAR}`. */
  headers?: Record<string, string>
  /** `false` skips the server (status `disabled`). @default true */
  enabled?: boolean
  /** `true` skips the server (status `disabled`). @default false */
  disabled?: boolean
  /** Milliseconds each phase (connect, initialize, list) may take. @default 30000 */
  timeout?: number
  /**
   * Which protocol era to speak: `auto` asks the server (`server/discover`) and falls back to the 2025
   * handshake; `2026-07-28` or `2025-11-25` pins one. @default 'auto'
   */
  protocol?: McpProtocolChoice
  /**
   * How long a call the server answers with a task is polled before the run suspends with it pending
   * (`result.tasks`), to be resumed on any instance with `client.resume`, which fetches its result.
   * Unset: the task is polled until the call's timeout.
   */
  taskWaitMs?: number
  /**
   * Allow (`true`) or drop (`false`) tools by the server's own names. With any `true`, only the allowed
   * tools load; otherwise every tool not set to `false` loads.
   */
  tools?: Record<string, boolean>
  /**
   * OAuth for a remote server. `grant` is `authorization_code` (PKCE; the host's
   * `oauth.onAuthorization` gets the browser URL and hands back where the browser returned) or
   * `client_credentials` (machine to machine, needs `clientId` and either `clientSecret` or a
   * `privateKey` that signs a JWT assertion), `cross_app_access` (enterprise-managed: the user's ID
   * token from the host's `oauth.idToken`, exchanged at the `idp` for a grant) or `jwt_bearer` (workload
   * identity: a JWT the platform issued, from `assertionFile` or `assertion`, is the grant). With `clientId` the client is pre-registered; without it,
   * it registers itself dynamically. Values expand `${VAR}`. An entry with only a `url` starts the
   * authorization code flow on a 401 challenge when the toolkit has `oauth.onAuthorization`.
   */
  auth?: McpAuthConfig
}

/**
 * A remote server's OAuth settings in an `mcp.json`.
 *
 * @example
 * const auth: McpAuthConfig = { grant: 'client_credentials', clientId: 'svc', clientSecret: '${SVC_SECRET}' }
 * const signed: McpAuthConfig = { grant: 'client_credentials', clientId: 'svc', privateKey: '${SVC_KEY}', algorithm: 'ES256' }
 * const workload: McpAuthConfig = { grant: 'jwt_bearer', clientId: 'ci', assertionFile: '/var/run/secrets/tokens/mcp' }
 * const enterprise: McpAuthConfig = {
 *   grant: 'cross_app_access',
 *   clientId: 'agent',
 *   clientSecret: '${MCP_SECRET}',
 *   idp: { issuer: 'https://acme.okta.com', clientId: 'agent-app' },
 * }
 */
export interface McpAuthConfig {
  /** @default 'authorization_code' */
  grant?: 'authorization_code' | 'client_credentials' | 'cross_app_access' | 'jwt_bearer'
  clientId?: string
  /** Kept out of every log, status and message, like `env` and `headers` values. */
  clientSecret?: string
  /**
   * For `client_credentials` without a secret: the client's private key, which signs a short-lived JWT
   * assertion for each token request (`private_key_jwt`). A PEM (PKCS#8, PKCS#1 or SEC1), a JWK as an
   * object or JSON text, usually `${VAR}` from the environment. Kept out of every log, like `clientSecret`.
   */
  privateKey?: string | Record<string, unknown>
  /**
   * The assertion's signing algorithm (`RS256`, `PS256`, `ES256`, `ES384`, `ES512`, `EdDSA`, …).
   * @default from the key: `RS256` for RSA, `ES256`/`ES384`/`ES512` by curve, `EdDSA` for Ed25519/Ed448
   */
  algorithm?: string
  /** The scopes to ask for (space-separated); by default what the server's metadata names. */
  scope?: string
  /** Where the authorization server redirects back to. @default the host's `oauth.redirectUrl` */
  redirectUrl?: string
  /** An HTTPS URL that serves this client's metadata document, used as its client id where supported. */
  clientMetadataUrl?: string
  /** The client name registered dynamically. @default 'toolnexus' */
  clientName?: string
  /**
   * For `jwt_bearer`: the file the platform keeps the workload's JWT in (a Kubernetes projected service
   * account token, a CI job's OIDC token), read again for each token request, since the platform
   * rotates it. Relative to the config's folder.
   */
  assertionFile?: string
  /** For `jwt_bearer`: the workload's JWT itself, usually `${VAR}`. Kept out of every log. */
  assertion?: string
  /**
   * For `cross_app_access`: the enterprise identity provider (the one the user signed in with) that
   * exchanges the user's ID token for a grant to this server (an ID-JAG, by RFC 8693 token exchange).
   * `clientSecret` is kept out of every log, like the others.
   */
  idp?: McpIdentityProvider
}

/**
 * The enterprise identity provider of an `mcp.json` entry with `"grant": "cross_app_access"`.
 *
 * @example
 * const idp: McpIdentityProvider = { issuer: 'https://acme.okta.com', clientId: 'agent-app', clientSecret: '${IDP_SECRET}' }
 */
export interface McpIdentityProvider {
  /** The identity provider's issuer URL; its token endpoint is found in its metadata. */
  issuer: string
  /** This app's client at the identity provider. */
  clientId: string
  clientSecret?: string
  /** The token endpoint, when the identity provider publishes no metadata. */
  tokenEndpoint?: string
}

/**
 * A whole `mcp.json`: servers under `mcpServers` (Claude Desktop, Cursor), `servers` (VS Code) or `mcp`
 * (opencode). Other top-level keys are ignored, so a whole `opencode.json` can be passed.
 *
 * @example
 * const config: McpConfig = {
 *   mcpServers: { files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] } },
 * }
 */
export interface McpConfig {
  mcpServers?: Record<string, McpServerConfig>
  servers?: Record<string, McpServerConfig>
  mcp?: Record<string, McpServerConfig>
}

/**
 * Milliseconds each connection phase of a server may take when its config gives no `timeout`.
 *
 * @example
 * const server: McpServerConfig = { command: 'slow-server', timeout: 2 * DEFAULT_MCP_TIMEOUT_MS }
 */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000
