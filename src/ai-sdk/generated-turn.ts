import type { ModelMessage } from 'ai'
import type { ModelToolCall, ModelTurn } from '../contracts/transport.js'
import type { SpecGenerateResult } from './language-model-spec.js'
import { normalizeFinishReason, normalizeUsage } from './normalize-model-result.js'
import { type AssistantPart, assistantPartOf, modelTurn, ownToolCall } from './turn-builder.js'

/**
 * The loop's turn from one `doGenerate` result, in one pass over its content: its calls read, the
 * assistant message built, its usage and finish reason in the loop's shape (what a stream's
 * `TurnBuilder` gives for the same parts).
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
  const names = ownNames === undefined || ownNames.size === 0 ? undefined : ownNames
  const { content } = result
  // The turn's arrays are made at their size: one grown by `push` starts with room for 17.
  let own = 0
  for (const part of content) if (part.type === 'tool-call' && part.providerExecuted !== true) own++
  const toolCalls: ModelToolCall[] = own === 0 ? [] : new Array(own)
  const parts: AssistantPart[] = new Array(content.length)
  let text = ''
  let called = 0
  let kept = 0
  for (const part of content) {
    let toolCall: ModelToolCall | undefined
    if (part.type === 'text') text += part.text ?? ''
    else if (part.type === 'tool-call' && part.providerExecuted !== true) {
      toolCall = ownToolCall(part, toolCalls, called, names)
      toolCalls[called++] = toolCall
    }
    const assistantPart = assistantPartOf(part, toolCall)
    if (assistantPart !== undefined) parts[kept++] = assistantPart
  }
  // Setting the length is a call into the runtime: only when a part was left out.
  if (kept < parts.length) parts.length = kept
  return modelTurn(
    text,
    toolCalls,
    parts,
    normalizeUsage(result.usage),
    normalizeFinishReason(result.finishReason),
    result,
    result.response as { id?: unknown; modelId?: unknown } | undefined,
  )
}
