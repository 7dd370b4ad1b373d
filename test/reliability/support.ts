// Shared pieces of the reliability suite: a capture of unhandled rejections, an in-process model for
// volume (no HTTP, records nothing, so 10,000 runs hold no history), and the "every call answered" check.
import type { ModelMessage } from 'ai'
import { afterEach, beforeEach, expect } from 'vitest'

/** Collects every unhandled rejection and uncaught exception while installed. */
export interface UnhandledCapture {
  readonly reasons: unknown[]
  /** Removes the listeners; call in `afterEach`. */
  stop(): void
}

/**
 * Listens for `unhandledRejection` and `uncaughtExceptionMonitor`, so a fault test can assert that nothing
 * escaped the library. Vitest would also fail the run on one, but not say which test caused it.
 */
export function captureUnhandled(): UnhandledCapture {
  const reasons: unknown[] = []
  const onRejection = (reason: unknown): void => {
    reasons.push(reason)
  }
  const onException = (error: unknown): void => {
    reasons.push(error)
  }
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtExceptionMonitor', onException)
  return {
    reasons,
    stop() {
      process.off('unhandledRejection', onRejection)
      process.off('uncaughtExceptionMonitor', onException)
    },
  }
}

/** Lets pending promise jobs and timers of this tick run, so a late rejection is seen before asserting. */
export async function settle(ms = 50): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms))
}

/** A tool call the in-process model makes; `input` is the raw JSON text (or deliberately broken text). */
export interface InProcessCall {
  toolCallId: string
  toolName: string
  input: string
}

/** The prompt an AI SDK model receives (spec v3), reduced to what the in-process model reads. */
export interface PromptMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  // biome-ignore lint/suspicious/noExplicitAny: the spec's content union; tests read text and tool results.
  content: any
}

/** What the in-process model answers for one call: tool calls, or text (the turn ends). */
export type InProcessReply = { calls: InProcessCall[] } | { text: string }

const USAGE = {
  inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 2, text: 2, reasoning: undefined },
}

/**
 * A hand-made AI SDK `LanguageModel` (specification v3, which `ai` 6 and 7 both accept) that answers from
 * the prompt alone, keeps nothing between calls, and never touches the network. Volume tests use it.
 */
export function inProcessModel(decide: (prompt: PromptMessage[]) => InProcessReply) {
  const result = (prompt: PromptMessage[]) => {
    const reply = decide(prompt)
    if ('text' in reply) {
      return {
        content: [{ type: 'text' as const, text: reply.text }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage: USAGE,
        warnings: [],
      }
    }
    return {
      content: reply.calls.map((call) => ({ type: 'tool-call' as const, ...call })),
      finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
      usage: USAGE,
      warnings: [],
    }
  }
  return {
    specificationVersion: 'v3' as const,
    provider: 'in-process',
    modelId: 'in-process-model',
    supportedUrls: {},
    doGenerate: async (options: { prompt: PromptMessage[] }) => result(options.prompt),
    doStream: async (options: { prompt: PromptMessage[] }) => {
      const answer = result(options.prompt)
      const parts: unknown[] = [{ type: 'stream-start', warnings: [] }]
      for (const part of answer.content) {
        if (part.type === 'text') {
          parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text })
          parts.push({ type: 'text-end', id: 't' })
        } else parts.push(part)
      }
      parts.push({ type: 'finish', finishReason: answer.finishReason, usage: USAGE })
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part)
            controller.close()
          },
        }),
      }
    },
  }
}

/** The text of the first user message of a prompt. */
export function firstUserText(prompt: PromptMessage[]): string {
  const user = prompt.find((message) => message.role === 'user')
  const parts: Array<{ type: string; text?: string }> = Array.isArray(user?.content) ? user.content : []
  return parts.map((part) => part.text ?? '').join('')
}

/** The tool results of the last message, when it is a tool message. */
export function lastToolOutputs(prompt: PromptMessage[]): string[] | undefined {
  const last = prompt.at(-1)
  if (last?.role !== 'tool') return undefined
  return (last.content as Array<{ output: { value: unknown } }>).map((part) => String(part.output.value))
}

/**
 * Asserts the transcript answers every tool call exactly once: each assistant `tool-call` id has one
 * `tool-result` with the same id, and no result answers a call that was never made. Returns the ids.
 */
export function expectEveryCallAnswered(messages: ModelMessage[]): string[] {
  const calls: string[] = []
  const results: string[] = []
  for (const message of messages) {
    if (typeof message.content === 'string') continue
    for (const part of message.content) {
      if (part.type === 'tool-call') calls.push(part.toolCallId)
      if (part.type === 'tool-result') results.push(part.toolCallId)
    }
  }
  expect([...results].sort()).toStrictEqual([...calls].sort())
  expect(new Set(calls).size).toBe(calls.length)
  return calls
}

/**
 * Fails every test of the calling file on an unhandled rejection: installs a capture before each test and
 * checks it, after letting stray promises settle, after each.
 */
export function failOnUnhandledRejections(): void {
  let unhandled: UnhandledCapture
  beforeEach(() => {
    unhandled = captureUnhandled()
  })
  afterEach(async () => {
    await settle()
    unhandled.stop()
    expect(unhandled.reasons).toStrictEqual([])
  })
}
