// One streamed model step for the AI SDK's `MockLanguageModelV3`: the parts a provider streams between
// `stream-start` and `finish`, as the chat handler tests script their models.
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider'
import { simulateReadableStream } from 'ai'

/** The usage every scripted step reports. */
export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** A `doStream` result streaming `parts`, then finishing for `reason`. */
export function step(
  parts: LanguageModelV3StreamPart[],
  reason: 'stop' | 'tool-calls',
): { stream: ReadableStream } {
  return {
    stream: simulateReadableStream<LanguageModelV3StreamPart>({
      chunks: [
        { type: 'stream-start', warnings: [] },
        ...parts,
        { type: 'finish', finishReason: { unified: reason, raw: reason }, usage },
      ],
    }),
  }
}

/** One text block, streamed as a single delta. */
export function textParts(id: string, text: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'text-start', id },
    { type: 'text-delta', id, delta: text },
    { type: 'text-end', id },
  ]
}

/** The step that says "Adding." and calls `add` (as `call-add`) with `input`, the model's JSON text. */
export function addingStep(input: string): { stream: ReadableStream } {
  return step(
    [...textParts('t1', 'Adding.'), { type: 'tool-call', toolCallId: 'call-add', toolName: 'add', input }],
    'tool-calls',
  )
}
