// A person's message — text and files — as a Gemini user `Content`. Web APIs only, so that it runs on the
// edge too.
import { readUserParts, type UserContentPart } from '../conversation/user-message.js'
import { ConfigError } from '../errors.js'
import type { GenAIContent, GenAIPart } from '../genai/genai-types.js'

/**
 * The Gemini user `Content` for `parts`: text as `{ text }` (empty text left out: Gemini refuses it),
 * a `data:` URL as `inlineData` (base64), an `http(s)` URL as `fileData`. Any other URL is refused with
 * a `ConfigError`: a `gs://` or `file:` URL would make the model read what the server can reach.
 *
 * @example
 * toGenAIUserContent([{ type: 'file', mediaType: 'text/plain', url: 'data:text/plain;base64,aGk=' }])
 * // { role: 'user', parts: [{ inlineData: { mimeType: 'text/plain', data: 'aGk=' } }] }
 */
export function toGenAIUserContent(parts: readonly UserContentPart[]): GenAIContent {
  const content: GenAIPart[] = []
  for (const part of readUserParts(parts)) {
    if (part.type === 'text') {
      if (part.text !== '') content.push({ text: part.text })
      continue
    }
    const { url, mediaType } = part
    const scheme = url.slice(0, url.indexOf(':') + 1).toLowerCase()
    if (scheme === 'data:') content.push({ inlineData: readDataUrl(url, mediaType) })
    else if (scheme === 'http:' || scheme === 'https:') {
      content.push({ fileData: { fileUri: url, mimeType: mediaType } })
    } else {
      throw new ConfigError(
        `A file must come as a data: URL (its bytes) or an http(s) URL; got a${scheme === '' ? ' URL with no scheme' : ` ${JSON.stringify(scheme)} URL`}.`,
      )
    }
  }
  return { role: 'user', parts: content }
}

/** A `data:` URL's bytes as base64, with its media type (`mediaType`, else the URL's own). */
function readDataUrl(url: string, mediaType: string): { mimeType: string; data: string } {
  const comma = url.indexOf(',')
  if (comma === -1)
    throw new ConfigError('A data: URL needs a comma before its data: data:<type>;base64,<data>.')
  const header = url.slice('data:'.length, comma).split(';')
  const payload = url.slice(comma + 1)
  const base64 = header.slice(1).some((parameter) => parameter.trim().toLowerCase() === 'base64')
  const mimeType = mediaType !== '' ? mediaType : header[0] !== '' ? (header[0] as string) : 'text/plain'
  if (base64) return { mimeType, data: decodeURIComponentSafe(payload).replace(/\s/g, '') }
  return { mimeType, data: toBase64(percentDecode(payload)) }
}

/** Base64 text may arrive %-escaped (`%2B` for `+`); base64 itself has no `%`. */
function decodeURIComponentSafe(text: string): string {
  if (!text.includes('%')) return text
  try {
    return decodeURIComponent(text)
  } catch {
    throw new ConfigError('A data: URL has a malformed %-escape in its base64 data.')
  }
}

/** The bytes of a %-escaped payload: `%XX` is one byte, any other run of text its UTF-8 bytes. */
function percentDecode(text: string): Uint8Array {
  const encoder = new TextEncoder()
  const bytes: number[] = []
  let plainStart = 0
  const flush = (end: number) => {
    if (end > plainStart) for (const byte of encoder.encode(text.slice(plainStart, end))) bytes.push(byte)
  }
  for (let index = 0; index < text.length; index++) {
    if (text[index] !== '%' || !/^[0-9a-f]{2}$/i.test(text.slice(index + 1, index + 3))) continue
    flush(index)
    bytes.push(Number.parseInt(text.slice(index + 1, index + 3), 16))
    index += 2
    plainStart = index + 1
  }
  flush(text.length)
  return Uint8Array.from(bytes)
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // In slices: one String.fromCharCode call per byte would be slow, one per array could overflow the stack.
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000))
  }
  return btoa(binary)
}
