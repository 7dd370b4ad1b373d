import type { Client, CompatibilityCallToolResult, Tool as McpTool } from '@modelcontextprotocol/client'
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/client'
import { isRecord } from '../shared/is-record.js'
import { activeTraceContext } from '../shared/trace-context.js'
import { pendingTaskResult } from '../tool/pending-task.js'
import type { JSONSchema, ToolContext, ToolInputRequest, ToolInputRound, ToolResult } from '../tool/types.js'
import { checkStructuredContent } from './check-structured-content.js'
import { type HeaderCall, paramHeaderProblem } from './header-call.js'
import { mapCallToolResult } from './map-call-tool-result.js'
import type { Session } from './session.js'
import { awaitTask, TASKS_EXTENSION, taskOf } from './task-calls.js'

const DEFAULT_CALL_TIMEOUT_MS = 60_000
// The SDK's own timeout for a call ends this long after the call's deadline: the toolkit's deadline, set
// as the call starts, answers it first (its error names the tool and the limit), and the SDK's then
// cancels the request at the server.
const SDK_TIMEOUT_GRACE_MS = 5
// Bounds a server that keeps asking for more input before it answers one call.
const MAX_INPUT_ROUNDS = 8
// The JSON-RPC error of a request whose headers disagree with its body.
const HEADER_MISMATCH = -32020

type CallToolAnswer = CompatibilityCallToolResult

/** A call whose task still works when the wait for it ended: the task to fetch later. */
export class StillWorking {
  constructor(readonly taskId: string) {}
}

/** What a call's request is sent on: the live session and its client, the call's signal and task wait. */
export interface CallOn {
  session: Session
  client: Client
  signal: AbortSignal | undefined
  taskWaitMs: number | undefined
}

/** One request of a call, sent on the session's client: a `tools/call`, or a task's `tasks/get`. */
export type CallRequest = (on: CallOn) => Promise<CallToolAnswer | StillWorking>

/**
 * Sends one `tools/call` on a session's client, within the call's timeout (one minute when it names none).
 * A call the server answers with a task is polled to its result within the same timeout, or for
 * `taskWaitMs` at most, after which the task is left working (`new StillWorking(taskId)`). Given the tool's
 * `definition` (a tool whose parameters go into `Mcp-Param-*` headers), the SDK's `callTool` sends it and
 * mirrors those parameters; the definition carries no output schema, which the connection checks itself.
 * Positional, not one options object spread together from its parts: this runs for every call.
 */
export async function requestToolCall(
  on: CallOn,
  tool: string,
  args: Record<string, unknown>,
  context: ToolContext,
  /** How the call goes out over HTTP on 2026-07-28 (`headerCall`); nothing elsewhere. */
  { definition, relist, problem }: HeaderCall,
): Promise<CallToolAnswer | StillWorking> {
  const { client, signal, taskWaitMs } = on
  if (problem !== undefined) return failedAnswer(`Tool "${tool}" was not called: its ${problem}.`)
  const timeoutMs = context.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
  const deadline = Date.now() + timeoutMs
  // A 2026-07-28 server's questions go up to whoever serves this toolkit, when its caller can answer them.
  const round =
    context.inputRound !== undefined && client.getProtocolEra() === 'modern' ? context.inputRound : undefined
  const sendWith = (
    toolDefinition: McpTool | undefined,
    resume: Resume | undefined,
  ): Promise<CallToolAnswer> => {
    // Built field by field, not spread together: this runs for every call.
    const params: CallParams = { name: tool, arguments: args }
    if (resume !== undefined) {
      params.inputResponses = resume.inputResponses
      if (resume.requestState !== undefined) params.requestState = resume.requestState
    }
    const meta = callMeta(context, round)
    if (meta !== undefined) params._meta = meta
    const sending: SendOptions = { timeout: Math.max(1, deadline - Date.now()) + SDK_TIMEOUT_GRACE_MS }
    if (signal !== undefined) sending.signal = signal
    // A progress token is asked for only when the caller listens.
    if (context.onProgress !== undefined) sending.onprogress = reportProgress(context.onProgress)
    if (round !== undefined) sending.allowInputRequired = true
    // `request`, not `callTool`, for every other tool: the SDK would check results against the output
    // schemas it cached, and the connection checks them itself, for every tool.
    return toolDefinition === undefined
      ? (client.request({ method: 'tools/call', params }, sending) as Promise<CallToolAnswer>)
      : (client.callTool(params, { ...sending, toolDefinition }) as Promise<CallToolAnswer>)
  }
  // Without headers (a stdio server, a 2025 session) there is nothing to list again.
  const send =
    relist === undefined
      ? (resume: Resume | undefined) => sendWith(definition, resume)
      : async (resume: Resume | undefined): Promise<CallToolAnswer> => {
          try {
            return await sendWith(definition, resume)
          } catch (error) {
            // The server checks the headers against its tool's schema as it is now: when they disagree,
            // the tool may have changed since it was listed. It is listed again, and the call sent once
            // more if it fits.
            if (!(error instanceof ProtocolError && error.code === HEADER_MISMATCH)) throw error
            const fresh = await relist()
            if (fresh === undefined || paramHeaderProblem(fresh, args) !== undefined) throw error
            return await sendWith(fresh, resume)
          }
        }
  const answer = round === undefined ? await send(undefined) : await askedThrough(round, send)
  const task = taskOf(answer)
  if (task === undefined) return answer
  const waiting = taskWaitMs === undefined ? {} : { waitMs: taskWaitMs }
  const result = await awaitTask(client, task, { deadline, signal, ...waiting })
  return result === undefined ? new StillWorking(task.taskId) : (result as CallToolAnswer)
}

/**
 * Asks again for a task an earlier call left working: polled at once, then for `taskWaitMs` and at most
 * half the call's timeout, so that the result (or the task's failure) is answered, or the task is left
 * working once more.
 */
export async function requestTaskResult(
  on: CallOn,
  taskId: string,
  context: ToolContext,
): Promise<CallToolAnswer | StillWorking> {
  const { client, signal, taskWaitMs } = on
  const timeoutMs = context.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
  const waitMs = Math.min(taskWaitMs ?? Number.POSITIVE_INFINITY, timeoutMs / 2)
  const task = { taskId, pollIntervalMs: undefined }
  const deadline = Date.now() + timeoutMs
  const result = await awaitTask(client, task, { deadline, signal, waitMs, immediate: true })
  return result === undefined ? new StillWorking(taskId) : (result as CallToolAnswer)
}

/** A `tools/call` request's params (a type, not an interface: the SDK takes it as a record). */
type CallParams = {
  name: string
  arguments: Record<string, unknown>
  inputResponses?: Record<string, unknown>
  requestState?: string
  _meta?: Record<string, unknown>
}

/** The SDK's options for one request of a call. */
interface SendOptions {
  timeout: number
  signal?: AbortSignal
  onprogress?: ReturnType<typeof reportProgress>
  allowInputRequired?: boolean
}

/** What a call sent again after a round of input carries: the answers and the server's own state. */
interface Resume {
  inputResponses: Record<string, unknown>
  requestState?: string
}

/**
 * Sends a call whose server's input requests are handed up through `round`: resumed with the caller's
 * answers when the call is a retry, and each `input_required` answer asked of the caller and sent again
 * with its responses, at most `MAX_INPUT_ROUNDS` times. A round the caller cannot answer ends the call
 * with an error result saying why.
 */
async function askedThrough(
  round: ToolInputRound,
  send: (resume: Resume | undefined) => Promise<CallToolAnswer>,
): Promise<CallToolAnswer> {
  const { resumed } = round
  const first: Resume | undefined =
    resumed === undefined
      ? undefined
      : {
          inputResponses: resumed.responses,
          ...(resumed.state !== undefined && { requestState: resumed.state }),
        }
  let answer = await refusedForCapabilities(round, () => send(first))
  for (let rounds = 0; isInputRequired(answer); rounds++) {
    if (rounds >= MAX_INPUT_ROUNDS) {
      return failedAnswer(`The server asked for input more than ${MAX_INPUT_ROUNDS} times in one call.`)
    }
    const requests = isRecord(answer.inputRequests) ? answer.inputRequests : {}
    const state = typeof answer.requestState === 'string' ? answer.requestState : undefined
    let responses: Record<string, unknown>
    try {
      responses = await round.ask(requests as Record<string, ToolInputRequest>, state)
    } catch (error) {
      return failedAnswer(error instanceof Error ? error.message : String(error))
    }
    const resume = { inputResponses: responses, ...(state !== undefined && { requestState: state }) }
    answer = await refusedForCapabilities(round, () => send(resume))
  }
  return answer
}

/**
 * Sends one leg; a server that refuses it for a capability the caller did not declare (and so was not
 * offered) is reported up through `round`, and the call ends with an error result saying so.
 */
async function refusedForCapabilities(
  round: ToolInputRound,
  send: () => Promise<CallToolAnswer>,
): Promise<CallToolAnswer> {
  try {
    return await send()
  } catch (error) {
    if (!(error instanceof MissingRequiredClientCapabilityError)) throw error
    round.missingCapabilities(error.requiredCapabilities as Record<string, unknown>)
    return failedAnswer(`The server needs capabilities the caller did not declare: ${error.message}`)
  }
}

function isInputRequired(answer: unknown): answer is Record<string, unknown> {
  return isRecord(answer) && answer.resultType === 'input_required'
}

function failedAnswer(text: string): CallToolAnswer {
  return { content: [{ type: 'text', text }], isError: true }
}

/** A server's answer to a call as a tool result, its `structuredContent` checked against the output schema. */
export function toolCallResult(
  answer: CallToolAnswer | StillWorking,
  options: { origin: { server: string; tool: string }; outputSchema: JSONSchema | undefined },
): ToolResult {
  const { origin, outputSchema } = options
  if (answer instanceof StillWorking) return pendingTaskResult({ ...origin, taskId: answer.taskId })
  const mapped = mapCallToolResult(answer, origin)
  return mapped.isError || outputSchema === undefined || 'toolResult' in answer
    ? mapped
    : checkStructuredContent(mapped, answer.structuredContent, outputSchema, origin)
}

/** The server's progress notifications, as the numbers and message they carry. */
function reportProgress(onProgress: NonNullable<ToolContext['onProgress']>) {
  return (progress: { progress: number; total?: number | undefined; message?: string | undefined }): void => {
    const report: Parameters<typeof onProgress>[0] = { progress: progress.progress }
    if (typeof progress.total === 'number') report.total = progress.total
    if (typeof progress.message === 'string') report.message = progress.message
    onProgress(report)
  }
}

/**
 * The call's `_meta`, or `undefined` when it has none: for a call whose questions go up the line, the capabilities offered for it; its idempotency key (so that the server can recognise a second attempt of it) and
 * the trace context of the span it runs in (so that the server's spans join the host's trace).
 */
function callMeta(
  context: ToolContext,
  round: ToolInputRound | undefined,
): Record<string, unknown> | undefined {
  const trace = activeTraceContext()
  const { idempotencyKey, onLog } = context
  if (round === undefined && idempotencyKey === undefined && onLog === undefined && trace === undefined) {
    return undefined
  }
  const meta: Record<string, unknown> = {}
  // Offered to the server: what the caller up the line can answer, and tasks (which this client polls).
  if (round !== undefined) meta[CLIENT_CAPABILITIES_META_KEY] = forwardedCapabilities(round)
  if (idempotencyKey !== undefined) meta.idempotencyKey = idempotencyKey
  // A caller that takes the call's log messages gets them all (a 2026-07-28 server sends none unasked);
  // it filters them itself.
  if (onLog !== undefined) meta[LOG_LEVEL_META_KEY] = 'debug'
  if (trace !== undefined) {
    meta[TRACEPARENT_META_KEY] = trace.traceparent
    if (trace.tracestate !== undefined) meta[TRACESTATE_META_KEY] = trace.tracestate
  }
  return meta
}

/** The capabilities a call whose questions go up the line declares: its caller's, and tasks. */
function forwardedCapabilities(round: ToolInputRound): Record<string, unknown> {
  const offered: Record<string, unknown> = { extensions: { [TASKS_EXTENSION]: {} } }
  for (const key of ['elicitation', 'sampling', 'roots']) {
    if (isRecord(round.capabilities[key])) offered[key] = round.capabilities[key]
  }
  return offered
}
