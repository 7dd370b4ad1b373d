import type {
  ProviderOptions,
  SpecMessage,
  SpecMessagePart,
  SpecToolResultPart,
} from '../ai-sdk/language-model-spec.js'

type AssistantMessage = Extract<SpecMessage, { role: 'assistant' }>
type AssistantPart = AssistantMessage['content'][number]
type ToolPart = Extract<SpecMessage, { role: 'tool' }>['content'][number]

/**
 * The provider-metadata key that marks the calls and results `withToolkit` reported: the AI SDK hands
 * a part's metadata back as its `providerOptions`, so the wrapper knows its own parts in a later prompt
 * from those of a provider's own tools (web search and the like).
 */
export const TOOLNEXUS_MARK = 'toolnexus'

/** One assistant turn being rebuilt: its parts, and the calls whose results must follow it. */
interface Turn {
  parts: AssistantPart[]
  calls: string[]
  providerOptions: ProviderOptions | undefined
}

/**
 * The prompt the AI SDK hands a model wrapped by `withToolkit`, turned back into what the inner model
 * must see. The wrapper reports the toolkit's calls as provider-executed, so the AI SDK keeps each call
 * with its result in an assistant message (and, after an approval, the result in a later one); the inner
 * model declared them as ordinary function tools and needs each assistant turn's calls followed by a tool
 * message with their results, as the loop had them. So the prompt is rebuilt turn by turn: a turn ends
 * at a result of the toolkit's or at a tool message, and every turn with calls is followed by their
 * results, found wherever the AI SDK put them. A call reported again (after an approval) is kept once; a
 * call of the toolkit's with no result anywhere (a step cut short) is left out, since a provider refuses
 * a call without its answer. Approval requests and answers, which the inner model never saw, are left
 * out, and so is the wrapper's mark.
 *
 * @example
 * convertProviderFormPrompt([{ role: 'assistant', content: [call, result, { type: 'text', text: 'Done.' }] }])
 * // [{ role: 'assistant', content: [call] }, { role: 'tool', content: [result] }, { role: 'assistant', content: [text] }]
 */
export function convertProviderFormPrompt(prompt: readonly SpecMessage[]): SpecMessage[] {
  if (!prompt.some(hasWrapperParts)) return [...prompt]
  const results = resultsById(prompt)
  const converted: SpecMessage[] = []
  const placed = new Set<string>()
  let turn: Turn | undefined
  const closeTurn = (): void => {
    if (turn === undefined) return
    if (turn.parts.length > 0) {
      const message: AssistantMessage = { role: 'assistant', content: turn.parts }
      if (turn.providerOptions !== undefined) message.providerOptions = turn.providerOptions
      converted.push(message)
    }
    const answers = turn.calls.flatMap((id) => results.get(id) ?? [])
    if (answers.length > 0) converted.push({ role: 'tool', content: answers })
    turn = undefined
  }
  for (const message of prompt) {
    if (message.role === 'tool') {
      // Its results are placed after their calls' turn.
      closeTurn()
      continue
    }
    if (message.role !== 'assistant') {
      closeTurn()
      converted.push(message)
      continue
    }
    let first = true
    for (const part of message.content) {
      if (part.type.startsWith('tool-approval-')) continue
      if (isMarked(part) && part.type === 'tool-result') {
        // A result of the toolkit's ends its turn's calls: what follows is the loop's next turn.
        if (turn !== undefined && turn.calls.length > 0) closeTurn()
        continue
      }
      const isCall = part.type === 'tool-call' && (isMarked(part) || !isProviderExecuted(part))
      if (isCall) {
        const id = toolCallIdOf(part)
        if (placed.has(id) || (isMarked(part) && !results.has(id))) continue
        placed.add(id)
      } else if (turn !== undefined && turn.calls.length > 0) closeTurn()
      turn ??= { parts: [], calls: [], providerOptions: first ? message.providerOptions : undefined }
      first = false
      if (isCall) {
        turn.parts.push(asOrdinaryCall(part))
        turn.calls.push(toolCallIdOf(part))
      } else turn.parts.push(part)
    }
    // The AI SDK's tool message (or the next message) follows this one: the turn ends here.
    closeTurn()
  }
  closeTurn()
  return converted
}

/** Whether a prompt holds anything the wrapper reported, so that it needs rebuilding at all. */
function hasWrapperParts(message: SpecMessage): boolean {
  if (message.role === 'system' || message.role === 'user') return false
  return (message.content as SpecMessagePart[]).some(
    (part) => isMarked(part) || part.type.startsWith('tool-approval-'),
  )
}

/**
 * Every result in the prompt by its call's id, as a tool message carries it: the toolkit's from assistant
 * messages, and those of tool messages (the caller's own calls, a declined call of the toolkit's).
 */
function resultsById(prompt: readonly SpecMessage[]): Map<string, ToolPart> {
  const results = new Map<string, ToolPart>()
  for (const message of prompt) {
    if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool-result' && isMarked(part) && !results.has(toolCallIdOf(part)))
          results.set(toolCallIdOf(part), toToolMessageResult(part as SpecToolResultPart))
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result' && !results.has(toolCallIdOf(part)))
          results.set(toolCallIdOf(part), isMarked(part) ? withoutMark(part) : part)
      }
    }
  }
  return results
}

function isMarked(part: SpecMessagePart): boolean {
  return part.providerOptions?.[TOOLNEXUS_MARK] !== undefined
}

function isProviderExecuted(part: SpecMessagePart): boolean {
  return (part as { providerExecuted?: boolean }).providerExecuted === true
}

/** The toolkit's call as the inner model made it: not provider-executed, without the mark. */
function asOrdinaryCall(part: AssistantPart): AssistantPart {
  if (!isMarked(part)) return part
  const { providerExecuted: _, ...call } = part as AssistantPart & { providerExecuted?: boolean }
  return withoutMark(call)
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
