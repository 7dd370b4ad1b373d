import { SpanStatusCode } from '@opentelemetry/api'
import type { ModelToolCall } from '../contracts/transport.js'
import { toJsonText } from '../tool/tool-result.js'

/** A streaming model call the loop stopped reading before its turn was complete. */
export class StoppedError extends Error {
  override readonly name = 'AbortError'
}

/**
 * A low-cardinality class for what went wrong: the HTTP status of a provider error, else the error's
 * name (`ModelCallError`, `AbortError`, `TypeError`), else `_OTHER`, as the conventions ask.
 */
export function errorTypeOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { statusCode, cause } = error as { statusCode?: unknown; cause?: unknown }
    if (typeof statusCode === 'number') return String(statusCode)
    const causeStatus = (cause as { statusCode?: unknown } | null | undefined)?.statusCode
    if (typeof causeStatus === 'number') return String(causeStatus)
  }
  if (error instanceof Error && error.name !== '') return error.name
  return '_OTHER'
}

/**
 * The error status. The message is content (a provider's error can quote the request), so it is kept only
 * where content is recorded, and masked there too.
 */
export function errorStatus(
  error: unknown,
  scrub: ((text: string) => string) | undefined,
): { code: SpanStatusCode; message?: string } {
  if (scrub === undefined) return { code: SpanStatusCode.ERROR }
  const message = error instanceof Error ? error.message : toJsonText(error)
  return { code: SpanStatusCode.ERROR, message: scrub(message) }
}

/** The conventions spell finish reasons with underscores (`tool_calls`); the loop's use hyphens. */
export function finishReasonOf(reason: string): string {
  return reason.replaceAll('-', '_')
}

export function systemParts(system: string): string {
  return JSON.stringify([{ type: 'text', content: system }])
}

/** The conventions' `gen_ai.output.messages`: one assistant message with its text and tool calls. */
export function outputMessages(
  text: string,
  toolCalls: readonly ModelToolCall[],
  finishReason: string,
): string {
  const parts: unknown[] = []
  if (text !== '') parts.push({ type: 'text', content: text })
  for (const call of toolCalls) {
    parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input })
  }
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: finishReasonOf(finishReason) }])
}
