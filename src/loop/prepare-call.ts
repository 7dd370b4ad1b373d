import type { ModelToolCall } from '../contracts/transport.js'
import type { PendingTaskMark } from '../tool/pending-task.js'
import type { CheckedCall, ToolRunner } from '../toolkit/toolkit.js'
import { decodeToolInput } from './decode-tool-input.js'

/** A model's tool call as the loop answers it: its arguments read, or why they cannot be used. */
export interface PreparedCall {
  call: ModelToolCall
  /** The arguments as an object, or the raw text when they were not a JSON object. */
  args: unknown
  /** Why the arguments cannot be used, when they cannot. */
  problem: string | undefined
  /** The arguments the tool ran with, when a `beforeTool` hook replaced them. */
  replacedArgs?: Record<string, unknown>
  /** `<run>:<turn>:<position>`: the same for this call on every replay of the run. */
  idempotencyKey?: string | undefined
  /** The call as the toolkit checked it for its approval, when it did: its run uses the same check. */
  checked?: CheckedCall | undefined
  /** A resumed call that ran as an MCP task: its result is asked of the server, the tool is not run. */
  task?: PendingTaskMark | undefined
}

/**
 * The arguments a call's record shows: the raw text when they were not JSON, else what the tool got.
 *
 * @example
 * recordedArgs(prepareCall(call, toolkit)) // { city: 'Pune' }
 */
export function recordedArgs(prepared: PreparedCall): unknown {
  const { args } = prepared
  if (prepared.problem !== undefined || typeof args === 'string') return args
  return prepared.replacedArgs ?? (typeof args === 'object' && args !== null ? args : {})
}

/**
 * A model's tool call with its arguments read: the object, or the text and the problem the model is
 * answered with.
 *
 * @example
 * prepareCall({ id: 'call_1', name: 'add', input: '{"a":1}' }, toolkit).args // { a: 1 }
 */
export function prepareCall(call: ModelToolCall, toolkit: ToolRunner | undefined): PreparedCall {
  // The key is set once the call is answered (`keyCalls`); made with its slot, the call keeps its shape.
  if (typeof call.input !== 'string')
    return { call, args: call.input, problem: undefined, idempotencyKey: undefined }
  // Transports decode the arguments once and say why text is not usable; a custom one may hand text over.
  const decoded = call.inputProblem === undefined ? decodeToolInput(call.input) : call
  if (typeof decoded.input !== 'string')
    return { call, args: decoded.input, problem: undefined, idempotencyKey: undefined }
  const why = 'inputProblem' in decoded ? decoded.inputProblem : undefined
  return {
    call,
    args: decoded.input,
    problem: argumentsProblem(call.name, why ?? '', decoded.input, toolkit),
    idempotencyKey: undefined,
  }
}

function argumentsProblem(
  name: string,
  why: string,
  sent: string,
  toolkit: ToolRunner | undefined,
): string | undefined {
  // An unknown tool is the bigger mistake: let the toolkit name it and list what exists.
  if (toolkit?.get(name) === undefined) return undefined
  const quoted = sent.length > 200 ? `${sent.slice(0, 200)}…` : sent
  return `Invalid arguments for tool "${name}": ${why}. Received: ${quoted}. Send the arguments as one JSON object matching the tool's schema.`
}
