import {
  type CacheMode,
  type Client,
  type GetPromptResult,
  InMemoryResponseCacheStore,
  type Tool as McpTool,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  UnauthorizedError,
} from '@modelcontextprotocol/client'
import { createSecretScrubber, type SecretScrubber, scrubToolResult } from '../shared/scrub-secrets.js'
import { signalBeyondDeadline } from '../tool/call-context.js'
import { errorResult } from '../tool/tool-result.js'
import type { ToolContext, ToolInputRound, ToolResult } from '../tool/types.js'
import { type CallRequest, requestTaskResult, requestToolCall, toolCallResult } from './call-mcp-tool.js'
import { closeSession, connectServer, finishAuthorization, isSessionGone } from './connect-server.js'
import { connectionOAuth } from './connection-oauth.js'
import type { ConnectionOptions, ConnectionState } from './connection-options.js'
import { createMcpClient } from './create-mcp-client.js'
import { describeCallFailure, describeError, describeExit, serverAnswered } from './describe-mcp-failure.js'
import { InFlight } from './forward-mid-call.js'
import { headerCall } from './header-call.js'
import { type ListPage, listAllPages } from './list-all-pages.js'
import { listServerTools } from './list-server-tools.js'
import { listenForToolChanges } from './listen-for-changes.js'
import type { RemoteServerPlan, StdioServerPlan } from './mcp-server-plan.js'
import type { McpProtocolChoice } from './negotiate-era.js'
import { ResourceWatch } from './resource-watch.js'
import { describeServer } from './server-description.js'
import { ServerRequests } from './server-requests.js'
import { ServerToolList } from './server-tool-list.js'
import type { McpTransportKind, Session } from './session.js'
import { StdioProcessTransport } from './stdio-process-transport.js'
import type { ToolkitOAuthProvider } from './toolkit-oauth-provider.js'
import { withDeadline } from './with-deadline.js'

const MAX_TOOL_PAGES = 1000

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
  readonly #tools: ServerToolList
  // The server's list results, kept for their `ttlMs` across reconnects.
  readonly #listCache = new InMemoryResponseCacheStore()
  // Every request in flight, with the caller up the line it is served to: a 2025 server's question
  // mid-call goes to the caller of the one.
  readonly #inFlight = new InFlight()
  readonly #requests: ServerRequests
  readonly #watch: ResourceWatch

  constructor(plan: StdioServerPlan | RemoteServerPlan, options: ConnectionOptions = {}) {
    this.plan = plan
    this.#options = options
    this.#tools = new ServerToolList(options.onToolsChanged)
    this.#secrets = [...plan.secrets]
    this.#scrub = createSecretScrubber(this.#secrets)
    this.#requests = new ServerRequests({
      name: plan.name,
      timeoutMs: plan.timeoutMs,
      closed: () => this.#state.status === 'closed',
      ready: () => this.#ready(),
      lost: (session, reason) => this.#markLost(session, reason),
      scrub: (text) => this.#scrub(text),
      onWarning: options.onWarning,
      inFlight: this.#inFlight,
    })
    const { name, timeoutMs } = plan
    this.#watch = new ResourceWatch({
      name,
      timeoutMs,
      request: (method, run) => this.#requests.request(method, run),
    })
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
    return describeServer(this.#session?.client)
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
      this.#tools.publish(tools, false)
      return tools
    } catch (error) {
      const reason = this.#scrub(describeError(error))
      this.#state = { status: 'failed', reason }
      throw new Error(reason, { cause: error })
    }
  }

  /** Calls a tool by its name on the server. Never throws: every failure is an error result. */
  call(tool: string, args: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    return this.#send(tool, context, (on) => {
      const list = () => this.#listTools(on.session.client, 'refresh')
      const headers = headerCall({ session: on.session, tools: this.#tools, tool, args, list })
      return requestToolCall(on, tool, args, context, headers)
    })
  }

  /** Asks for the result of a task a call of `tool` left working (`taskWaitMs`). Never throws. */
  fetchTask(tool: string, taskId: string, context: ToolContext = {}): Promise<ToolResult> {
    return this.#send(tool, context, (on) => requestTaskResult(on, taskId, context))
  }

  /** Sends one request of a call of `tool` on the live session; its answer as the call's result. */
  async #send(tool: string, context: ToolContext, request: CallRequest): Promise<ToolResult> {
    const origin = { server: this.name, tool }
    // The SDK enforces `timeout` itself; it needs a signal only for what else can abort the call.
    const signal = signalBeyondDeadline(context)
    for (let attempt = 1; ; attempt++) {
      if (this.#state.status === 'closed') return errorResult(`MCP server "${this.name}" is closed.`)
      let session: Session
      try {
        // The live session as it is, else once it has reconnected: no wait between calls on a live one.
        session = this.#live() ?? (await this.#ready())
      } catch (error) {
        return errorResult(
          `MCP server "${this.name}" is unavailable, so tool "${tool}" was not run: ${this.#scrub(describeError(error))}`,
          origin,
        )
      }
      try {
        const on = { session, client: session.client, signal, taskWaitMs: this.plan.taskWaitMs }
        const result = await this.#inFlight.run(context.inputRound, () => request(on))
        // A list_changed the server sent while it ran: the caller's next model turn sees the new list.
        const relisting = this.#tools.relisting
        if (relisting !== undefined) await relisting
        const checked = toolCallResult(result, { origin, outputSchema: this.#tools.outputSchema(tool) })
        // Successful results too: a server may echo its own token back in a result or its content.
        return scrubToolResult(this.#scrub, checked)
      } catch (error) {
        // The server asked for more scope (step-up): once the host authorized it, send the call again.
        if (
          error instanceof UnauthorizedError &&
          attempt <= 2 &&
          (await finishAuthorization(session, this.#oauth, this.plan.timeoutMs))
        ) {
          continue
        }
        // A remote server that forgot our session never ran the call: reconnect and send it once more.
        if (isSessionGone(error)) {
          this.#markLost(session, 'the server no longer knows this session')
          if (attempt === 1) continue
        } else if (session.kind !== 'stdio' && !serverAnswered(error)) {
          // The request never reached the server (network error): reconnect on the next call.
          this.#markLost(session, describeError(error))
        }
        return errorResult(
          this.#scrub(describeCallFailure({ server: this.name, tool, session, error })),
          origin,
        )
      }
    }
  }

  /** Every resource the server lists (all pages); none when it offers no resources. */
  listResources(): Promise<Resource[]> {
    return this.#requests.listResources()
  }

  /** Every resource template the server lists (all pages). */
  listResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.#requests.listResourceTemplates()
  }

  /** Reads one resource (or a URI made from a template); its server's questions go up through `round`. */
  readResource(uri: string, round?: ToolInputRound): Promise<ReadResourceResult> {
    return this.#requests.readResource(uri, round)
  }

  /** Listens to a resource's updates (see `ResourceWatch`); resolves to what stops listening. */
  subscribeResource(uri: string, listener: (uri: string) => void): Promise<() => Promise<void>> {
    return this.#watch.subscribe(uri, listener)
  }

  /** Every prompt the server lists (all pages); none when it offers no prompts. */
  listPrompts(): Promise<Prompt[]> {
    return this.#requests.listPrompts()
  }

  /** Renders one prompt with its arguments; its server's questions go up through `round`. */
  getPrompt(name: string, args: Record<string, string>, round?: ToolInputRound): Promise<GetPromptResult> {
    return this.#requests.getPrompt(name, args, round)
  }

  /** Completes a prompt argument or template variable; no values where the server offers no completions. */
  complete(params: Parameters<Client['complete']>[0]): ReturnType<Client['complete']> {
    return this.#requests.complete(params)
  }

  /** Every page of a list, up to `maxPages`, warning where a server's paging was cut off. */
  #pages<Item>(what: string, maxPages: number, page: ListPage<Item>): Promise<Item[]> {
    return listAllPages({ server: this.name, what, maxPages, page, onWarning: this.#options.onWarning })
  }

  /** `notifications/tools/list_changed`: lists the tools again (once more if another arrives meanwhile). */
  #toolsChanged(session: Session): void {
    if (session !== this.#session) return
    this.#tools.relist({
      list: () => this.#listTools(session.client, 'refresh'),
      isCurrent: () => session === this.#session,
      onError: (error) =>
        this.#options.onWarning?.(
          `MCP server "${this.name}" announced new tools, but listing them failed: ${this.#scrub(describeError(error))}`,
        ),
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

  /** The session, while it is live. */
  #live(): Session | undefined {
    const session = this.#session
    return session !== undefined && session.lost === undefined ? session : undefined
  }

  /** The live session, reconnecting first when the server died since the last call. */
  #ready(): Promise<Session> {
    const session = this.#live()
    if (session !== undefined) return Promise.resolve(session)
    this.#reopening ??= this.#connectAndList()
      .then(({ session: fresh, tools }) => {
        if (this.#state.status === 'closed') {
          this.#retire(fresh)
          throw new Error('the toolkit was closed')
        }
        this.#adopt(fresh)
        // A restarted server may offer other tools than before.
        this.#tools.publish(tools, true)
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

  #newClient(transport: McpTransportKind, protocol?: McpProtocolChoice): Client {
    return createMcpClient({
      server: this.name,
      protocol: protocol ?? this.plan.protocolVersion,
      transport,
      cache: this.#listCache,
      listMaxPages: MAX_TOOL_PAGES,
      onElicitation: this.#options.onElicitation,
      elicitationModes: this.#options.elicitationModes,
      onLog: this.#options.onLog,
      inFlight: this.#inFlight,
      forwardInput: this.#options.forwardInput,
      onResourceUpdated: (client, uri) => {
        if (this.#session?.client === client) this.#watch.updated(uri)
      },
      onToolListChanged: (client) => {
        const session = this.#session
        if (session !== undefined && session.client === client) this.#toolsChanged(session)
      },
    })
  }

  #adopt(session: Session): void {
    const previous = this.#session
    if (previous !== undefined && previous !== session) this.#retire(previous)
    this.#session = session
    this.#state = { status: 'connected', transport: session.kind }
    if (session.transport instanceof StdioProcessTransport)
      session.stderrMark = session.transport.stderrLength
    session.client.onclose = () => this.#markLost(session, describeExit(session))
    session.stopListening = listenForToolChanges({
      client: session.client,
      timeoutMs: this.plan.timeoutMs,
      isCurrent: () => session === this.#session && session.lost === undefined,
      onReopened: () => this.#toolsChanged(session),
      onLost: (reason) => this.#markLost(session, reason),
    })
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
    const session = await connectServer(this.plan, {
      newClient: (transport, protocol) => this.#newClient(transport, protocol),
      retire: (failed) => this.#retire(failed),
      oauthProvider: (plan, challenged) => this.#oauthProvider(plan, challenged),
    })
    for (let attempt = 1; ; attempt++) {
      try {
        return { session, tools: await this.#listTools(session.client) }
      } catch (error) {
        // Listing may need more scope than connecting did (step-up): authorize, then list again.
        const retry =
          error instanceof UnauthorizedError &&
          attempt <= 2 &&
          (await finishAuthorization(session, this.#oauth, this.plan.timeoutMs).catch(() => false))
        if (retry) continue
        this.#retire(session)
        throw error
      }
    }
  }

  /** Every tool (all pages), within the server's timeout. */
  #listTools(client: Client, cacheMode: CacheMode = 'use'): Promise<McpTool[]> {
    const walk = (page: ListPage<McpTool>) => this.#pages('tools', MAX_TOOL_PAGES, page)
    const listing = listServerTools({ client, timeoutMs: this.plan.timeoutMs, cacheMode, walk })
    return withDeadline(listing, { ms: this.plan.timeoutMs, phase: 'tools/list' })
  }

  /** Closes a session in the background; `close()` waits for every one. */
  #retire(session: Session): void {
    if (this.#session === session) this.#session = undefined
    session.lost ??= 'closed'
    const closing = closeSession(session).finally(() => this.#retiring.delete(closing))
    this.#retiring.add(closing)
  }

  /** The connection's OAuth provider (see `connectionOAuth`), kept across reconnects. */
  #oauthProvider(plan: RemoteServerPlan, challenged: boolean): ToolkitOAuthProvider | undefined {
    const onSecret = (secret: string): void => {
      if (this.#secrets.includes(secret)) return
      this.#secrets.push(secret)
      this.#scrub = createSecretScrubber(this.#secrets)
    }
    const [server, current, options] = [this.name, this.#oauth, this.#options]
    const provider = connectionOAuth({ server, plan, challenged, current, options, onSecret })
    if (provider !== undefined) this.#oauth = provider
    return provider
  }
}
