// Result pieces in the shape each LanguageModel specification version reports them, for hand-written
// models of a given version.

/** A LanguageModel specification version. */
export type SpecVersion = 'v2' | 'v3' | 'v4'

/** Token usage as a model of `version` reports it: flat in v2, nested totals in v3 and v4. */
export function specUsage(version: SpecVersion, input: number, output: number): unknown {
  return version === 'v2'
    ? { inputTokens: input, outputTokens: output, totalTokens: input + output }
    : {
        inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: output, text: output, reasoning: undefined },
      }
}

/** A finish reason as a model of `version` reports it: a string in v2, `{ unified, raw }` after. */
export function specFinishReason(version: SpecVersion, unified: string): unknown {
  return version === 'v2' ? unified : { unified, raw: unified }
}

/** A `doStream` stream that yields `parts` and ends. */
export function streamOf(parts: unknown[]): ReadableStream<unknown> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part)
      controller.close()
    },
  })
}
