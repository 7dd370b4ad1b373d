import type {
  ProviderOptions,
  SpecMessage,
  SpecMessagePart,
  SpecToolResultPart,
} from './language-model-spec.js'

type AssistantPart = Extract<SpecMessage, { role: 'assistant' }>['content'][number]

/**
 * The provider-metadata key that marks the calls and results `withToolkit` reported: the AI SDK hands
 * a part's metadata back as its `providerOptions`, so the wrapper knows its own parts in a later prompt
 * from those of a provider's own tools (web search and the like).
 */
export const TOOLNEXUS_MARK = 'toolnexus'
type ToolPart = Extract<SpecMessage, { role: 'tool' }>['content'][number]

/**
 * The prompt the AI SDK hands a model wrapped by `withToolkit`, turned back into what the inner model
 * must see. The wrapper reports the toolkit's calls as provider-executed, so the AI SDK keeps each call
 * and its result together in one assistant message; the inner model declared them as ordinary function
 * tools and needs an assistant message with the calls followed by a tool message with their results, turn
 * by turn, as the loop had them. A call of the toolkit's with no result beside it (a step cut short) is
 * left out: a provider refuses a call without its answer.
 *
 * @example
 * convertProviderFormPrompt([{ role: 'assistant', content: [call, result, { type: 'text', text: 'Done.' }] }])
 * // [{ role: 'assistant', content: [call] }, { role: 'tool', content: [result] }, { role: 'assistant', content: [text] }]
 */
export function convertProviderFormPrompt(prompt: readonly SpecMessage[]): SpecMessage[] {
  const converted: SpecMessage[] = []
  for (let index = 0; index < prompt.length; index++) {
    const message = prompt[index] as SpecMessage
    if (message.role !== 'assistant' || !message.content.some((part) => isOwnPart(part))) {
      converted.push(message)
      continue
    }
    const answered = new Set<string>()
    for (const part of message.content) {
      if (part.type === 'tool-result' && isOwnPart(part)) answered.add(toolCallIdOf(part))
    }
    let calls: AssistantPart[] = []
    let results: ToolPart[] = []
    let first = true
    const flushTurn = (): void => {
      if (calls.length > 0) {
        converted.push(first ? { ...message, content: calls } : { role: 'assistant', content: calls })
        first = false
      }
      if (results.length > 0) converted.push({ role: 'tool', content: results })
      calls = []
      results = []
    }
    for (const part of message.content) {
      if (part.type === 'tool-result' && isOwnPart(part)) {
        results.push(toToolMessageResult(part as SpecToolResultPart))
        continue
      }
      // A part after the results starts the next turn of the loop.
      if (results.length > 0) flushTurn()
      if (part.type === 'tool-call' && isOwnPart(part)) {
        if (!answered.has(toolCallIdOf(part))) continue
        const { providerExecuted: _, ...call } = part as AssistantPart & { providerExecuted?: boolean }
        calls.push(withoutMark(call))
        continue
      }
      calls.push(part)
    }
    const next = prompt[index + 1]
    if (results.length > 0 && next?.role === 'tool') {
      // The same turn also called the caller's own tools: their results follow in the AI SDK's tool message.
      if (calls.length > 0)
        converted.push(first ? { ...message, content: calls } : { role: 'assistant', content: calls })
      converted.push({ ...next, content: [...results, ...next.content] })
      index++
      continue
    }
    flushTurn()
  }
  return converted
}

function isOwnPart(part: SpecMessagePart): boolean {
  return (
    (part.type === 'tool-call' || part.type === 'tool-result') &&
    part.providerOptions?.[TOOLNEXUS_MARK] !== undefined
  )
}

/** A part without the mark: the inner provider gets only what it sent. */
function withoutMark<Part extends { providerOptions?: ProviderOptions }>(part: Part): Part {
  const { [TOOLNEXUS_MARK]: _, ...options } = part.providerOptions ?? {}
  const { providerOptions: __, ...rest } = part
  return (Object.keys(options).length === 0 ? rest : { ...rest, providerOptions: options }) as Part
}

function toolCallIdOf(part: SpecMessagePart): string {
  return (part as { toolCallId: string }).toolCallId
}

/**
 * A result as a tool message carries it. The AI SDK records a provider-executed result's text as `text`,
 * or as `error-json` when it was an error: the inner model gets back the `error-text` the loop sent.
 */
function toToolMessageResult(part: SpecToolResultPart): SpecToolResultPart {
  const output = part.output as { type?: unknown; value?: unknown } | undefined
  let normalized: unknown = output
  if (typeof output?.value === 'string') {
    if (output.type === 'error-json') normalized = { type: 'error-text', value: output.value }
    else if (output.type === 'json') normalized = { type: 'text', value: output.value }
  }
  const result: SpecToolResultPart = {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    output: normalized,
  }
  return withoutMark(
    part.providerOptions === undefined ? result : { ...result, providerOptions: part.providerOptions },
  )
}
