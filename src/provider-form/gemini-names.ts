import type { SpecMessage, SpecMessagePart } from '../ai-sdk/language-model-spec.js'
import { sentToGemini } from '../tool/gemini-tool-names.js'

/**
 * A part the inner model sent, with a renamed tool's own name: the same part when its name is not one the
 * toolkit's tools were declared under for Gemini (`_1password_get_item` → `1password_get_item`).
 *
 * @example
 * withOwnName({ type: 'tool-input-start', id: 'c1', toolName: '_1password_get_item' }, ownNames)
 * // { type: 'tool-input-start', id: 'c1', toolName: '1password_get_item' }
 */
export function withOwnName<Part extends { toolName?: string }>(
  part: Part,
  ownNames: ReadonlyMap<string, string>,
): Part {
  const own = part.toolName === undefined ? undefined : ownNames.get(part.toolName)
  return own === undefined ? part : { ...part, toolName: own }
}

/**
 * The prompt as the inner model must read it: the toolkit's calls and results under the names their tools
 * were declared under for Gemini. Each message is renamed once per run (`memo`), and a message with no such
 * call is itself.
 *
 * @example
 * sentPrompt(messages, ownNames, memo) // a call of '1password_get_item' goes as '_1password_get_item'
 */
export function sentPrompt(
  messages: readonly SpecMessage[],
  ownNames: ReadonlyMap<string, string>,
  memo: Map<SpecMessage, unknown>,
): SpecMessage[] {
  return messages.map((message) => {
    let sent = memo.get(message) as SpecMessage | undefined
    if (sent === undefined) {
      sent = sentMessage(message, ownNames)
      memo.set(message, sent)
    }
    return sent
  })
}

function sentMessage(message: SpecMessage, ownNames: ReadonlyMap<string, string>): SpecMessage {
  if (message.role !== 'assistant' && message.role !== 'tool') return message
  let renamed = false
  const content = (message.content as SpecMessagePart[]).map((part) => {
    // A call or result of a tool the provider ran itself keeps the provider's name for its tool.
    if (!('toolName' in part) || typeof part.toolName !== 'string') return part
    if ('providerExecuted' in part && part.providerExecuted === true) return part
    const sent = sentToGemini(part.toolName, ownNames)
    if (sent === part.toolName) return part
    renamed = true
    return { ...part, toolName: sent }
  })
  return renamed ? ({ ...message, content } as SpecMessage) : message
}
