import type { ModelMessage } from 'ai'
import type { ModelToolCall, ModelTurn } from '../contracts/transport.js'
import { generateCallId, uniqueCallId } from '../loop/call-ids.js'
import { decodeToolInput } from '../loop/decode-tool-input.js'
import type { ProviderOptions, SpecContentPart, SpecGenerateResult } from './language-model-spec.js'
import { normalizeFinishReason, normalizeUsage } from './normalize-model-result.js'

type AssistantPart = Exclude<Extract<ModelMessage, { role: 'assistant' }>['content'], string>[number]

/** Collects one model turn's parts into the loop's `ModelTurn` and the assistant `ModelMessage`. */
export class TurnBuilder {
  /** The spec content, in order, for the `afterModel` hook. */
  readonly content: SpecContentPart[] = []
  readonly #toolCalls: ModelToolCall[] = []
  readonly #ids = new Set<string>()
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
    if (part.type !== 'tool-call') return
    const id =
      typeof part.toolCallId === 'string' && part.toolCallId !== '' ? part.toolCallId : generateCallId()
    const name = typeof part.toolName === 'string' ? part.toolName : ''
    this.#toolCalls.push({
      // Repeated ids would give one id several answers; each call gets its own, answered once.
      id: uniqueCallId(id, this.#ids),
      name: this.#ownNames?.get(name) ?? name,
      ...decodeToolInput(part.input),
    })
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

  finish(options: {
    usage: ModelTurn<ModelMessage>['usage']
    finishReason: string
    response: unknown
    /** Where the provider said which response and model this was (`response` of a result, a stream's `response-metadata`). */
    metadata: { id?: unknown; modelId?: unknown } | undefined
  }): ModelTurn<ModelMessage> {
    let text = ''
    const parts: AssistantPart[] = []
    let call = 0
    for (const part of this.content) {
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
        text += part.text ?? ''
        if (part.text) assistantPart = { type: 'text', text: part.text }
      } else if (part.type === 'reasoning') {
        // Reasoning is kept even when empty: some providers sign it (metadata) and need it back.
        assistantPart = { type: 'reasoning', text: part.text ?? '' }
      } else {
        const toolCall = this.#toolCalls[call++]
        if (toolCall === undefined) continue
        assistantPart = {
          type: 'tool-call',
          toolCallId: toolCall.id,
          toolName: toolCall.name,
          // Providers need an object here (Anthropic, Gemini reject anything else); a call whose
          // arguments were not a JSON object is answered with an error that quotes what it sent.
          input: typeof toolCall.input === 'string' ? {} : toolCall.input,
        }
      }
      if (assistantPart === undefined) continue
      if (part.providerMetadata !== undefined) assistantPart.providerOptions = part.providerMetadata
      parts.push(assistantPart)
    }
    const turn: ModelTurn<ModelMessage> = {
      text,
      toolCalls: this.#toolCalls,
      usage: options.usage,
      finishReason: options.finishReason,
      message: parts.length === 0 ? undefined : { role: 'assistant', content: parts },
      response: options.response,
    }
    const id = options.metadata?.id
    const modelId = options.metadata?.modelId
    if (typeof id === 'string') turn.responseId = id
    if (typeof modelId === 'string') turn.responseModel = modelId
    return turn
  }
}

/**
 * The loop's turn from one `doGenerate` result: its content read in order, its usage and finish reason in
 * the loop's shape.
 *
 * @example
 * const turn = generatedTurn(await model.doGenerate(options))
 * turn.toolCalls // [{ id: 'call_1', name: 'weather', input: { city: 'Pune' } }]
 */
export function generatedTurn(
  result: SpecGenerateResult,
  /** The tools' own names by the names they were declared under, where those differ. */
  ownNames?: ReadonlyMap<string, string>,
): ModelTurn<ModelMessage> {
  const turn = new TurnBuilder(ownNames)
  for (const part of result.content) turn.add(part)
  return turn.finish({
    usage: normalizeUsage(result.usage),
    finishReason: normalizeFinishReason(result.finishReason),
    response: result,
    metadata: result.response as { id?: unknown; modelId?: unknown } | undefined,
  })
}
