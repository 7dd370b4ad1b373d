// A person's message — text and files — checked, and as an AI SDK `ModelMessage` (the Gemini `Content` is
// made by the client, in to-genai-user-content.ts). Web APIs and `ai` only, so that it runs on the edge too.
import { convertToModelMessages, type ModelMessage } from 'ai'
import { ConfigError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'

/**
 * One part of what a person sends: text, or a file by URL (a `data:` URL carrying its bytes, or an
 * `http(s)` URL). The shapes of the AI SDK's `TextUIPart` and `FileUIPart`, without their
 * `providerMetadata`: a part's provider settings never come from here.
 *
 * @example
 * const parts: UserContentPart[] = [
 *   { type: 'text', text: 'What is in this picture?' },
 *   { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo…' },
 * ]
 */
export type UserContentPart =
  | { type: 'text'; text: string }
  | { type: 'file'; mediaType: string; url: string; filename?: string }

/**
 * The AI SDK user message for `parts`, made by the AI SDK's own `convertToModelMessages` (so that file
 * data has the shape the installed `ai` expects).
 *
 * @example
 * await toModelUserMessage([{ type: 'text', text: 'Hi' }]) // { role: 'user', content: [{ type: 'text', text: 'Hi' }] }
 */
export async function toModelUserMessage(parts: readonly UserContentPart[]): Promise<ModelMessage> {
  const [message] = await convertToModelMessages([{ role: 'user', parts: readUserParts(parts) }])
  return message ?? { role: 'user', content: [] }
}

/**
 * The parts, checked, copied field by field (nothing else a part carries goes on); a `ConfigError` for
 * anything that is not a text or file part.
 *
 * @example
 * readUserParts([{ type: 'text', text: 'Hi', extra: 1 }]) // [{ type: 'text', text: 'Hi' }]
 */
export function readUserParts(parts: readonly UserContentPart[]): UserContentPart[] {
  if (!Array.isArray(parts)) {
    throw new ConfigError(
      'A user message is an array of parts: [{ type: "text", text }, { type: "file", mediaType, url }].',
    )
  }
  return parts.map((part: unknown, index): UserContentPart => {
    if (isRecord(part) && part.type === 'text' && typeof part.text === 'string') {
      return { type: 'text', text: part.text }
    }
    if (
      isRecord(part) &&
      part.type === 'file' &&
      typeof part.url === 'string' &&
      typeof part.mediaType === 'string'
    ) {
      const file: UserContentPart = { type: 'file', mediaType: part.mediaType, url: part.url }
      if (typeof part.filename === 'string') file.filename = part.filename
      return file
    }
    throw new ConfigError(
      `User message part ${index} must be { type: "text", text } or { type: "file", mediaType, url }.`,
    )
  })
}
