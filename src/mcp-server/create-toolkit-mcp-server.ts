import {
  type ListToolsResult,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/server'
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker'
import { SearchSession } from '../loop/search-session.js'
import type { ClaimStore } from '../shared/claim-store.js'
import { isRecord } from '../shared/is-record.js'
import type { TelemetryOptions } from '../telemetry/telemetry-options.js'
import { errorResult } from '../tool/tool-result.js'
import type { Tool, ToolContext, ToolResult } from '../tool/types.js'
import { callNeedsApproval } from '../toolkit/check-call.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import { mayNeedApproval } from '../toolkit/toolkit-approvals.js'
import { VERSION } from '../version.js'
import { type ApprovalCodec, type ApprovalVerdict, approveInTask, askApproval } from './ask-approval.js'
import { callToolResult } from './call-tool-result.js'
import { forwardingRound, resumedRound, taskRound } from './forward-input.js'
import type { HeldCalls } from './held-calls.js'
import { pollable } from './poll-call-streams.js'
import { serveMcpSources, sourceCapabilities } from './serve-mcp-sources.js'
import { type RoundServing, serveRounds } from './serve-rounds.js'
import {
  asksBeforeTask,
  callMode,
  serveTaskMethods,
  startTask,
  TASKS_EXTENSION,
  type TaskServing,
  taskTimeoutMs,
} from './serve-tasks.js'
import { argsDigest, type ServedStateCodec } from './served-state.js'
import type { ServedSubscriptions } from './served-subscriptions.js'
import type { CallerTrace, TraceServedCall } from './trace-served-call.js'

/**
 * What every way of serving a toolkit over MCP takes.
 *
 * @example
 * const options: McpServeOptions = { name: 'my-gateway', version: '1.2.0', instructions: 'Tools for the support team.' }
 */
export interface McpServeOptions {
  /** The server's name in the `initialize` answer. @default 'toolnexus' */
  name?: string
  /** The server's version in the `initialize` answer. @default this package's version */
  version?: string
  /** Told to the client at `initialize`: how to use these tools. */
  instructions?: string
  /**
   * Serve the toolkit's always-loaded tools (its `search.alwaysLoaded`) and `search_tools` instead of
   * every tool: the tools a client's search finds join its session's `tools/list` (announced with
   * `notifications/tools/list_changed`); every tool stays callable by name. @default false
   */
  search?: boolean
  /**
   * How long a 2026-07-28 client may keep `tools/list` before asking again (its `ttlMs`), in
   * milliseconds. With `search` the list changes as the client searches, so it is never cached.
   * @default 60000
   */
  listTtlMs?: number
  /**
   * The key (at least 32 bytes) that seals a request state (an approval question, a forwarded round of
   * input) to the call it was asked for, so that a 2026-07-28 client's answer counts only for that call.
   * Every instance that may receive the retry needs the same key, and then `claims` too (a key without
   * `claims` is a `ConfigError`). @default a random key per process
   */
  requestStateKey?: string | Uint8Array
  /**
   * Where each answered request state is claimed before its call runs, so that it runs once on any
   * number of instances: a store they share (`createRedisStore`, `createPostgresStore`; any
   * `ClaimStore`). A replayed state, on this instance or another, is refused with `-32602`.
   * @default the process's own guard, in memory: one instance
   *
   * @example
   * createMcpHandler({ toolkit, authorize, requestStateKey: process.env.MCP_STATE_KEY, claims: createRedisStore({ url }) })
   */
  claims?: ClaimStore
  /**
   * Tasks kept at once for `longRunning` tools (running and finished, over every caller); past it the
   * oldest finished task is dropped, and with none finished a new task is refused. @default 1000
   */
  maxTasks?: number
  /**
   * Milliseconds a task is kept from its creation (its `ttlMs`): a client fetches the result within it;
   * a task still running then is cancelled. @default 3600000 (one hour)
   */
  taskTtlMs?: number
  /**
   * OpenTelemetry for served calls: each runs in an `execute_tool <tool>` span whose parent is the
   * `traceparent` its request carried in `_meta`, so one trace spans the calling host and this server.
   * Needs `@opentelemetry/api` installed; nothing of it loads without this option. Only its `tracer` is
   * read here.
   */
  telemetry?: TelemetryOptions
  /**
   * Resource subscriptions one 2025-era client session may hold at once (passed through to the
   * toolkit's MCP servers); past it `resources/subscribe` is refused with `-32603`. @default 100
   */
  maxSubscriptionsPerSession?: number
  /** Resource subscriptions every session together may hold at once. @default 10000 */
  maxSubscriptions?: number
}

/** How one server instance is served: the era it speaks, and whether it can ask the client anything. */
export interface ServedInstance {
  /** `modern` for 2026-07-28 (per-request envelope), `legacy` for the 2025 revisions. */
  era: 'legacy' | 'modern'
  /** False where nothing carries an answer back (stateless 2025 serving). */
  canAsk: boolean
  /** Whether tools that may need approval are served (the host knows who the caller is). */
  servesApprovals: boolean
  /** The seal of approval questions, shared by every instance of one handler. */
  codec: ApprovalCodec
  /** The seal of forwarded rounds of input, shared by every instance of one handler. */
  forwarding: ServedStateCodec
  /** Who is calling, to bind approval questions and forwarded rounds to; absent, this instance (one 2025 session). */
  caller?: () => Promise<string>
  /** Where `longRunning` tools are served as tasks (2026-07-28 requests); absent, they run at once. */
  tasks?: TaskServing
  /** Where calls wait for their callers' answers between requests; shared by every instance of one handler. */
  held?: HeldCalls
  /** Runs a call in its caller's trace; shared by every instance of one handler (see `traceServedCalls`). */
  traced?: TraceServedCall | undefined
  /** The resource subscriptions of every session, shared by every instance of one handler. */
  subscriptions?: ServedSubscriptions
  /**
   * A 2025-11-25 client's call still running after this many milliseconds has its SSE stream closed
   * (the client resumes it with `Last-Event-ID`); only where the transport can resume.
   */
  closeCallStreamsAfterMs?: number | undefined
}

const DEFAULT_LIST_TTL_MS = 60_000

type ListedTool = ListToolsResult['tools'][number]

/**
 * One MCP server (the SDK's `Server`) over a toolkit, for either era: `tools/list` lists every tool with
 * its schema and annotations (cached by 2026-07-28 clients for `listTtlMs`), `tools/call` runs it through
 * `toolkit.execute` (validation, timeout, caps) and answers with its output, images and audio, and
 * `isError` when it failed. An unknown tool is a JSON-RPC error, as the protocol asks. A call that needs
 * approval is asked of the client's user (see `askApproval`): an input-required answer on 2026-07-28,
 * elicitation on a 2025 session; where the client cannot ask, it is refused with an error result. Unless
 * `servesApprovals`, a tool that may need approval is neither listed nor called, and a call that turns
 * out to need one (a toolkit made elsewhere decides by call) is refused.
 *
 * @example
 * const server = createToolkitMcpServer(toolkit, { era: 'modern', canAsk: true, servesApprovals: true, codec })
 */
export function createToolkitMcpServer(toolkit: Toolkit, options: McpServeOptions & ServedInstance): Server {
  // A tool that needs approval is served only to callers the host authorized: an approval asked of an
  // unknown caller would be answered by that caller.
  const served = (tool: Tool): boolean => options.servesApprovals || !mayNeedApproval(toolkit, tool)
  const searching = options.search === true
  // A 2025 session's rounds are answered on this very instance: it is the caller they are bound to.
  const session = `session:${crypto.randomUUID()}`
  const caller = options.caller ?? (() => Promise.resolve(session))
  const { era, canAsk, forwarding: codec, held } = options
  const rounds: RoundServing = { era, canAsk, codec, caller, held, server: undefined as never }
  // A 2025 session subscribes to resources itself (2026-07-28 has no resources/subscribe).
  const subscribing = era === 'legacy' && options.subscriptions?.offered() === true
  const server = new Server(
    { name: options.name ?? 'toolnexus', version: options.version ?? VERSION },
    {
      // The toolkit's MCP servers' resources, prompts, completions and logs are served through it.
      capabilities: {
        tools: searching ? { listChanged: true } : {},
        ...sourceCapabilities(toolkit, subscribing),
        ...(options.tasks === undefined ? {} : { extensions: { [TASKS_EXTENSION]: {} } }),
      },
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      // Schemas are checked with @cfworker/json-schema, which generates no code: edge runtimes forbid it.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      cacheHints: {
        'tools/list': {
          ttlMs: searching ? 0 : (options.listTtlMs ?? DEFAULT_LIST_TTL_MS),
          cacheScope: 'private',
        },
      },
      // A sealed question or round that fails its check is refused before the handler runs.
      requestState: {
        verify: async (state, ctx) =>
          options.forwarding.owns(state)
            ? options.forwarding.verify(state, await caller())
            : options.codec.verify(state, ctx, await caller()),
      },
    },
  )
  rounds.server = server
  // One search state per server, so per client session: what a client found is listed for it alone.
  const search = searching
    ? new SearchSession({ toolkit, search: toolkit.searchOptions ?? {}, native: false })
    : undefined
  if (options.tasks !== undefined) serveTaskMethods(server, options.tasks)
  server.setRequestHandler('tools/list', () => ({
    tools: (search?.tools() ?? toolkit.tools()).filter(served).map(listedTool),
  }))
  // Closes the stream of a call still running after `closeCallStreamsAfterMs`, to be resumed.
  server.setRequestHandler('tools/call', (request, ctx) =>
    pollable(ctx, options.closeCallStreamsAfterMs, async () => {
      const { name, arguments: given } = request.params
      const searched = search?.answer(name, isRecord(given) ? given : {})
      if (searched !== undefined && search !== undefined) {
        const before = search.tools()
        const result = await searched
        if (search.tools() !== before && options.era === 'legacy') {
          await server.sendToolListChanged().catch(() => {})
        }
        return callToolResult(result)
      }
      const tool = toolkit.get(name)
      if (tool === undefined || !served(tool)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}".`)
      }
      const args = isRecord(given) ? given : {}
      const toolCallId = String(ctx.mcpReq.id)
      // Worked out only for a call that takes part in a round of input.
      let digested: Promise<string> | undefined
      const digest = (): Promise<string> => {
        digested ??= argsDigest(args)
        return digested
      }
      if (options.tasks !== undefined && callMode(tool, ctx) === 'task') {
        const tasks = options.tasks
        // A tool that asks before its task: the first leg runs in the request, and the retry that brings
        // its answers becomes the task (a call that needs approval asks both inside its task, as usual).
        const first = asksBeforeTask(tool) ? checkOnce(toolkit, name, args, toolCallId) : undefined
        const early = first !== undefined && !(await first.needsApproval)
        const resumed = early
          ? await resumedRound({ ctx, name, digest, codec: options.forwarding })
          : undefined
        if (early && resumed === undefined) {
          const forwarding = forwardingRound({
            ctx,
            server,
            ...options,
            name,
            digest,
            codec: options.forwarding,
            caller,
            resumed,
          })
          const context = callContext(ctx, toolCallId, request.params._meta, options.era)
          const result = await first.execute({ ...context, inputRound: forwarding.round })
          const verdict = await forwarding.verdict()
          if (verdict?.kind === 'ask') return verdict.result
          if (verdict?.kind === 'missing') throw verdict.error
          // It asked nothing: its answer is the task's, finished already.
          const finished = callToolResult(verdict === undefined ? result : errorResult(verdict.reason))
          return startTask(tasks, { timeoutMs: taskTimeoutMs(tool), run: async () => finished })
        }
        // The approval, when the call needs one, is asked inside the task.
        return startTask(tasks, {
          timeoutMs: taskTimeoutMs(tool),
          run: async (task, ask) => {
            const inTask = checkOnce(toolkit, name, args, task.id)
            if (await inTask.needsApproval) {
              const verdict = await approveInTask({ ctx, ask, name, args, ...options })
              if (verdict.kind !== 'run') return callToolResult(errorResult(refusalOf(verdict)))
            }
            const signal = task.controller.signal
            // A source's questions are asked through the task, like its approval.
            const inputRound = taskRound({ ctx, ask, resumed })
            return callToolResult(
              await inTask.execute({
                toolCallId: task.id,
                signal,
                timeoutMs: Number.POSITIVE_INFINITY,
                inputRound,
              }),
            )
          },
        })
      }
      const checked = checkOnce(toolkit, name, args, toolCallId)
      // A retry answering a forwarded round: the call was approved before its first round was asked.
      const resumed = await resumedRound({ ctx, name, digest, codec: options.forwarding })
      if (resumed === undefined && (await checked.needsApproval)) {
        const verdict = await askApproval({ server, ctx, name, args, ...options, caller })
        if (verdict.kind === 'ask') return verdict.result
        if (verdict.kind === 'refuse') return callToolResult(errorResult(verdict.reason))
      }
      const context = callContext(ctx, toolCallId, request.params._meta, options.era)
      const traced = options.traced
      const outcome = await serveRounds({
        serving: rounds,
        ctx,
        name,
        digest,
        resumed,
        run: (inputRound, signal) => {
          const run = (): Promise<ToolResult> =>
            checked.execute({ ...context, signal, ...(inputRound !== undefined && { inputRound }) })
          return traced === undefined ? run() : traced(name, callerTrace(ctx, request.params._meta), run)
        },
      })
      // The tool handed a round of input up: the caller answers it, and the call goes on from there.
      if (outcome.kind === 'ask') return outcome.result
      if (outcome.kind === 'missing') throw outcome.error
      if (outcome.kind === 'failed') throw outcome.error
      return callToolResult(outcome.kind === 'done' ? outcome.value : errorResult(outcome.reason))
    }),
  )
  const subscriptions = subscribing
    ? options.subscriptions?.session((uri) => {
        server.sendResourceUpdated({ uri }).catch(() => {})
      })
    : undefined
  // The session's subscriptions end with it (closed, deleted, idle), at the sources too.
  if (subscriptions !== undefined) server.onclose = () => void subscriptions.close()
  serveMcpSources(server, toolkit, rounds, subscriptions)
  return server
}

/**
 * A served call's approval and its run, from one check of its arguments (see `callNeedsApproval`: a check
 * that cannot decide asks). A toolkit that made no check of its own runs the call through `execute`.
 */
function checkOnce(toolkit: Toolkit, name: string, args: Record<string, unknown>, toolCallId: string) {
  const { needsApproval, checked } = callNeedsApproval(toolkit, name, args, toolCallId)
  return {
    needsApproval,
    execute: (context: ToolContext): Promise<ToolResult> =>
      checked === undefined ? toolkit.execute(name, args, context) : checked.execute(context),
  }
}

function refusalOf(verdict: ApprovalVerdict): string {
  return verdict.kind === 'refuse' ? verdict.reason : 'The call was not approved. It was not run.'
}

/**
 * A served call's context: its id and signal, and, for the MCP tools among the toolkit's, where their
 * progress (when the caller sent a progress token) and log messages (when it takes them) go: to this
 * caller.
 */
function callContext(
  ctx: ServerContext,
  toolCallId: string,
  meta: unknown,
  era: 'legacy' | 'modern',
): ToolContext {
  const context: ToolContext = { toolCallId, signal: ctx.mcpReq.signal }
  // A 2026-07-28 caller that set no log level gets no log messages, so its sources are not asked for any.
  const envelope: Record<string, unknown> | undefined = ctx.mcpReq.envelope
  if (era === 'legacy' || envelope?.[LOG_LEVEL_META_KEY] !== undefined) {
    context.onLog = (entry) => {
      ctx.mcpReq.log(entry.level, entry.data, entry.logger).catch(() => {})
    }
  }
  const token = isRecord(meta) ? meta.progressToken : undefined
  if (typeof token === 'string' || typeof token === 'number') {
    context.onProgress = (progress) => {
      ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken: token, ...progress } })
        .catch(() => {})
    }
  }
  return context
}

/** The trace context of a request: the 2026-07-28 envelope's, else a 2025 request's `_meta`. */
function callerTrace(ctx: ServerContext, meta: unknown): CallerTrace {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined
  const legacy = isRecord(meta) ? meta : {}
  return {
    traceparent: envelope?.[TRACEPARENT_META_KEY] ?? legacy[TRACEPARENT_META_KEY],
    tracestate: envelope?.[TRACESTATE_META_KEY] ?? legacy[TRACESTATE_META_KEY],
  }
}

function listedTool(tool: Tool): ListedTool {
  const listed: ListedTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as ListedTool['inputSchema'],
  }
  const { annotations } = tool
  if (annotations !== undefined) {
    if (annotations.title !== undefined) listed.title = annotations.title
    listed.annotations = annotations
  }
  return listed
}
