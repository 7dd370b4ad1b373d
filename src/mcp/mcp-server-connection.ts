import { stat } from 'node:fs/promises'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CompatibilityCallToolResultSchema,
  ElicitRequestSchema,
  type ElicitResult,
  ErrorCode,
  type GetPromptResult,
  McpError,
  type Tool as McpTool,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { Agent, fetch as undiciFetch } from 'undici'
import { McpRequestError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'
import { createSecretScrubber, type SecretScrubber, scrubToolResult } from '../shared/scrub-secrets.js'
import { signalBeyondDeadline } from '../tool/call-context.js'
import { errorMessage, errorResult } from '../tool/tool-result.js'
import type { JSONSchema, ToolContext, ToolResult } from '../tool/types.js'
import { validateArgs } from '../tool/validate-args.js'
import { VERSION } from '../version.js'
import { boundedMcpFetch } from './bounded-mcp-fetch.js'
import { mapCallToolResult } from './map-call-tool-result.js'
import type { ElicitationHandler } from './mcp-source.js'
import type { OAuthOptions, OAuthTokenStore } from './oauth-options.js'
import type { RemoteServerPlan, StdioServerPlan } from './parse-mcp-config.js'
import { StdioProcessTransport } from './stdio-process-transport.js'
import { memoryTokenStore, ToolkitOAuthProvider } from './toolkit-oauth-provider.js'
import { PhaseTimeoutError, withDeadline } from './with-deadline.js'

/**
 * How a connected server is spoken to.
 *
 * @example
 * const kind: McpTransportKind = 'streamable-http'
 */
export type McpTransportKind = 'stdio' | 'streamable-http' | 'sse'

/**
 * A server's state as the connection knows it.
 *
 * @example
 * if (connection.state.status === 'failed') console.warn(connection.state.reason)
 */
export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'connected'; transport: McpTransportKind }
  | { status: 'failed'; reason: string; transport?: McpTransportKind }
  | { status: 'closed' }

interface Session {
  client: Client
  transport: Transport
  kind: McpTransportKind
  /** Set when the transport closed under us (the process exited, the session was lost). */
  lost: string | undefined
  /** How much stderr the process had written when the session became usable; later output explains a crash. */
  stderrMark: number
  /** A remote session's own connection pool: closing the session ends every socket it opened. */
  sockets?: Agent
}

const CLIENT_INFO = { name: 'toolnexus', version: VERSION }
const DEFAULT_CALL_TIMEOUT_MS = 60_000
const MAX_TOOL_PAGES = 1000
// Resources, templates and prompts are listed on demand; a server paging forever is cut off here.
const MAX_LIST_PAGES = 100
const STDERR_IN_REASON_CHARS = 600
const STDERR_DRAIN_MS = 1000
const TERMINATE_SESSION_MS = 1000
// Statuses an endpoint answers with when it does not speak streamable HTTP but may speak SSE.
const SSE_FALLBACK_STATUSES = new Set([400, 404, 405])

/**
 * One configured MCP server: connects (each phase bounded by the server's `timeout`), lists its tools,
 * calls them, and reconnects on the next call after the server died. Every message it produces has the
 * server's secrets masked; `call` never throws.
 *
 * @example
 * const connection = new McpServerConnection(plan)
 * const tools = await connection.open()
 * await connection.call('echo', { text: 'hi' }, {})
 * await connection.close()
 */
export class McpServerConnection {
  readonly plan: StdioServerPlan | RemoteServerPlan
  #scrub: SecretScrubber
  // The config's secrets, and every OAuth token or code learnt since: all masked in what is written.
  readonly #secrets: string[]
  #oauth: ToolkitOAuthProvider | undefined
  #state: ConnectionState = { status: 'connecting' }
  #session: Session | undefined
  #reopening: Promise<Session> | undefined
  // Sessions being torn down in the background; `close()` waits for them.
  readonly #retiring = new Set<Promise<void>>()
  readonly #options: ConnectionOptions
  // The output schema of each tool that declares one, by the server's tool name.
  #outputSchemas = new Map<string, JSONSchema>()
  // A tools/list after `notifications/tools/list_changed`, while it runs; calls wait for it before answering.
  #relisting: Promise<void> | undefined
  #relistAgain = false

  constructor(plan: StdioServerPlan | RemoteServerPlan, options: ConnectionOptions = {}) {
    this.plan = plan
    this.#options = options
    this.#secrets = [...plan.secrets]
    this.#scrub = createSecretScrubber(this.#secrets)
  }

  get name(): string {
    return this.plan.name
  }

  /** The config's secrets and every OAuth token, code or client secret learnt since. */
  get secrets(): readonly string[] {
    return this.#secrets
  }

  get state(): ConnectionState {
    return this.#state
  }

  /**
   * What the server says it is for, when it said: its `serverInfo` description or title, else its
   * instructions, cut to 1,000 characters (it is the server's text). Tool search ranks its tools by it.
   */
  get description(): string | undefined {
    const client = this.#session?.client
    const info = client?.getServerVersion() as { description?: unknown; title?: unknown } | undefined
    const text = [info?.description, info?.title, client?.getInstructions()].find(
      (value): value is string => typeof value === 'string' && value.trim() !== '',
    )
    return text?.slice(0, 1_000)
  }

  /** What the server said it offers when it last connected (tools, resources, prompts, …). */
  get capabilities(): ReturnType<Client['getServerCapabilities']> {
    return this.#session?.client.getServerCapabilities()
  }

  /** Connects and lists every tool (all pages). Rejects with a message that is safe to show. */
  async open(): Promise<McpTool[]> {
    try {
      const { session, tools } = await this.#connectAndList()
      this.#adopt(session)
      this.#publish(tools, false)
      return tools
    } catch (error) {
      const reason = this.#scrub(describeError(error))
      this.#state = { status: 'failed', reason }
      throw new Error(reason, { cause: error })
    }
  }

  /** Calls a tool by its name on the server. Never throws: every failure is an error result. */
  async call(tool: string, args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const origin = { server: this.name, tool }
    // The SDK enforces `timeout` itself; it needs a signal only for what else can abort the call.
    const signal = signalBeyondDeadline(context)
    for (let attempt = 1; ; attempt++) {
      if (this.#state.status === 'closed') return errorResult(`MCP server "${this.name}" is closed.`)
      let session: Session
      try {
        session = await this.#ready()
      } catch (error) {
        return errorResult(
          `MCP server "${this.name}" is unavailable, so tool "${tool}" was not run: ${this.#scrub(describeError(error))}`,
          origin,
        )
      }
      try {
        // `request`, not `callTool`: the SDK checks output schemas only for the last page of tools/list,
        // so the connection checks them itself, for every tool.
        const result = await session.client.request(
          {
            method: 'tools/call',
            params: {
              name: tool,
              arguments: args,
              // The call's key, so that the server can recognise a second attempt of it.
              ...(context.idempotencyKey !== undefined && {
                _meta: { idempotencyKey: context.idempotencyKey },
              }),
            },
          },
          CompatibilityCallToolResultSchema,
          {
            timeout: context.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
            ...(signal && { signal }),
          },
        )
        // A list_changed the server sent while it ran: the caller's next model turn sees the new list.
        if (this.#relisting !== undefined) await this.#relisting
        const mapped = mapCallToolResult(result, origin)
        const schema = this.#outputSchemas.get(tool)
        const checked =
          mapped.isError || schema === undefined || 'toolResult' in result
            ? mapped
            : checkStructuredContent(mapped, result.structuredContent, schema, origin)
        // Successful results too: a server may echo its own token back in a result or its content.
        return scrubToolResult(this.#scrub, checked)
      } catch (error) {
        // The server asked for more scope (step-up): once the host authorized it, send the call again.
        if (
          error instanceof UnauthorizedError &&
          attempt <= 2 &&
          (await this.#finishAuthorization(session))
        ) {
          continue
        }
        // A remote server that forgot our session never ran the call: reconnect and send it once more.
        if (isSessionGone(error)) {
          this.#markLost(session, 'the server no longer knows this session')
          if (attempt === 1) continue
        } else if (session.kind !== 'stdio' && !(error instanceof McpError)) {
          // The request never reached the server (network error): reconnect on the next call.
          this.#markLost(session, describeError(error))
        }
        return errorResult(this.#describeCallFailure(tool, session, error), origin)
      }
    }
  }

  /** Every resource the server lists (all pages); none when it offers no resources. */
  listResources(): Promise<Resource[]> {
    return this.#request('resources/list', async (client) => {
      if (client.getServerCapabilities()?.resources === undefined) return []
      return this.#pages('resources', MAX_LIST_PAGES, (cursor) =>
        client.listResources(cursor, { timeout: this.plan.timeoutMs }).then((page) => ({
          items: page.resources,
          next: page.nextCursor,
        })),
      )
    })
  }

  /** Every resource template the server lists (all pages). */
  listResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.#request('resources/templates/list', async (client) => {
      if (client.getServerCapabilities()?.resources === undefined) return []
      return this.#pages('resource templates', MAX_LIST_PAGES, (cursor) =>
        client.listResourceTemplates(cursor, { timeout: this.plan.timeoutMs }).then((page) => ({
          items: page.resourceTemplates,
          next: page.nextCursor,
        })),
      )
    })
  }

  /** Reads one resource (or a URI made from a template). */
  readResource(uri: string): Promise<ReadResourceResult> {
    return this.#request('resources/read', (client) =>
      client.readResource({ uri }, { timeout: this.plan.timeoutMs }),
    )
  }

  /** Every prompt the server lists (all pages); none when it offers no prompts. */
  listPrompts(): Promise<Prompt[]> {
    return this.#request('prompts/list', async (client) => {
      if (client.getServerCapabilities()?.prompts === undefined) return []
      return this.#pages('prompts', MAX_LIST_PAGES, (cursor) =>
        client.listPrompts(cursor, { timeout: this.plan.timeoutMs }).then((page) => ({
          items: page.prompts,
          next: page.nextCursor,
        })),
      )
    })
  }

  /** Renders one prompt with its arguments. */
  getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.#request('prompts/get', (client) =>
      client.getPrompt({ name, arguments: args }, { timeout: this.plan.timeoutMs }),
    )
  }

  /** Runs one request on the live session (reconnecting first if needed); failures are `McpRequestError`s. */
  async #request<Value>(method: string, run: (client: Client) => Promise<Value>): Promise<Value> {
    if (this.#state.status === 'closed') {
      throw new McpRequestError(`MCP server "${this.name}" is closed.`, { server: this.name, method })
    }
    let session: Session
    try {
      session = await this.#ready()
    } catch (error) {
      throw new McpRequestError(
        `MCP server "${this.name}" is unavailable (${this.#scrub(describeError(error))}), so ${method} was not sent.`,
        { server: this.name, method },
      )
    }
    try {
      return await withDeadline(run(session.client), { ms: this.plan.timeoutMs, phase: method })
    } catch (error) {
      if (session.kind !== 'stdio' && !(error instanceof McpError))
        this.#markLost(session, describeError(error))
      throw new McpRequestError(
        `MCP server "${this.name}" failed ${method}: ${this.#scrub(describeError(error))}`,
        { server: this.name, method },
      )
    }
  }

  /** Collects every page of a paginated list, stopping at a repeated cursor or `MAX_LIST_PAGES`. */
  /**
   * Every page of a list, up to `maxPages`. A server still handing out cursors past the limit, or handing
   * out one it gave before (it would page forever), is cut off there with a warning saying what was kept.
   */
  async #pages<Item>(
    what: string,
    maxPages: number,
    page: (params: { cursor?: string }) => Promise<{ items: Item[]; next: string | undefined }>,
  ): Promise<Item[]> {
    const items: Item[] = []
    const seen = new Set<string>()
    let cursor: string | undefined
    for (let count = 1; ; count++) {
      const result = await page(cursor === undefined ? {} : { cursor })
      items.push(...result.items)
      cursor = result.next
      if (cursor === undefined) return items
      const problem = seen.has(cursor)
        ? 'handed out a cursor it had given before (it would page forever)'
        : count >= maxPages
          ? `has more than ${maxPages.toLocaleString('en-US')} pages, the limit`
          : undefined
      if (problem !== undefined) {
        this.#options.onWarning?.(
          `MCP server "${this.name}" ${problem} while listing ${what}: kept the ${items.length.toLocaleString('en-US')} ${what} of its first ${count.toLocaleString('en-US')} pages.`,
        )
        return items
      }
      seen.add(cursor)
    }
  }

  /** Keeps what calls need from a tool list and hands it to the source (which re-exposes the tools). */
  #publish(tools: readonly McpTool[], changed: boolean): void {
    const schemas = new Map<string, JSONSchema>()
    for (const tool of tools) {
      if (isRecord(tool.outputSchema)) schemas.set(tool.name, tool.outputSchema)
    }
    this.#outputSchemas = schemas
    if (changed) this.#options.onToolsChanged?.(tools)
  }

  /** `notifications/tools/list_changed`: lists the tools again (once more if another arrives meanwhile). */
  #toolsChanged(session: Session): void {
    if (session !== this.#session) return
    if (this.#relisting !== undefined) {
      this.#relistAgain = true
      return
    }
    this.#relisting = (async () => {
      do {
        this.#relistAgain = false
        try {
          const tools = await withDeadline(this.#listTools(session.client), {
            ms: this.plan.timeoutMs,
            phase: 'tools/list',
          })
          if (session === this.#session) this.#publish(tools, true)
        } catch (error) {
          this.#options.onWarning?.(
            `MCP server "${this.name}" announced new tools, but listing them failed: ${this.#scrub(describeError(error))}`,
          )
        }
      } while (this.#relistAgain && session === this.#session)
    })().finally(() => {
      this.#relisting = undefined
    })
  }

  /** Disconnects and ends the server's process (and its children). Idempotent. */
  async close(): Promise<void> {
    this.#state = { status: 'closed' }
    const session = this.#session
    this.#session = undefined
    if (session !== undefined) this.#retire(session)
    const reopening = this.#reopening
    if (reopening !== undefined) await reopening.catch(() => undefined)
    while (this.#retiring.size > 0) await Promise.all(this.#retiring)
  }

  /** The live session, reconnecting first when the server died since the last call. */
  #ready(): Promise<Session> {
    const session = this.#session
    if (session !== undefined && session.lost === undefined) return Promise.resolve(session)
    this.#reopening ??= this.#connectAndList()
      .then(({ session: fresh, tools }) => {
        if (this.#state.status === 'closed') {
          this.#retire(fresh)
          throw new Error('the toolkit was closed')
        }
        this.#adopt(fresh)
        // A restarted server may offer other tools than before.
        this.#publish(tools, true)
        return fresh
      })
      .catch((error: unknown) => {
        const reason = this.#scrub(describeError(error))
        if (this.#state.status !== 'closed') this.#state = { status: 'failed', reason }
        throw new Error(reason, { cause: error })
      })
      .finally(() => {
        this.#reopening = undefined
      })
    return this.#reopening
  }

  #newClient(): Client {
    const { onElicitation } = this.#options
    // Elicitation is advertised only when the host can answer it: a server then knows not to ask.
    const client = new Client(CLIENT_INFO, {
      capabilities: onElicitation === undefined ? {} : { elicitation: { form: {} } },
    })
    // Transport errors surface through the request they break; out-of-band ones need no console noise.
    client.onerror = () => undefined
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      const session = this.#session
      if (session !== undefined && session.client === client) this.#toolsChanged(session)
    })
    if (onElicitation !== undefined) {
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        this.#elicit(onElicitation, request.params, extra.signal),
      )
    }
    return client
  }

  async #elicit(
    handler: ElicitationHandler,
    params: { message: string; mode?: string | undefined; requestedSchema?: unknown },
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const requestedSchema = (isRecord(params.requestedSchema) ? params.requestedSchema : {}) as JSONSchema
    const answer = await handler({ server: this.name, message: params.message, requestedSchema, signal })
    if (answer.action !== 'accept') return { action: answer.action }
    // A field the user left out takes the default the server gave for it.
    const content: Record<string, unknown> = { ...defaultsOf(requestedSchema), ...(answer.content ?? {}) }
    const problem = validateArgs(requestedSchema, content)
    if (problem !== undefined) {
      throw new McpError(ErrorCode.InvalidParams, `The answer does not fit the requested schema: ${problem}`)
    }
    return { action: 'accept', content: content as NonNullable<ElicitResult['content']> }
  }

  #adopt(session: Session): void {
    const previous = this.#session
    if (previous !== undefined && previous !== session) this.#retire(previous)
    this.#session = session
    this.#state = { status: 'connected', transport: session.kind }
    if (session.transport instanceof StdioProcessTransport)
      session.stderrMark = session.transport.stderrLength
    session.client.onclose = () => this.#markLost(session, this.#describeExit(session))
  }

  #markLost(session: Session, reason: string): void {
    if (session.lost !== undefined) return
    session.lost = this.#scrub(reason)
    if (this.#session === session && this.#state.status !== 'closed') {
      this.#state = {
        status: 'failed',
        reason: `disconnected (${session.lost}); reconnects on the next tool call`,
        transport: session.kind,
      }
    }
  }

  async #connectAndList(): Promise<{ session: Session; tools: McpTool[] }> {
    const session = await this.#connect()
    for (let attempt = 1; ; attempt++) {
      try {
        const tools = await withDeadline(this.#listTools(session.client), {
          ms: this.plan.timeoutMs,
          phase: 'tools/list',
        })
        return { session, tools }
      } catch (error) {
        // Listing may need more scope than connecting did (step-up): authorize, then list again.
        const retry =
          error instanceof UnauthorizedError &&
          attempt <= 2 &&
          (await this.#finishAuthorization(session).catch(() => false))
        if (retry) continue
        this.#retire(session)
        throw error
      }
    }
  }

  async #connect(): Promise<Session> {
    const { plan } = this
    if (plan.kind === 'stdio') return this.#connectStdio(plan)
    if (plan.protocol === 'sse') return this.#connectRemote(plan, 'sse')
    try {
      return await this.#connectRemote(plan, 'streamable-http')
    } catch (error) {
      if (!(error instanceof StreamableHTTPError && SSE_FALLBACK_STATUSES.has(error.code ?? 0))) throw error
      try {
        return await this.#connectRemote(plan, 'sse')
      } catch (fallbackError) {
        throw new Error(
          `streamable HTTP failed (${describeError(error)}), and so did SSE (${describeError(fallbackError)})`,
          { cause: fallbackError },
        )
      }
    }
  }

  async #connectStdio(plan: StdioServerPlan): Promise<Session> {
    if (plan.cwd !== undefined) {
      const folder = await stat(plan.cwd).catch(() => undefined)
      if (!folder?.isDirectory()) throw new Error(`"cwd" ${plan.cwd} is not an existing folder`)
    }
    const transport = new StdioProcessTransport({
      command: plan.command,
      args: plan.args,
      env: { ...definedEntries(process.env), ...plan.env },
      cwd: plan.cwd,
    })
    const session: Session = {
      client: this.#newClient(),
      transport,
      kind: 'stdio',
      lost: undefined,
      stderrMark: 0,
    }
    try {
      return await initialize(session, plan.timeoutMs)
    } catch (error) {
      // A process that has exited may still have stderr in the pipe; it is the best clue to why.
      if (transport.exit !== undefined) await transport.drained(STDERR_DRAIN_MS)
      this.#retire(session)
      throw new Error(this.#describeStartFailure(plan, transport, error), { cause: error })
    }
  }

  async #connectRemote(plan: RemoteServerPlan, kind: 'streamable-http' | 'sse'): Promise<Session> {
    const requestInit: RequestInit = { headers: plan.headers }
    const authProvider = this.#oauthProvider(plan)
    // With OAuth the first attempt may end in the authorization step: the host hands back a code, it is
    // exchanged for tokens, and the next attempt connects with them.
    for (let attempt = 1; ; attempt++) {
      // The session's requests go through a pool of its own, so closing it ends every socket it opened:
      // the ones a silent server holds (a request, an event stream) and the idle kept-alive ones.
      const sockets = new Agent()
      // Answers are read within the MCP message size limit, as a stdio server's output is.
      const fetch = boundedMcpFetch(
        (url, init) => undiciFetch(url, { ...init, dispatcher: sockets } as never) as Promise<never>,
      )
      const options = { requestInit, fetch, ...(authProvider === undefined ? {} : { authProvider }) }
      const transport =
        kind === 'sse'
          ? new SSEClientTransport(plan.url, options)
          : new StreamableHTTPClientTransport(plan.url, options)
      const session: Session = {
        client: this.#newClient(),
        transport,
        kind,
        lost: undefined,
        stderrMark: 0,
        sockets,
      }
      try {
        return await initialize(session, plan.timeoutMs)
      } catch (error) {
        const code = authProvider?.pendingCode
        if (
          authProvider === undefined ||
          !(error instanceof UnauthorizedError) ||
          code === undefined ||
          attempt > 2
        ) {
          this.#retire(session)
          throw error
        }
        authProvider.pendingCode = undefined
        try {
          await withDeadline(transport.finishAuth(code), { ms: plan.timeoutMs, phase: 'OAuth token request' })
        } finally {
          this.#retire(session)
        }
      }
    }
  }

  /** Exchanges the code the host returned for an authorization the session asked for; false when there is none. */
  async #finishAuthorization(session: Session): Promise<boolean> {
    const code = this.#oauth?.pendingCode
    const { transport } = session
    if (
      code === undefined ||
      !(transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport)
    ) {
      return false
    }
    if (this.#oauth !== undefined) this.#oauth.pendingCode = undefined
    await withDeadline(transport.finishAuth(code), { ms: this.plan.timeoutMs, phase: 'OAuth token request' })
    return true
  }

  /** The OAuth provider of a remote server whose entry has `auth` (one per connection, kept across reconnects). */
  #oauthProvider(plan: RemoteServerPlan): ToolkitOAuthProvider | undefined {
    if (plan.auth === undefined) return undefined
    this.#oauth ??= new ToolkitOAuthProvider({
      server: this.name,
      url: plan.url,
      plan: plan.auth,
      host: this.#options.oauth ?? {},
      store: this.#options.tokenStore ?? memoryTokenStore(),
      onSecret: (secret) => {
        if (this.#secrets.includes(secret)) return
        this.#secrets.push(secret)
        this.#scrub = createSecretScrubber(this.#secrets)
      },
    })
    return this.#oauth
  }

  async #listTools(client: Client): Promise<McpTool[]> {
    // A server that offers only prompts or resources has no tools/list to call.
    if (client.getServerCapabilities()?.tools === undefined) return []
    return this.#pages('tools', MAX_TOOL_PAGES, (cursor) =>
      client.listTools(cursor, { timeout: this.plan.timeoutMs }).then((page) => ({
        items: page.tools,
        next: page.nextCursor,
      })),
    )
  }

  /** Closes a session in the background; `close()` waits for every one. */
  #retire(session: Session): void {
    if (this.#session === session) this.#session = undefined
    session.lost ??= 'closed'
    const closing = closeSession(session).finally(() => this.#retiring.delete(closing))
    this.#retiring.add(closing)
  }

  #describeStartFailure(plan: StdioServerPlan, transport: StdioProcessTransport, error: unknown): string {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && transport.pid === undefined) {
      const hint =
        /\s/.test(plan.command) && plan.args.length === 0
          ? ' (to pass arguments, put them in "args" or make "command" an array)'
          : ''
      return `command "${plan.command}" was not found${hint}`
    }
    if (code === 'EACCES' && transport.pid === undefined) return `command "${plan.command}" is not executable`
    const exit = transport.exit
    const what =
      error instanceof PhaseTimeoutError
        ? error.message
        : exit !== undefined
          ? `the process ${describeProcessExit(exit)} before it finished initializing`
          : `initialize failed: ${describeError(error)}`
    return `${what}${stderrNote(transport.stderrTail)}`
  }

  #describeExit(session: Session): string {
    const { transport } = session
    if (!(transport instanceof StdioProcessTransport)) return 'the connection closed'
    const exit = transport.exit
    const what = exit === undefined ? 'the connection closed' : `the process ${describeProcessExit(exit)}`
    return `${what}${stderrNote(transport.stderrSince(session.stderrMark))}`
  }

  #describeCallFailure(tool: string, session: Session, error: unknown): string {
    const prefix = `MCP tool "${tool}" on server "${this.name}"`
    if (session.lost !== undefined && session.lost !== 'closed') {
      return this.#scrub(
        `${prefix} failed: the server stopped (${session.lost}); it restarts on the next call.`,
      )
    }
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return this.#scrub(`${prefix} timed out: ${describeError(error)}`)
    }
    return this.#scrub(`${prefix} failed: ${describeError(error)}`)
  }
}

/**
 * What a connection is told besides its plan: how to answer a server's elicitation requests, and where
 * tool list changes and warnings go.
 */
export interface ConnectionOptions {
  /** Answers `elicitation/create` (form mode); without it the client does not advertise elicitation. */
  onElicitation?: ElicitationHandler
  /** A new tool list, after `notifications/tools/list_changed` or a reconnect. */
  onToolsChanged?: (tools: readonly McpTool[]) => void
  onWarning?: (message: string) => void
  /** The host's OAuth pieces (redirect handler), for servers whose entry has `auth`. */
  oauth?: OAuthOptions
  /** Where this connection's OAuth tokens are kept; shared by the toolkit's servers. */
  tokenStore?: OAuthTokenStore
}

/** The `default` of each property of an elicitation's requested schema. */
function defaultsOf(schema: JSONSchema): Record<string, unknown> {
  const defaults: Record<string, unknown> = {}
  if (!isRecord(schema.properties)) return defaults
  for (const [key, property] of Object.entries(schema.properties)) {
    if (isRecord(property) && property.default !== undefined) defaults[key] = property.default
  }
  return defaults
}

/** A tool result whose `structuredContent` is checked against the tool's declared output schema. */
function checkStructuredContent(
  mapped: ToolResult,
  structured: unknown,
  schema: JSONSchema,
  origin: { server: string; tool: string },
): ToolResult {
  const prefix = `MCP tool "${origin.tool}" on server "${origin.server}"`
  if (structured === undefined) {
    return errorResult(
      `${prefix} declares an output schema but returned no structuredContent.`,
      mapped.metadata,
    )
  }
  const problem = isRecord(structured)
    ? validateArgs(schema, structured)
    : `structuredContent must be a JSON object, got ${Array.isArray(structured) ? 'an array' : typeof structured}`
  if (problem === undefined) return mapped
  return errorResult(
    `${prefix} returned structuredContent that does not match its output schema: ${problem}`,
    mapped.metadata,
  )
}

/** Runs the MCP handshake on a new session's transport, within the server's start deadline. */
async function initialize(session: Session, timeoutMs: number): Promise<Session> {
  await withDeadline(session.client.connect(session.transport, { timeout: timeoutMs }), {
    ms: timeoutMs,
    phase: 'initialize',
  })
  return session
}

async function closeSession(session: Session): Promise<void> {
  const { transport } = session
  if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
    // Tell the server it can drop the session; a server that does not answer does not hold us up.
    await withDeadline(transport.terminateSession(), { ms: TERMINATE_SESSION_MS, phase: 'DELETE' }).catch(
      () => undefined,
    )
  }
  await session.client.close().catch(() => undefined)
  // The client lets go of a transport that already closed itself; make sure the process is gone anyway.
  await transport.close().catch(() => undefined)
  // Whatever is still open (an aborted request's socket, an idle kept-alive one) is destroyed, not left
  // to the server's keep-alive timeout or to a server that never answers.
  await session.sockets?.destroy().catch(() => undefined)
}

function isSessionGone(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) return error.code === 404
  return /\(HTTP 404\)/.test(errorMessage(error))
}

/** An error's message with what the SDK keeps beside it: the HTTP status, the network error's code. */
function describeError(error: unknown): string {
  const message = errorMessage(error)
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) {
    return `HTTP ${error.code}: ${message}`
  }
  // undici says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND) is on its cause.
  const cause = error instanceof TypeError && message === 'fetch failed' ? error.cause : undefined
  if (!(cause instanceof Error)) return message
  const code = (cause as NodeJS.ErrnoException).code
  return `${message} (${typeof code === 'string' ? code : cause.message})`
}

function describeProcessExit(exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  if (exit.signal !== null) return `was killed by ${exit.signal}`
  if (exit.code !== null) return `exited with code ${exit.code}`
  return 'ended'
}

function stderrNote(stderr: string): string {
  const tail = stderr.trim()
  if (tail === '') return ''
  const shown = tail.length > STDERR_IN_REASON_CHARS ? `…${tail.slice(-STDERR_IN_REASON_CHARS)}` : tail
  return `; stderr: ${shown}`
}

function definedEntries(env: NodeJS.ProcessEnv): Record<string, string> {
  const defined: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value
  return defined
}
