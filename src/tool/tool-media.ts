import type { ToolMedia, ToolResult } from './types.js'

/**
 * Bytes of media one tool result may carry to the model when the toolkit is given no `maxMediaBytes`:
 * 5 MiB, the largest image every provider that takes images in tool results accepts.
 *
 * @example
 * await createToolkit({ mcpConfig: './mcp.json', maxMediaBytes: DEFAULT_MAX_MEDIA_BYTES / 5 })
 */
export const DEFAULT_MAX_MEDIA_BYTES = 5 * 1024 * 1024

// Linear: one character class, no alternation to backtrack over.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * True when `data` is base64 text (whitespace allowed, as MIME wraps it), so a provider will not reject
 * the request that carries it.
 *
 * @example
 * isBase64('iVBORw0KGgo=') // true
 * isBase64('not base64!')  // false
 */
export function isBase64(data: unknown): data is string {
  if (typeof data !== 'string') return false
  const compact = /\s/.test(data) ? data.replace(/\s/g, '') : data
  return compact.length % 4 === 0 && BASE64.test(compact)
}

/**
 * The decoded size of base64 text.
 *
 * @example
 * base64Bytes('iVBORw0KGgo=') // 8
 */
export function base64Bytes(data: string): number {
  const compact = /\s/.test(data) ? data.replace(/\s/g, '') : data
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor((compact.length * 3) / 4) - padding)
}

/**
 * The one-line note that stands for an image or audio clip in a tool's text output.
 *
 * @example
 * mediaNote('image', 'image/png', 'iVBORw0KGgo=') // '[image: image/png, 8 bytes]'
 */
export function mediaNote(type: string, mediaType: string, data: unknown): string {
  if (!isBase64(data)) return `[${type}: ${mediaType}, not valid base64, left out]`
  return `[${type}: ${mediaType}, ${base64Bytes(data)} bytes]`
}

/**
 * A result whose media fit within `maxBytes` altogether: media past the limit are left out (in order),
 * and the output says which and why. The result itself when everything fits.
 *
 * @example
 * capMedia({ output: 'chart', isError: false, media: [big] }, 1024).output
 * // 'chart\n[image/png of 2000000 bytes left out: over the 1024-byte media limit (maxMediaBytes)]'
 */
export function capMedia(result: ToolResult, maxBytes: number): ToolResult {
  const media = result.media
  if (media === undefined) return result
  let used = 0
  let kept: ToolMedia[] | undefined
  const notes: string[] = []
  for (let index = 0; index < media.length; index++) {
    const item = media[index] as ToolMedia
    const valid = isBase64(item?.data)
    const bytes = valid ? base64Bytes(item.data) : 0
    if (valid && used + bytes <= maxBytes) {
      used += bytes
      kept?.push(item)
      continue
    }
    kept ??= media.slice(0, index)
    notes.push(
      valid
        ? `[${item.mediaType} of ${bytes} bytes left out: over the ${maxBytes}-byte media limit (maxMediaBytes)]`
        : `[${String(item?.mediaType)} left out: its data is not base64]`,
    )
  }
  if (kept === undefined) return result
  const capped: ToolResult = { ...result, output: [result.output, ...notes].filter(Boolean).join('\n') }
  if (kept.length > 0) capped.media = kept
  else delete capped.media
  return capped
}
