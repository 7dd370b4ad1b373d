// What a person typed reaches the model as what a person typed: text and files, in a user message.
import type { UIMessage } from 'ai'
import type { UserContentPart } from '../conversation/user-message.js'

/**
 * The text and file parts of a browser's user message, and nothing else: none of the client's
 * `providerMetadata` (which the AI SDK would pass on as `providerOptions`, the provider's own settings),
 * no empty text. A message left with nothing has no parts.
 *
 * @example
 * readUserContent({ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi', providerMetadata: { openai: { store: true } } }] })
 * // [{ type: 'text', text: 'Hi' }]
 */
export function readUserContent(message: UIMessage): UserContentPart[] {
  const parts: UserContentPart[] = []
  for (const part of message.parts) {
    if (part.type === 'text') {
      if (part.text !== '') parts.push({ type: 'text', text: part.text })
    } else if (part.type === 'file') {
      const file: UserContentPart = { type: 'file', mediaType: part.mediaType, url: part.url }
      if (part.filename !== undefined) file.filename = part.filename
      parts.push(file)
    }
  }
  return parts
}
