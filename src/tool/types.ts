/**
 * A JSON Schema object. toolnexus always exposes a tool's input as plain JSON Schema with an object root.
 *
 * @example
 * const schema: JSONSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
 */
export type JSONSchema = { [key: string]: unknown }

/** Where a tool came from. */
export type ToolSource = 'native' | 'mcp' | 'skill' | 'http' | 'ai-sdk' | 'custom'

/**
 * What running a tool produced. A failure is a result too: `isError: true` with a message in `output`.
 *
 * @example
 * const ok: ToolResult = { output: 'sunny in Chennai', isError: false }
 * const failed: ToolResult = { output: 'city is required', isError: true }
 */
export interface ToolResult {
  /** The text the model reads. */
  output: string
  /** True when the call failed; `output` then says why. */
  isError: boolean
  /** Anything else worth keeping (HTTP status, structured content, …). Not sent to the model. */
  metadata?: Record<string, unknown>
  /**
   * Images or audio the tool produced. Transports whose provider takes media in a tool result send them
   * beside `output`; the others send `output` alone, which should then say in words what was produced.
   */
  media?: readonly ToolMedia[]
}

/**
 * One image or audio clip in a tool result, as base64 bytes with their IANA media type.
 *
 * @example
 * const image: ToolMedia = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }
 */
export interface ToolMedia {
  type: 'image' | 'audio'
  /** The IANA media type, e.g. `image/png` or `audio/wav`. */
  mediaType: string
  /** The bytes, base64-encoded. */
  data: string
}

/**
 * What a tool is told about the call it serves. The context a toolkit passes makes its `signal` on first
 * read (a getter), so hand `context.signal` on, or copy the fields you need, rather than spreading it.
 *
 * @example
 * execute: async ({ url }, context) => fetch(url, { signal: context?.signal })
 */
export interface ToolContext {
  /** Aborted when the run is cancelled or the call times out; a well-behaved tool stops then. */
  signal?: AbortSignal
  /** The id the model gave this call, when it gave one. */
  toolCallId?: string
  /** The time this call may take, in milliseconds. */
  timeoutMs?: number
  /**
   * The same for this call every time it is tried, in this process or another: a durable run replayed
   * after a crash gives a call interrupted inside the tool the key it had. A tool with a side effect
   * (a payment, an email) passes it on, so that the second attempt is recognised. HTTP tools send it as
   * the `Idempotency-Key` header, MCP calls carry it in `_meta`.
   *
   * @example
   * execute: async ({ amount }, { idempotencyKey }) => refund({ amount, idempotencyKey })
   */
  idempotencyKey?: string
  /**
   * Where the tool reports how far it got, when the caller wants to know: an MCP gateway passes on its
   * caller's progress token this way, and an MCP tool's progress notifications come back through it.
   *
   * @example
   * execute: async (_args, { onProgress }) => { onProgress?.({ progress: 1, total: 2 }); return 'half' }
   */
  onProgress?: (progress: ToolProgress) => void
  /**
   * Where the tool's log messages go, when the caller wants them: an MCP tool's log notifications sent
   * while it runs come back through it.
   *
   * @example
   * execute: async (_args, { onLog }) => { onLog?.({ level: 'info', data: 'started' }); return 'done' }
   */
  onLog?: (entry: ToolLogEntry) => void
  /**
   * Present when whoever serves the tool can put questions to its own caller (a gateway serving the
   * toolkit over MCP): the tool hands its input requests up through it instead of answering them itself.
   * An MCP tool whose server asks for input mid-call uses it, so the question reaches the gateway's
   * caller rather than the host's `onElicitation`.
   *
   * @example
   * execute: async (_args, { inputRound }) => {
   *   const answers = await inputRound?.ask({ name: { method: 'roots/list' } })
   *   return JSON.stringify(answers)
   * }
   */
  inputRound?: ToolInputRound
}

/**
 * One question a tool hands up to its caller: an MCP `elicitation/create`, `sampling/createMessage` or
 * `roots/list` request, with its params.
 *
 * @example
 * const request: ToolInputRequest = { method: 'elicitation/create', params: { message: 'Which repo?', requestedSchema: { type: 'object', properties: {} } } }
 */
export interface ToolInputRequest {
  method: string
  params?: Record<string, unknown>
}

/**
 * How a tool asks its caller for input (see `ToolContext.inputRound`). `ask` hands a round of requests
 * (at most 16, keyed) up and resolves with the caller's responses under the same keys. Where the caller
 * answers in a later request (MCP 2026-07-28), the call ends at `ask` and is run again with the answers
 * in `resumed`, together with the `state` the tool gave with its requests: a tool that uses it starts
 * from `resumed` when it is there.
 *
 * @example
 * const round: ToolInputRound = context.inputRound!
 * if (round.resumed !== undefined) return continueWith(round.resumed.responses, round.resumed.state)
 * const answers = await round.ask({ confirm: { method: 'elicitation/create', params } }, 'step-1')
 */
export interface ToolInputRound {
  /** What the caller can answer: its MCP client capabilities `elicitation`, `sampling`, `roots`. */
  readonly capabilities: Readonly<Record<string, unknown>>
  /** The caller's answers to the previous round's requests, and the state given with them. */
  readonly resumed?: { responses: Record<string, unknown>; state?: string }
  /** Hands a round of requests up; resolves with the responses, keyed as the requests were. */
  ask(requests: Record<string, ToolInputRequest>, state?: string): Promise<Record<string, unknown>>
  /**
   * Hands a round up and waits for its answers while the call keeps running: for a question that cannot
   * be asked again later (a 2025-era MCP server's own request mid-call). Where the caller answers in a
   * later request, the call is held in this process until that retry brings them. Absent where no
   * call can be held.
   */
  hold?(requests: Record<string, ToolInputRequest>): Promise<Record<string, unknown>>
  /**
   * Says the call needs client capabilities the caller did not declare (`{ sampling: {} }`), so that
   * whoever serves the tool refuses it with the protocol's missing-capability error.
   */
  missingCapabilities(required: Record<string, unknown>): void
}

/**
 * How far a call got: `progress` grows with each report; `total` when it is known.
 *
 * @example
 * const progress: ToolProgress = { progress: 50, total: 100, message: 'half way' }
 */
export interface ToolProgress {
  progress: number
  total?: number
  message?: string
}

/**
 * One log message of a running call, in MCP's levels (RFC 5424 severities).
 *
 * @example
 * const entry: ToolLogEntry = { level: 'warning', logger: 'db', data: 'slow query' }
 */
export interface ToolLogEntry {
  level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency'
  logger?: string
  data: unknown
}

/**
 * Whether a call must wait for a person's approval before it runs: `true` for every call, or a function
 * of the call's arguments (already checked against the schema) deciding each one.
 *
 * @example
 * const needsApproval: NeedsApproval = ({ amount }) => Number(amount) > 100
 */
export type NeedsApproval =
  | boolean
  | ((args: Record<string, unknown>, context: ToolContext) => boolean | PromiseLike<boolean>)

/**
 * How a tool that takes long is served over MCP (`toolnexus/mcp-server`): `true` serves each call as a
 * task to a client that supports tasks (it polls for the result) and runs it at once for any other;
 * `required: true` refuses the call from a client without tasks; `timeoutMs` bounds the task (past it
 * the task fails and the tool's signal is aborted; absent, the task is bounded only by its time to live).
 * `inputFirst: true` asks the tool's first round of input (`context.inputRound`) before the task starts:
 * the first leg of a 2026-07-28 call runs in its request until the tool asks (the call answers
 * input-required) or answers (a task already finished); the retry with the answers becomes the task,
 * and the tool runs in it from them (`inputRound.resumed`). Such a tool asks first thing.
 *
 * @example
 * const longRunning: LongRunning = { required: true, timeoutMs: 10 * 60_000 }
 * const gathering: LongRunning = { required: true, inputFirst: true }
 */
export type LongRunning = boolean | { required?: boolean; timeoutMs?: number; inputFirst?: boolean }

/**
 * What an MCP server says about a tool's behaviour (`annotations` of `tools/list`). Hints, not
 * guarantees: they come from the server.
 *
 * @example
 * const annotations: ToolAnnotations = { destructiveHint: true, readOnlyHint: false }
 */
export interface ToolAnnotations {
  title?: string | undefined
  /** The tool changes nothing. */
  readOnlyHint?: boolean | undefined
  /** The tool may delete or overwrite (meaningful when it is not read-only). */
  destructiveHint?: boolean | undefined
  /** Calling it twice with the same arguments does nothing more. */
  idempotentHint?: boolean | undefined
  /** The tool reaches beyond a closed world (the web, other people). */
  openWorldHint?: boolean | undefined
  [key: string]: unknown
}

/**
 * The server or service a tool belongs to, by name and what it is for: an MCP server's config name and
 * its description (or instructions). Tool search ranks a tool by it too.
 *
 * @example
 * const server: ToolServer = { name: 'github', description: 'Issues, pull requests and code on GitHub' }
 */
export interface ToolServer {
  name: string
  description?: string
}

/**
 * One tool, whatever its origin: the uniform shape every adapter and the loop work with.
 *
 * `execute` never throws and never rejects: every failure comes back as `{ isError: true, output }`.
 *
 * @example
 * const result = await tool.execute({ city: 'Chennai' }, { toolCallId: 'call_1' })
 * if (result.isError) console.error(result.output)
 */
export interface Tool {
  /** The exposed name, matching `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string
  description: string
  /** Plain JSON Schema with `type: 'object'` at the root. */
  inputSchema: JSONSchema
  source: ToolSource
  /** Calls wait for a person's approval before they run (see `client.resume`). Absent: they run at once. */
  needsApproval?: NeedsApproval
  /** Behaviour hints in MCP's terms: an MCP server's, or given to `defineTool`; served by `toolnexus/mcp-server`. */
  annotations?: ToolAnnotations
  /** The server (or service) the tool belongs to: an MCP tool's server. Tool search reads it. */
  server?: ToolServer
  /** Served over MCP as a task (the client polls for the result) instead of one long request. */
  longRunning?: LongRunning
  execute(args: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>
}
