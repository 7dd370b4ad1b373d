import { ConfigError } from '../errors.js'
import { httpTool } from '../http/http-tool.js'
import type { HttpToolSpec } from '../http/http-tool-spec.js'
import type { McpConfig } from '../mcp/mcp-config.js'
import type { ElicitationHandler, ElicitationMode, McpSource } from '../mcp/mcp-source.js'
import type { OAuthOptions } from '../mcp/oauth-options.js'
import { readSearchOptions, type ToolSearchOptions } from '../search/tool-search.js'
import { DEFAULT_MAX_OUTPUT_CHARS } from '../shared/cap-text.js'
import { consoleLogger, type Logger } from '../shared/logger.js'
import type { SkillsSource } from '../skills/skills-source.js'
import { DEFAULT_MAX_MEDIA_BYTES } from '../tool/tool-media.js'
import type { Tool } from '../tool/types.js'
import { type ApprovalPolicy, readApprovalPolicy } from './approval-policy.js'
import { checkToolsOption } from './check-tools-option.js'
import { DefaultToolkit } from './default-toolkit.js'
import { DEFAULT_TOOL_TIMEOUT_MS } from './run-tool.js'
import type { Toolkit } from './toolkit.js'
import { registerToolkitSecrets } from './toolkit-secrets.js'

export type { Toolkit } from './toolkit.js'

/** What `createToolkit` takes. Every source is optional; tools join in the order MCP → skill → HTTP → host. */
export interface ToolkitOptions {
  /** Host tools (`defineTool`, `fromAISDK`, your own `Tool` objects). */
  tools?: readonly Tool[]
  /** A path to an `mcp.json` (relative to the working directory), or the parsed object. */
  mcpConfig?: string | McpConfig
  /** Folders searched for `**\/SKILL.md`. */
  skillsDir?: string | readonly string[]
  /**
   * Skills to keep or drop by name, like an MCP server's `tools`: with any `true`, only those load;
   * otherwise every skill but the `false` ones. A name no skill has gets a warning.
   */
  skillsFilter?: Readonly<Record<string, boolean>>
  /** Skill names to leave out (each read as `false` in `skillsFilter`, unless that names it itself). */
  disableSkills?: readonly string[]
  /** HTTP endpoints exposed as tools. */
  http?: readonly HttpToolSpec[]
  /** Exposed names to leave out. */
  disableTools?: readonly string[]
  /** Where warnings go. @default console */
  logger?: Logger
  /** Milliseconds a tool call may take before it is answered with an error. @default 60000 */
  toolTimeoutMs?: number
  /** Characters of a tool's output kept before it is cut with a visible marker. @default 100000 */
  maxOutputChars?: number
  /**
   * Bytes of media (images, audio) one tool result may carry to the model; media past it are left out and
   * the output says so. @default 5242880 (5 MiB)
   */
  maxMediaBytes?: number
  /**
   * Tools whose calls wait for a person's approval, besides those whose own `needsApproval` says so: by
   * exposed name, and MCP tools their server marks destructive.
   */
  approval?: ApprovalPolicy
  /**
   * Answers an MCP server's elicitation request (a question for the user, form mode). Without it the
   * toolkit does not advertise elicitation, so servers do not ask.
   */
  onElicitation?: ElicitationHandler
  /**
   * The elicitation modes declared to MCP servers when `onElicitation` is set. `'url'` mode asks the user
   * to open a page (a sign-in, a payment): add it only when the handler reads `request.mode` and shows the
   * `url`. A request in a mode not listed never reaches the handler. @default ['form']
   * @example
   * createToolkit({
   *   mcpConfig: './mcp.json',
   *   elicitationModes: ['form', 'url'],
   *   onElicitation: async (request) =>
   *     request.mode === 'url' ? askToOpen(request.message, request.url) : askWithForm(request),
   * })
   */
  elicitationModes?: readonly ElicitationMode[]
  /**
   * Declares elicitation, sampling and roots to MCP servers, so that when this toolkit is served over MCP
   * (`toolnexus/mcp-server`), a 2025-era server's questions mid-call (`elicitation/create`,
   * `sampling/createMessage`, `roots/list`) go to the gateway's caller, as a 2026-07-28 server's do
   * without it. A question with no caller to take it (the toolkit used directly, a caller that did not
   * declare the capability, several requests in flight to that server) goes to `onElicitation`
   * (declined without one); sampling and roots are refused. @default false
   * @example
   * const toolkit = await createToolkit({ mcpConfig: './mcp.json', forwardMcpInput: true })
   * export const POST = createMcpHandler({ toolkit, authorize })
   */
  forwardMcpInput?: boolean
  /** Exposes each MCP server's resources as tools: `<server>_list_resources`, `<server>_read_resource`. @default false */
  exposeMcpResources?: boolean
  /** Exposes each MCP server's prompts as a tool: `<server>_get_prompt`. @default false */
  exposeMcpPrompts?: boolean
  /**
   * OAuth for remote MCP servers whose `mcp.json` entry has `auth`: the handler that runs the browser
   * step of the authorization code flow, the redirect URL, and where tokens are kept.
   */
  oauth?: OAuthOptions
  /**
   * Environment variables whose values are secrets, besides those whose names say so (names holding key,
   * token, secret, password, pass, pwd, auth, credential, cookie, session or private). Their values in an
   * MCP server's `env`, in a `${VAR}` and in this process's environment are masked wherever toolnexus
   * writes (outputs, errors, warnings, telemetry). Other `env` values, such as `READ_ONLY` or `LOG_LEVEL`,
   * are passed on and never masked.
   * @example ['DATABASE_URL', 'SENTRY_DSN']
   */
  secrets?: readonly string[]
  /**
   * Tool search: the loop sends the `alwaysLoaded` tools and one `search_tools` tool instead of every
   * tool, and the tools a search finds join the request from the next step on (appended, so earlier
   * definitions never change or move). Off: every tool in every request.
   */
  search?: ToolSearchOptions
}

/**
 * Builds a toolkit from host tools, an `mcp.json`, skill folders and HTTP endpoints. MCP servers connect in
 * parallel; one that fails is reported by `mcpStatus()` and never fails the toolkit.
 *
 * @example
 * await using tk = await createToolkit({
 *   tools: [weather],
 *   mcpConfig: './mcp.json',
 *   skillsDir: './skills',
 * })
 * await tk.execute('get_weather', { city: 'Chennai' })
 * tk.toGemini() // [{ functionDeclarations: [...] }]
 */
export async function createToolkit(options: ToolkitOptions = {}): Promise<Toolkit> {
  const { secrets } = options
  if (
    secrets !== undefined &&
    (!Array.isArray(secrets) || secrets.some((name) => typeof name !== 'string'))
  ) {
    throw new ConfigError(
      "`secrets` must be an array of environment variable names, like ['DATABASE_URL'].",
      {
        field: 'secrets',
      },
    )
  }
  checkElicitationModes(options.elicitationModes)
  checkOAuthHandlers(options.oauth)
  // Before any server starts: AI SDK tools passed as they are get the way to bring them in.
  checkToolsOption(options.tools)
  // Every warning, from any source, is both logged and kept for `warnings()`.
  const warnings: string[] = []
  const sink = options.logger ?? consoleLogger
  const logger: Logger = {
    warn(message) {
      warnings.push(message)
      sink.warn(message)
    },
    ...(sink.info !== undefined && { info: (message: string) => sink.info?.(message) }),
    ...(sink.debug !== undefined && { debug: (message: string) => sink.debug?.(message) }),
  }
  const [mcp, skills] = await Promise.all([loadMcp(options, logger), loadSkillsSource(options, logger)])
  const approval = readApprovalPolicy(options.approval)
  const search = readSearchOptions(options.search)
  const http = (options.http ?? []).map((spec) => httpTool(spec))
  // Where each tool came from, for the warnings that name two tools.
  const origins = new WeakMap<Tool, string>()
  for (const tool of skills?.tools ?? []) origins.set(tool, 'skillsDir')
  for (const [index, tool] of http.entries()) origins.set(tool, `http[${index}]`)
  for (const [index, tool] of (options.tools ?? []).entries()) origins.set(tool, `tools[${index}]`)
  const toolkit = new DefaultToolkit({
    origins,
    approval,
    logger,
    warnings,
    mcp,
    skills,
    tools: [...(skills?.tools ?? []), ...http, ...(options.tools ?? [])],
    disabled: new Set(options.disableTools ?? []),
    search,
    limits: {
      timeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      maxOutputChars: options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS,
      maxMediaBytes: options.maxMediaBytes ?? DEFAULT_MAX_MEDIA_BYTES,
    },
  })
  registerToolkitSecrets(toolkit, {
    mcp: () => mcp?.secrets() ?? [],
    tools: () => toolkit.tools(),
    names: options.secrets ?? [],
  })
  if (logger.debug !== undefined) {
    const bySource = new Map<string, number>()
    for (const tool of toolkit.tools()) bySource.set(tool.source, (bySource.get(tool.source) ?? 0) + 1)
    const counts = [...bySource].map(([source, count]) => `${source} ${count}`).join(', ')
    logger.debug(`toolkit assembled: ${toolkit.tools().length} tools${counts === '' ? '' : ` (${counts})`}`)
  }
  return toolkit
}

/** `elicitationModes` is a non-empty list of `'form'` and `'url'`, each at most once. */
function checkElicitationModes(modes: unknown): void {
  if (modes === undefined) return
  const known: readonly unknown[] = ['form', 'url']
  if (
    !Array.isArray(modes) ||
    modes.length === 0 ||
    modes.some((mode) => !known.includes(mode)) ||
    new Set(modes).size !== modes.length
  ) {
    throw new ConfigError(
      "`elicitationModes` must list 'form' and/or 'url', each once, like ['form'] or ['form', 'url'].",
      { field: 'elicitationModes' },
    )
  }
}

/** `oauth`'s handlers are functions: one that is not would fail only when a server first asks. */
function checkOAuthHandlers(oauth: unknown): void {
  if (oauth === undefined) return
  if (typeof oauth !== 'object' || oauth === null) {
    throw new ConfigError(
      '`oauth` must be an object, like { onAuthorization, redirectUrl } or { idToken }.',
      {
        field: 'oauth',
      },
    )
  }
  for (const name of ['onAuthorization', 'idToken'] as const) {
    const handler = (oauth as Record<string, unknown>)[name]
    if (handler !== undefined && typeof handler !== 'function') {
      throw new ConfigError(`\`oauth.${name}\` must be a function, like async ({ server }) => … .`, {
        field: `oauth.${name}`,
      })
    }
  }
}

// The sources that need Node load on demand, so the root entry stays importable on edge runtimes.
async function loadMcp(options: ToolkitOptions, logger: Logger): Promise<McpSource | undefined> {
  if (options.mcpConfig === undefined) return undefined
  const { loadMcpSource } = await import('../mcp/load-mcp-source.js')
  return loadMcpSource(options.mcpConfig, {
    logger,
    ...(options.onElicitation !== undefined && { onElicitation: options.onElicitation }),
    ...(options.elicitationModes !== undefined && { elicitationModes: options.elicitationModes }),
    ...(options.forwardMcpInput !== undefined && { forwardInput: options.forwardMcpInput }),
    ...(options.exposeMcpResources !== undefined && { exposeResources: options.exposeMcpResources }),
    ...(options.exposeMcpPrompts !== undefined && { exposePrompts: options.exposeMcpPrompts }),
    ...(options.oauth !== undefined && { oauth: options.oauth }),
    ...(options.secrets !== undefined && { secretNames: options.secrets }),
  })
}

async function loadSkillsSource(options: ToolkitOptions, logger: Logger): Promise<SkillsSource | undefined> {
  if (options.skillsDir === undefined) return undefined
  const { loadSkills } = await import('../skills/load-skills.js')
  const roots = typeof options.skillsDir === 'string' ? [options.skillsDir] : [...options.skillsDir]
  const dropped = Object.fromEntries((options.disableSkills ?? []).map((name) => [name, false]))
  const filter = { ...dropped, ...options.skillsFilter }
  return loadSkills(roots, { logger, ...(Object.keys(filter).length > 0 ? { filter } : {}) })
}
