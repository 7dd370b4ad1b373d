import { toAnthropic } from '../adapters/convert-to-anthropic-tools.js'
import { type ToGeminiOptions, toGemini } from '../adapters/convert-to-gemini-tools.js'
import { type ToOpenAIOptions, toOpenAI } from '../adapters/convert-to-openai-tools.js'
import { attachSchemaLogger } from '../adapters/schema-warnings.js'
import { type ToAISDKOptions, toAISDK } from '../adapters/to-ai-sdk.js'
import { type DoctorReport, diagnoseTools } from '../doctor/doctor.js'
import { ConfigError, McpRequestError, ToolDefinitionError } from '../errors.js'
import { httpTool } from '../http/http-tool.js'
import type { HttpToolSpec } from '../http/http-tool-spec.js'
import type { McpConfig } from '../mcp/mcp-config.js'
import type {
  ElicitationHandler,
  McpPrompt,
  McpPromptMessages,
  McpResource,
  McpResourceContents,
  McpResourceTemplate,
  McpServerInfo,
  McpServerStatus,
  McpSource,
} from '../mcp/mcp-source.js'
import type { OAuthOptions } from '../mcp/oauth-options.js'
import type { ToolMatch } from '../search/tool-index.js'
import {
  DEFAULT_SEARCH_LIMIT,
  MAX_SEARCH_LIMIT,
  readSearchOptions,
  type SearchCallOptions,
  ToolSearch,
  type ToolSearchOptions,
} from '../search/tool-search.js'
import { capText, DEFAULT_MAX_OUTPUT_CHARS, quoteShort } from '../shared/cap-text.js'
import { didYouMean, listNames } from '../shared/did-you-mean.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { consoleLogger, type Logger } from '../shared/logger.js'
import type { SkillsSource } from '../skills/skills-source.js'
import { checkArgs, invalidArgsMessage } from '../tool/check-args.js'
import { findSchemaProblem } from '../tool/find-schema-problem.js'
import { geminiToolName, TOOL_NAME_PATTERN } from '../tool/names.js'
import { DEFAULT_MAX_MEDIA_BYTES } from '../tool/tool-media.js'
import { errorResult, toolFailed } from '../tool/tool-result.js'
import type { NeedsApproval, Tool, ToolContext, ToolResult } from '../tool/types.js'
import { validatingTool } from '../tool/validating-tool.js'
import { type ApprovalPolicy, type ApprovalRules, readApprovalPolicy } from './approval-policy.js'
import { checkToolsOption } from './check-tools-option.js'
import { type RunToolLimits, runTool } from './run-tool.js'
import { registerApprovalLookup } from './toolkit-approvals.js'
import { registerToolkitSecrets } from './toolkit-secrets.js'

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
 * Every tool from every source under one roof: look them up, run them by exposed name with validated
 * arguments, and render them for any provider.
 */
export interface Toolkit extends AsyncDisposable {
  /** All tools, in assembly order. */
  tools(): readonly Tool[]
  /** The tool with this exposed name. */
  get(name: string): Tool | undefined
  /**
   * Runs a tool by exposed name. Never throws: an unknown name, arguments that break the schema, a throw,
   * a timeout or an abort all come back as error results the model can read.
   */
  execute(name: string, args: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>
  /**
   * Whether this call must wait for a person's approval: the tool's own `needsApproval` or the toolkit's
   * `approval` policy. `false` for unknown tools and for arguments that do not fit the schema (the call is
   * answered with the error, so nothing runs). A `needsApproval` function that throws means `true`.
   */
  needsApproval(name: string, args: Record<string, unknown>, toolCallId?: string): boolean | Promise<boolean>
  /**
   * The tools best matching a request, best first: a full-text ranking over each tool's name (split into
   * words), description, parameter names and descriptions, and its server's name and description (fused
   * with embeddings when `search.embeddings` is set). Works with or without the `search` option.
   */
  search(query: string, options?: SearchCallOptions): Promise<ToolMatch[]>
  /** The `search` options the toolkit was made with; `undefined` when the loop sends every tool. */
  readonly searchOptions?: ToolSearchOptions | undefined
  /** Adds tools after creation; a name already taken keeps its first owner (with a warning). */
  register(...tools: Tool[]): void
  /** The system-prompt block that lists the skills; empty when there are none. */
  skillsPrompt(): string
  /** Each configured MCP server's state. */
  mcpStatus(): Record<string, McpServerStatus>
  /** Each configured MCP server's state, reason and tools. */
  mcpServers(): Record<string, McpServerInfo>
  /** Every resource the connected MCP servers list (a server that fails to answer is left out, with a warning). */
  mcpResources(): Promise<McpResource[]>
  /** Every resource template the connected MCP servers list. */
  mcpResourceTemplates(): Promise<McpResourceTemplate[]>
  /** Reads one resource of one server; rejects with an `McpRequestError` when the server cannot. */
  readResource(server: string, uri: string): Promise<McpResourceContents>
  /** Every prompt the connected MCP servers list. */
  mcpPrompts(): Promise<McpPrompt[]>
  /** Renders one prompt of one server with its arguments; rejects with an `McpRequestError` when the server cannot. */
  getPrompt(server: string, name: string, args?: Record<string, string>): Promise<McpPromptMessages>
  /** Warnings raised while assembling (duplicate names, skipped skills, failed servers). */
  warnings(): readonly string[]
  /** Disconnects every MCP client and ends every child process the toolkit started. */
  close(): Promise<void>
  toOpenAI(options?: ToOpenAIOptions): ReturnType<typeof toOpenAI>
  /**
   * Checks every tool against each provider's schema rules (Gemini, OpenAI, OpenAI strict, Anthropic): sent
   * as it is, lowered (and what was lost), or refused (and why). Run it before you ship.
   */
  doctor(): DoctorReport
  toAnthropic(): ReturnType<typeof toAnthropic>
  toGemini(options?: ToGeminiOptions): ReturnType<typeof toGemini>
  toAISDK(options?: ToAISDKOptions): ReturnType<typeof toAISDK>
}

const DEFAULT_TOOL_TIMEOUT_MS = 60_000
// Names an unknown-tool answer lists; the rest are counted.
const MAX_LISTED_TOOLS = 50

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

// The sources that need Node load on demand, so the root entry stays importable on edge runtimes.
async function loadMcp(options: ToolkitOptions, logger: Logger): Promise<McpSource | undefined> {
  if (options.mcpConfig === undefined) return undefined
  const { loadMcpSource } = await import('../mcp/load-mcp-source.js')
  return loadMcpSource(options.mcpConfig, {
    logger,
    ...(options.onElicitation !== undefined && { onElicitation: options.onElicitation }),
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

interface ToolkitParts {
  /** Where a tool came from (`tools[2]`, `http[0]`, `register()`), for warnings; MCP tools are named by server. */
  origins: WeakMap<Tool, string>
  approval: ApprovalRules
  logger: Logger
  warnings: string[]
  mcp: McpSource | undefined
  skills: SkillsSource | undefined
  /** Every tool but the MCP ones (which the MCP source keeps), in assembly order. */
  tools: Tool[]
  disabled: Set<string>
  search: ToolSearchOptions | undefined
  limits: RunToolLimits
}

class DefaultToolkit implements Toolkit {
  #byName = new Map<string, Tool>()
  // The names tools are declared under for Gemini where they differ (`_1password_get_item`): a model's
  // call under one runs the tool. Looked at only for a name no tool has.
  #geminiNames = new Map<string, string>()
  // Only tools that may need approval: for the rest `needsApproval` is one lookup, nothing allocated.
  #approvals = new Map<string, NeedsApproval>()
  readonly #parts: ToolkitParts
  #list: readonly Tool[] = []
  // The toolkit's tools as toAISDK runs them (through the toolkit), by the list they were made from.
  readonly #aiSdkTools = new WeakMap<readonly Tool[], Tool[]>()
  #closed: Promise<void> | undefined
  // Assembly warnings already given, so a rebuild after an MCP list change does not repeat them.
  readonly #warned = new Set<string>()
  // Made on the first search: the index library loads only then.
  #search: Promise<ToolSearch> | undefined
  readonly searchOptions: ToolSearchOptions | undefined

  constructor(parts: ToolkitParts) {
    this.#parts = parts
    this.searchOptions = parts.search
    for (const tool of parts.tools) checkName(tool)
    this.#rebuild()
    this.#checkDisabled()
    registerApprovalLookup(this, (name) => this.#approvals.has(name))
    // An MCP server's list changed: the next `tools()` (the loop's next turn) has the new list.
    parts.mcp?.onToolsChanged(() => this.#rebuild())
  }

  tools(): readonly Tool[] {
    return this.#list
  }

  get(name: string): Tool | undefined {
    return this.#find(name)
  }

  #find(name: string): Tool | undefined {
    const tool = this.#byName.get(name)
    if (tool !== undefined || this.#geminiNames.size === 0) return tool
    const own = this.#geminiNames.get(name)
    return own === undefined ? undefined : this.#byName.get(own)
  }

  // Not `async`: an async method would wrap `runTool`'s promise in one more, on a path run for every call.
  execute(name: string, args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const tool = this.#find(name)
    if (tool === undefined) return Promise.resolve(this.#unknownTool(name))
    let checked: Record<string, unknown> | string
    try {
      checked = checkArgs(tool.inputSchema, args)
    } catch (error) {
      // Arguments no check can read (a getter that throws, a cycle): an answer, never a rejection.
      return Promise.resolve(toolFailed(name, error))
    }
    if (typeof checked !== 'string') return runTool(tool, checked, context, this.#parts.limits)
    return Promise.resolve(
      errorResult(capText(invalidArgsMessage(name, checked), this.#parts.limits.maxOutputChars)),
    )
  }

  // The name is quoted by its start and the list is cut, so neither a 200 KB name nor 50,000 tools
  // reach the model whole; the whole text is capped like any output.
  #unknownTool(name: unknown): ToolResult {
    const listed = this.#list.slice(0, MAX_LISTED_TOOLS).map((each) => each.name)
    const more = this.#list.length - listed.length
    const available =
      listed.length === 0 ? '(none)' : `${listed.join(', ')}${more > 0 ? `, … and ${more} more` : ''}`
    const quoted = typeof name === 'string' ? quoteShort(name) : String(typeof name)
    return errorResult(
      capText(`Unknown tool ${quoted}. Available tools: ${available}`, this.#parts.limits.maxOutputChars),
    )
  }

  needsApproval(
    name: string,
    args: Record<string, unknown>,
    toolCallId?: string,
  ): boolean | Promise<boolean> {
    const rule =
      this.#approvals.get(name) ??
      (this.#geminiNames.size === 0 ? undefined : this.#approvals.get(this.#geminiNames.get(name) ?? ''))
    if (rule === undefined) return false
    const tool = this.#find(name)
    if (tool === undefined) return false
    let checked: Record<string, unknown> | string
    try {
      checked = checkArgs(tool.inputSchema, args)
    } catch {
      return false
    }
    // Arguments that do not fit get the error as their answer: nothing runs, so there is nothing to approve.
    if (typeof checked === 'string') return false
    if (typeof rule !== 'function') return rule
    try {
      const verdict = rule(checked, toolCallId === undefined ? {} : { toolCallId })
      // A rule that cannot decide asks a person rather than letting the call through.
      if (isPromiseLike(verdict)) return Promise.resolve(verdict).then(Boolean, () => true)
      return Boolean(verdict)
    } catch {
      return true
    }
  }

  async search(query: string, options: SearchCallOptions = {}): Promise<ToolMatch[]> {
    const limit = Math.min(
      Math.max(
        1,
        Math.floor(Number(options.limit ?? this.searchOptions?.limit ?? DEFAULT_SEARCH_LIMIT)) || 1,
      ),
      MAX_SEARCH_LIMIT,
    )
    this.#search ??= import('../search/tool-index.js').then(
      ({ ToolIndex }) => new ToolSearch(new ToolIndex(), this.searchOptions?.embeddings),
    )
    const search = await this.#search
    // The list as it is now: a server's `list_changed` since the last search is indexed first.
    return search.search(this.#list, typeof query === 'string' ? query : String(query), limit)
  }

  register(...tools: Tool[]): void {
    for (const tool of tools) {
      checkName(tool)
      if (!this.#parts.origins.has(tool)) this.#parts.origins.set(tool, 'register()')
    }
    this.#parts.tools.push(...tools)
    this.#rebuild()
  }

  skillsPrompt(): string {
    return this.#parts.skills?.prompt ?? ''
  }

  mcpStatus(): Record<string, McpServerStatus> {
    return Object.fromEntries(
      Object.entries(this.mcpServers()).map(([server, info]) => [server, info.status]),
    )
  }

  mcpServers(): Record<string, McpServerInfo> {
    return this.#parts.mcp?.servers() ?? {}
  }

  mcpResources(): Promise<McpResource[]> {
    return this.#parts.mcp?.resources() ?? Promise.resolve([])
  }

  mcpResourceTemplates(): Promise<McpResourceTemplate[]> {
    return this.#parts.mcp?.resourceTemplates() ?? Promise.resolve([])
  }

  readResource(server: string, uri: string): Promise<McpResourceContents> {
    return this.#mcpOrReject('resources/read', server).then((mcp) => mcp.readResource(server, uri))
  }

  mcpPrompts(): Promise<McpPrompt[]> {
    return this.#parts.mcp?.prompts() ?? Promise.resolve([])
  }

  getPrompt(server: string, name: string, args?: Record<string, string>): Promise<McpPromptMessages> {
    return this.#mcpOrReject('prompts/get', server).then((mcp) => mcp.getPrompt(server, name, args))
  }

  #mcpOrReject(method: string, server: string): Promise<McpSource> {
    const mcp = this.#parts.mcp
    if (mcp !== undefined) return Promise.resolve(mcp)
    return Promise.reject(
      new McpRequestError(`No MCP server "${server}": this toolkit was made without an mcpConfig.`, {
        server,
        method,
      }),
    )
  }

  warnings(): readonly string[] {
    return this.#parts.warnings
  }

  close(): Promise<void> {
    this.#closed ??= this.#parts.mcp?.close() ?? Promise.resolve()
    return this.#closed
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  doctor(): DoctorReport {
    return diagnoseTools(this.#list)
  }

  toOpenAI(options?: ToOpenAIOptions): ReturnType<typeof toOpenAI> {
    return toOpenAI(this.#list, options)
  }

  toAnthropic(): ReturnType<typeof toAnthropic> {
    return toAnthropic(this.#list)
  }

  toGemini(options?: ToGeminiOptions): ReturnType<typeof toGemini> {
    return toGemini(this.#list, options)
  }

  toAISDK(options?: ToAISDKOptions): ReturnType<typeof toAISDK> {
    // Calls go through the toolkit, so its timeout, abort handling and output cap hold inside the AI SDK too.
    // Made once per tools list: a list that changes (list_changed, register()) is a new array.
    let tools = this.#aiSdkTools.get(this.#list)
    if (tools === undefined) {
      tools = this.#list.map((tool) =>
        validatingTool({
          name: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          source: tool.source,
          maxOutputChars: this.#parts.limits.maxOutputChars,
          ...this.#approvalOf(tool.name),
          run: (args, context) => runTool(tool, args, context, this.#parts.limits),
        }),
      )
      this.#aiSdkTools.set(this.#list, tools)
    }
    return toAISDK(tools, options)
  }

  #warnOnce(message: string): void {
    if (this.#warned.has(message)) return
    this.#warned.add(message)
    this.#parts.logger.warn(message)
  }

  /** Assembles the list again (MCP first, then the rest in order); the first owner of a name keeps it. */
  #rebuild(): void {
    const byName = new Map<string, Tool>()
    const approvals = new Map<string, NeedsApproval>()
    for (const tool of [...(this.#parts.mcp?.tools() ?? []), ...this.#parts.tools]) {
      if (this.#parts.disabled.has(tool.name)) continue
      // A schema from elsewhere (an MCP server, a custom Tool) that no validator can live with is left out;
      // a pattern the linear-time engine cannot evaluate is left unchecked. Either way, with a warning.
      const problem = findSchemaProblem(tool.inputSchema)
      if (problem !== undefined && problem.kind !== 'pattern') {
        this.#warnOnce(
          `Tool "${tool.name}" (${tool.source}) was left out: its inputSchema ${problem.message}.`,
        )
        continue
      }
      if (problem !== undefined) {
        this.#warnOnce(
          `Tool "${tool.name}" (${tool.source}): its inputSchema ${problem.message}; that pattern is not checked.`,
        )
      }
      const first = byName.get(tool.name)
      if (first !== undefined) {
        this.#warnOnce(
          `Duplicate tool name "${tool.name}": kept the ${this.#describe(first)}, dropped the ${this.#describe(tool)}.`,
        )
        continue
      }
      byName.set(tool.name, tool)
      // A schema simplified while converting it (too large to lower in full) is reported here.
      attachSchemaLogger(tool.inputSchema, this.#parts.logger)
      const rule = this.#parts.approval.ruleFor(tool)
      if (rule !== undefined) approvals.set(tool.name, rule)
    }
    const geminiNames = new Map<string, string>()
    for (const name of byName.keys()) {
      const sentAs = geminiToolName(name)
      if (sentAs !== name && !byName.has(sentAs)) geminiNames.set(sentAs, name)
    }
    this.#byName = byName
    this.#geminiNames = geminiNames
    this.#approvals = approvals
    this.#list = [...byName.values()]
  }

  /** `native tool tools[2]`, `mcp tool of MCP server "github"`: which of two same-named tools is meant. */
  #describe(tool: Tool): string {
    if (tool.source === 'mcp') {
      const servers = Object.entries(this.#parts.mcp?.servers() ?? {})
      const server = servers.find(([, info]) => info.tools.includes(tool.name))?.[0]
      if (server !== undefined) return `mcp tool of MCP server ${JSON.stringify(server)}`
    }
    const origin = this.#parts.origins.get(tool)
    return origin === undefined ? `${tool.source} tool` : `${tool.source} tool ${origin}`
  }

  /** A `disableTools` name no tool has is most likely a typo: said once, with the closest real name. */
  #checkDisabled(): void {
    if (this.#parts.disabled.size === 0) return
    const names = new Set(
      [...(this.#parts.mcp?.tools() ?? []), ...this.#parts.tools].map((tool) => tool.name),
    )
    for (const name of this.#parts.disabled) {
      if (names.has(name)) continue
      const guess = didYouMean(name, names)
      const hint =
        guess === undefined
          ? ` The tools are ${listNames([...names])}.`
          : ` Did you mean ${JSON.stringify(guess)}?`
      this.#warnOnce(`disableTools names ${JSON.stringify(name)}, which no tool has.${hint}`)
    }
  }

  #approvalOf(name: string): { needsApproval?: NeedsApproval } {
    const rule = this.#approvals.get(name)
    return rule === undefined ? {} : { needsApproval: rule }
  }
}

function checkName(tool: Tool): void {
  if (typeof tool?.name !== 'string' || !TOOL_NAME_PATTERN.test(tool.name)) {
    throw new ToolDefinitionError(
      `Tool name ${JSON.stringify(tool?.name)} is not allowed: use 1–64 characters from [a-zA-Z0-9_-].`,
    )
  }
}
