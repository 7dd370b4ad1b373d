// What a person typed reaches the model as what a person typed: text and files, in a `user` message.
import {
  convertToModelMessages,
  type FileUIPart,
  type ModelMessage,
  type TextUIPart,
  type UIMessage,
} from 'ai'

/**
 * Converts the client's user messages for the model, keeping only their text and file parts and none of
 * the client's `providerMetadata` (which the AI SDK would pass on as `providerOptions`, the provider's own
 * settings). A message left with nothing is dropped.
 *
 * @example
 * await convertUserMessages([{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi', providerMetadata: { openai: { store: true } } }] }])
 * // [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]
 */
export async function convertUserMessages(messages: readonly UIMessage[]): Promise<ModelMessage[]> {
  const kept: UIMessage[] = []
  for (const message of messages) {
    const parts: Array<TextUIPart | FileUIPart> = []
    for (const part of message.parts) {
      if (part.type === 'text') parts.push({ type: 'text', text: part.text })
      else if (part.type === 'file') {
        const file: FileUIPart = { type: 'file', mediaType: part.mediaType, url: part.url }
        if (part.filename !== undefined) file.filename = part.filename
        parts.push(file)
      }
    }
    if (parts.length > 0) kept.push({ id: message.id, role: 'user', parts })
  }
  return kept.length === 0 ? [] : await convertToModelMessages(kept)
}
