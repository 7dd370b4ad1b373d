// RunEvents → the AI SDK UI message stream (the SSE protocol `useChat` reads). Web APIs only: this runs on
// edge runtimes. Only chunk types that `ai` 6 and 7 both parse are written.

import type { RunEvent, RunResult } from '../contracts/run-types.js'
import type { Awaitable } from '../shared/awaitable.js'
import { errorMessage } from '../tool/tool-result.js'

/**
 * The headers `createUIMessageStreamResponse` from `ai` sets (identical in `ai` 6 and 7); `useChat` checks
 * none of them, but proxies do: `x-accel-buffering: no` keeps nginx from buffering the stream.
 */
const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
}

/**
 * The UI data part that shows a call running on its MCP server as a task (`data-toolnexus-task`, one per
 * call: its `id` is the call's id, so a later chunk replaces it in the message).
 */
export const TASK_DATA_TYPE = 'data-toolnexus-task'

/**
 * What the `data-toolnexus-task` part of a call holds: the task, and whether it still runs (`working`: the
 * tool part stays at `input-available`, and the run waits to be resumed), finished (`completed`: the tool
 * part has its output) or failed (`failed`: the tool part has the error).
 *
 * @example
 * const data: ToolTaskData = { toolCallId: 'call_1', toolName: 'reports_build', server: 'reports', taskId: 'task-7f', status: 'working' }
 */
export interface ToolTaskData {
  toolCallId: string
  toolName: string
  server: string
  taskId: string
  status: 'working' | 'completed' | 'failed'
}

/** The finish reasons both `ai` 6 and 7 accept on a `finish` chunk; anything else is sent as `other`. */
const FINISH_REASONS = new Set(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'])

/**
 * One chunk of the AI SDK UI message stream, limited to the types (and fields) `ai` 6 and 7 both parse.
 * Tool chunks carry `dynamic: true`: toolkit tools (MCP, skills) are known only at run time, which is
 * what the AI SDK's dynamic tools mean, so the UI sees `dynamic-tool` parts with a `toolName`.
 *
 * @example
 * const chunk: UIMessageStreamChunk = { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'timed out', dynamic: true }
 */
export type UIMessageStreamChunk =
  | { type: 'start' }
  | { type: 'start-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string; dynamic: true }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown; dynamic: true }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown; dynamic: true }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string; dynamic: true }
  | { type: 'file'; url: string; mediaType: string }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: typeof TASK_DATA_TYPE; id: string; data: ToolTaskData }
  | { type: 'finish-step' }
  | { type: 'finish'; finishReason: string; messageMetadata?: unknown }
  | { type: 'error'; errorText: string }

/**
 * `ResponseInit` plus what the UI message stream itself needs to know.
 *
 * @example
 * const init: UIMessageStreamResponseInit = { signal: request.signal, onError: () => 'Something went wrong.' }
 */
export interface UIMessageStreamResponseInit<Message = unknown> extends ResponseInit {
  /**
   * The text the browser sees when the run fails (the `error` chunk). Default: the error's message —
   * toolnexus errors never carry secrets, but return something generic here if your provider's might.
   */
  onError?: (error: unknown) => string
  /** Stops reading the run when aborted (pass the request's signal); the stream then ends quietly. */
  signal?: AbortSignal
  /**
   * Called with the run's result when it finishes, before the `finish` chunk: what it returns becomes the
   * assistant message's `metadata` (`readUIMessageStream` keeps it, `useChat` posts it back). A throw
   * becomes the `error` chunk instead of `finish`.
   */
  messageMetadata?: (result: RunResult<Message>) => Awaitable<Record<string, unknown> | undefined>
}

/**
 * Turns RunEvents into UI message chunks, tracking the open step and text part so every `*-start` gets
 * its `*-end` and steps never nest.
 */
function createChunkTranslator(): {
  translate(event: RunEvent<unknown>): UIMessageStreamChunk[]
  /** Closes whatever is open (a run that failed mid-step). */
  close(): UIMessageStreamChunk[]
} {
  let stepOpen = false
  let textId: string | undefined
  let textCount = 0

  const endText = (): UIMessageStreamChunk[] => {
    if (textId === undefined) return []
    const chunk: UIMessageStreamChunk = { type: 'text-end', id: textId }
    textId = undefined
    return [chunk]
  }
  const startStep = (): UIMessageStreamChunk[] => {
    if (stepOpen) return []
    stepOpen = true
    return [{ type: 'start-step' }]
  }
  const endStep = (): UIMessageStreamChunk[] => {
    const chunks = endText()
    if (stepOpen) chunks.push({ type: 'finish-step' })
    stepOpen = false
    return chunks
  }

  return {
    translate(event) {
      switch (event.type) {
        case 'text-delta': {
          if (event.text === '') return []
          const chunks = startStep()
          if (textId === undefined) {
            textCount += 1
            textId = `text-${textCount}`
            chunks.push({ type: 'text-start', id: textId })
          }
          chunks.push({ type: 'text-delta', id: textId, delta: event.text })
          return chunks
        }
        case 'tool-call': {
          const { toolCallId, toolName, input } = event
          return [
            ...startStep(),
            ...endText(),
            { type: 'tool-input-start', toolCallId, toolName, dynamic: true },
            { type: 'tool-input-available', toolCallId, toolName, input, dynamic: true },
          ]
        }
        case 'tool-result': {
          const { toolCallId, output } = event
          const chunks: UIMessageStreamChunk[] = [...startStep(), ...endText()]
          if (event.task !== undefined) chunks.push(taskChunk(event, event.task))
          // A call still running as a task has no output yet: its tool part stays at `input-available`.
          if (event.task?.status === 'working') return chunks
          chunks.push(
            event.isError
              ? { type: 'tool-output-error', toolCallId, errorText: output, dynamic: true }
              : { type: 'tool-output-available', toolCallId, output, dynamic: true },
          )
          // Images and audio a tool returned show in the message as file parts (data URLs).
          if (event.media !== undefined && !event.isError) {
            for (const media of event.media) {
              chunks.push({
                type: 'file',
                url: `data:${media.mediaType};base64,${media.data}`,
                mediaType: media.mediaType,
              })
            }
          }
          return chunks
        }
        case 'tool-approval-request':
          return [
            ...startStep(),
            ...endText(),
            { type: 'tool-approval-request', approvalId: event.approvalId, toolCallId: event.toolCallId },
          ]
        case 'tool-output-denied':
          return [...startStep(), ...endText(), { type: 'tool-output-denied', toolCallId: event.toolCallId }]
        case 'step-end':
          return endStep()
        case 'finish': {
          const reason = event.result.finishReason
          return [
            ...endStep(),
            { type: 'finish', finishReason: FINISH_REASONS.has(reason) ? reason : 'other' },
          ]
        }
        default:
          // A newer loop may add event types; they have no UI chunk yet, and must not break the stream.
          return []
      }
    },
    close: endStep,
  }
}

/**
 * Answers with a run's events as the AI SDK UI message stream — the SSE body `useChat` reads, with the
 * headers `createUIMessageStreamResponse` sets. An error thrown mid-run becomes an `error` chunk and the
 * stream still ends with `data: [DONE]`; a client that disconnects (or `init.signal`) stops the run.
 *
 * @example
 * export async function POST(request: Request) {
 *   const { messages } = await request.json()
 *   const events = client.stream(await convertToModelMessages(messages), { toolkit, signal: request.signal })
 *   return toUIMessageStreamResponse(events, { signal: request.signal })
 * }
 */
export function toUIMessageStreamResponse<Message>(
  events: AsyncIterable<RunEvent<Message>>,
  init: UIMessageStreamResponseInit<Message> = {},
): Response {
  const { onError = errorMessage, signal, headers, messageMetadata, ...responseInit } = init
  const encoder = new TextEncoder()
  const translator = createChunkTranslator()
  const iterator = events[Symbol.asyncIterator]()
  let done = false
  // The reader went away: nothing may be enqueued any more.
  let cancelled = false

  const stop = (): void => {
    if (done) return
    done = true
    // Ends the run's generator (its `finally` blocks run); a rejection here has nobody left to tell.
    void Promise.resolve(iterator.return?.()).catch(() => {})
  }
  signal?.addEventListener('abort', stop, { once: true })

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(toSse({ type: 'start' })))
    },
    // Event by event on demand: the run advances only as fast as the client reads.
    async pull(controller) {
      const send = (chunks: UIMessageStreamChunk[]): void => {
        for (const chunk of chunks) controller.enqueue(encoder.encode(toSse(chunk)))
      }
      const end = (): void => {
        done = true
        signal?.removeEventListener('abort', stop)
        controller.enqueue(encoder.encode('data: [DONE]\n\n'))
        controller.close()
      }
      const closeQuietly = (): void => {
        try {
          controller.close()
        } catch {
          // Already closed: the reader cancelled.
        }
      }
      if (done || signal?.aborted) {
        stop()
        return closeQuietly()
      }
      try {
        // Read until there is something to send: a pull that enqueues nothing is not called again.
        for (;;) {
          const next = await iterator.next()
          if (done) return closeQuietly() // stopped while waiting: end the body without [DONE]
          if (next.done) {
            send(translator.close()) // ended without `finish`: still close what is open
            return end()
          }
          if (next.value.type === 'finish') {
            const finish = next.value
            stop()
            let metadata: Record<string, unknown> | undefined
            try {
              metadata = await messageMetadata?.(finish.result)
            } catch (error) {
              if (cancelled || signal?.aborted) return closeQuietly()
              send([...translator.close(), { type: 'error', errorText: safeErrorText(onError, error) }])
              return end()
            }
            if (cancelled || signal?.aborted) return closeQuietly()
            const chunks = translator.translate(finish)
            if (metadata !== undefined) {
              for (const chunk of chunks) if (chunk.type === 'finish') chunk.messageMetadata = metadata
            }
            send(chunks)
            return end()
          }
          const chunks = translator.translate(next.value)
          send(chunks)
          if (chunks.length > 0) return
        }
      } catch (error) {
        if (done) return closeQuietly()
        send([...translator.close(), { type: 'error', errorText: safeErrorText(onError, error) }])
        end()
      }
    },
    cancel() {
      cancelled = true
      stop()
    },
  })

  const responseHeaders = new Headers(headers)
  for (const [name, value] of Object.entries(UI_MESSAGE_STREAM_HEADERS)) {
    if (!responseHeaders.has(name)) responseHeaders.set(name, value)
  }
  return new Response(body, { ...responseInit, headers: responseHeaders })
}

/** The data part that shows a task call's state. */
function taskChunk(
  event: { toolCallId: string; toolName: string; isError: boolean },
  task: { server: string; taskId: string; status: 'working' | 'settled' },
): UIMessageStreamChunk {
  const status = task.status === 'working' ? 'working' : event.isError ? 'failed' : 'completed'
  const { toolCallId, toolName } = event
  return {
    type: TASK_DATA_TYPE,
    id: toolCallId,
    data: { toolCallId, toolName, server: task.server, taskId: task.taskId, status },
  }
}

function toSse(chunk: UIMessageStreamChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`
}

/** A throwing `onError` must not break the stream it is reporting on. */
function safeErrorText(onError: (error: unknown) => string, error: unknown): string {
  try {
    return onError(error)
  } catch {
    return errorMessage(error)
  }
}
