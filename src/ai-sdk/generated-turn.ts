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
  let text = ''
  const toolCalls: ModelToolCall[] = []
  const parts: AssistantPart[] = []
  // Made at the turn's first call: a turn that only answers needs none.
  let seen: Set<string> | undefined
  for (const part of result.content) {
    let toolCall: ModelToolCall | undefined
    if (part.type === 'text') text += part.text ?? ''
    else if (part.type === 'tool-call' && part.providerExecuted !== true) {
      seen ??= new Set()
      toolCall = ownToolCall(part, seen, names)
      toolCalls.push(toolCall)
    }
    const assistantPart = assistantPartOf(part, toolCall)
    if (assistantPart !== undefined) parts.push(assistantPart)
  }
  return modelTurn(text, toolCalls, parts, {
    usage: normalizeUsage(result.usage),
    finishReason: normalizeFinishReason(result.finishReason),
    response: result,
    metadata: result.response as { id?: unknown; modelId?: unknown } | undefined,
  })
}
