import type { ModelMessage } from 'ai'
import type { ModelToolCall, ModelTurn } from '../contracts/transport.js'
import { generateCallId, uniqueCallId } from '../loop/call-ids.js'
import { decodeToolInput, toolInputObject } from '../loop/decode-tool-input.js'
import type { ProviderOptions, SpecContentPart } from './language-model-spec.js'

/** A part of the assistant message a turn adds to the transcript. */
export type AssistantPart = Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number]

/** Collects one model turn's parts into the loop's `ModelTurn` and the assistant `ModelMessage`. */
export class TurnBuilder {
  /** The spec content, in order, for the `afterModel` hook. */
  readonly content: SpecContentPart[] = []
  readonly #toolCalls: ModelToolCall[] = []
  // The tools' own names by the names they were declared under, where those differ.
  readonly #ownNames: ReadonlyMap<string, string> | undefined

  constructor(ownNames?: ReadonlyMap<string, string>) {
    this.#ownNames = ownNames === undefined || ownNames.size === 0 ? undefined : ownNames
  }

  add(part: SpecContentPart): void {
    // A tool the provider ran itself (its own tool search) is not ours to answer, but its call and result
    // go back in the transcript: the provider reads them on the next turn.
    if (part.type === 'tool-call' && part.providerExecuted === true) {
      this.content.push(part)
      return
    }
    if (part.type === 'tool-result') {
      this.content.push(part)
      return
    }
    if (part.type === 'text' || part.type === 'reasoning' || part.type === 'tool-call')
      this.content.push(part)
    if (part.type === 'tool-call') {
      const toolCalls = this.#toolCalls
      toolCalls.push(ownToolCall(part, toolCalls, toolCalls.length, this.#ownNames))
    }
  }

  openBlock(type: 'text' | 'reasoning'): SpecContentPart {
    const block: SpecContentPart = { type, text: '' }
    this.content.push(block)
    return block
  }

  mergeMetadata(block: SpecContentPart | undefined, metadata: ProviderOptions | undefined): void {
    if (block === undefined || metadata === undefined) return
    block.providerMetadata = { ...block.providerMetadata, ...metadata }
  }

  finish(options: TurnEnd): ModelTurn<ModelMessage> {
    let text = ''
    const parts: AssistantPart[] = []
    let call = 0
    for (const part of this.content) {
      if (part.type === 'text') text += part.text ?? ''
      const own = part.type === 'tool-call' && part.providerExecuted !== true
      const assistantPart = assistantPartOf(part, own ? this.#toolCalls[call++] : undefined)
      if (assistantPart !== undefined) parts.push(assistantPart)
    }
    const { usage, finishReason, response, metadata } = options
    return modelTurn(text, this.#toolCalls, parts, usage, finishReason, response, metadata)
  }
}

/**
 * A turn's parts as the loop takes them: its text, its own calls, the assistant message (none without
 * parts), usage, finish reason, the raw response and which response and model it was (`metadata`: the
 * `response` of a result, a stream's `response-metadata`). Positional: made for every model call.
 *
 * @example
 * modelTurn('Hi', [], [{ type: 'text', text: 'Hi' }], usage, 'stop', response, undefined)
 */
export function modelTurn(
  text: string,
  toolCalls: ModelToolCall[],
  parts: AssistantPart[],
  usage: ModelTurn<ModelMessage>['usage'],
  finishReason: string,
  response: unknown,
  metadata: { id?: unknown; modelId?: unknown } | undefined,
): ModelTurn<ModelMessage> {
  const message: ModelMessage | undefined =
    parts.length === 0 ? undefined : { role: 'assistant', content: parts }
  const id = metadata?.id
  const modelId = metadata?.modelId
  // Most providers name both: the turn is made whole, with no field added afterwards.
  if (typeof id === 'string' && typeof modelId === 'string') {
    return { text, toolCalls, usage, finishReason, message, response, responseId: id, responseModel: modelId }
  }
  const turn: ModelTurn<ModelMessage> = { text, toolCalls, usage, finishReason, message, response }
  if (typeof id === 'string') turn.responseId = id
  if (typeof modelId === 'string') turn.responseModel = modelId
  return turn
}

/** How a turn ended, besides its parts. */
export interface TurnEnd {
  usage: ModelTurn<ModelMessage>['usage']
  finishReason: string
  response: unknown
  /** Where the provider said which response and model this was (`response` of a result, a stream's `response-metadata`). */
  metadata: { id?: unknown; modelId?: unknown } | undefined
}

/**
 * A tool call the loop answers, from its content part: its id made unique within the turn (the first
 * `count` of `earlier` are the turn's calls so far), the tool's own name, its arguments decoded.
 *
 * @example
 * ownToolCall({ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":1}' }, [], 0, undefined)
 * // { id: 'c1', name: 'add', input: { a: 1 } }
 */
export function ownToolCall(
  part: SpecContentPart,
  earlier: readonly ModelToolCall[],
  /** How many of `earlier` are the turn's calls so far (the rest of the array is still to be filled). */
  count: number,
  ownNames: ReadonlyMap<string, string> | undefined,
): ModelToolCall {
  const given =
    typeof part.toolCallId === 'string' && part.toolCallId !== '' ? part.toolCallId : generateCallId()
  // Repeated ids would give one id several answers; each call gets its own, answered once.
  const id = uniqueCallId(given, earlier, count)
  const sent = typeof part.toolName === 'string' ? part.toolName : ''
  const name = ownNames?.get(sent) ?? sent
  // The common case, arguments that are a JSON object, read with no wrapper to spread.
  const object = toolInputObject(part.input)
  if (object !== undefined) return { id, name, input: object }
  return { id, name, ...decodeToolInput(part.input) }
}

/**
 * The assistant message's part for one content part: text, reasoning, a call (the loop's own `toolCall`
 * for a call it answers) or a provider-executed tool's call and result; `undefined` for what the
 * transcript does not keep.
 *
 * @example
 * assistantPartOf({ type: 'text', text: 'Hi' }, undefined) // { type: 'text', text: 'Hi' }
 */
export function assistantPartOf(
  part: SpecContentPart,
  toolCall: ModelToolCall | undefined,
): AssistantPart | undefined {
  let assistantPart:
    | Extract<AssistantPart, { type: 'text' | 'reasoning' | 'tool-call' | 'tool-result' }>
    | undefined
  if (part.type === 'tool-result') {
    assistantPart = {
      type: 'tool-result',
      toolCallId: String(part.toolCallId),
      toolName: String(part.toolName),
      output: { type: 'json', value: (part.result ?? null) as never },
    }
  } else if (part.type === 'tool-call' && part.providerExecuted === true) {
    assistantPart = {
      type: 'tool-call',
      toolCallId: String(part.toolCallId),
      toolName: String(part.toolName),
      input: decodeToolInput(part.input).input,
      providerExecuted: true,
    }
  } else if (part.type === 'text') {
    if (part.text) assistantPart = { type: 'text', text: part.text }
  } else if (part.type === 'reasoning') {
    // Reasoning is kept even when empty: some providers sign it (metadata) and need it back.
    assistantPart = { type: 'reasoning', text: part.text ?? '' }
  } else if (part.type === 'tool-call' && toolCall !== undefined) {
    assistantPart = {
      type: 'tool-call',
      toolCallId: toolCall.id,
      toolName: toolCall.name,
      // Providers need an object here (Anthropic, Gemini reject anything else); a call whose
      // arguments were not a JSON object is answered with an error that quotes what it sent.
      input: typeof toolCall.input === 'string' ? {} : toolCall.input,
    }
  }
  if (assistantPart === undefined) return undefined
  if (part.providerMetadata !== undefined) assistantPart.providerOptions = part.providerMetadata
  return assistantPart
}
