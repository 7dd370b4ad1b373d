import type { CompatibilityCallToolResult, ContentBlock } from '@modelcontextprotocol/client'
import { base64Bytes, isBase64, mediaNote } from '../tool/tool-media.js'
import { errorResult, toJsonText } from '../tool/tool-result.js'
import type { ToolMedia, ToolResult } from '../tool/types.js'

/**
 * Which server tool produced a result, for its metadata and messages.
 *
 * @example
 * const origin: CallToolOrigin = { server: 'github', tool: 'search_issues' }
 */
export interface CallToolOrigin {
  server: string
  /** The tool's name on the server (not the exposed one). */
  tool: string
}

/**
 * An MCP `tools/call` result as a `ToolResult`: `isError` ⇒ an error with the text parts joined;
 * `structuredContent` ⇒ its JSON text; otherwise the text parts joined with other content (images, audio,
 * resources) summarized in place rather than dropped. Images and audio also travel as `media`, for the
 * transports whose provider takes media in a tool result. The raw content is kept in `metadata`.
 *
 * @example
 * mapCallToolResult(
 *   { content: [{ type: 'text', text: 'hi' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
 *   { server: 'demo', tool: 'draw' },
 * ).output // 'hi\n[image: image/png, 8 bytes]'
 */
export function mapCallToolResult(result: CompatibilityCallToolResult, origin: CallToolOrigin): ToolResult {
  // Servers of protocol version 2024-10-07 answer with `toolResult` instead of `content`.
  if ('toolResult' in result && !('content' in result)) {
    return {
      output: toJsonText(result.toolResult),
      isError: false,
      metadata: { server: origin.server, tool: origin.tool, raw: result },
    }
  }
  const content: ContentBlock[] = Array.isArray(result.content) ? result.content : []
  // Spelled out rather than spread: `{ ...origin, key }` is a slow path in V8, paid on every call.
  const metadata: Record<string, unknown> = { server: origin.server, tool: origin.tool, content }
  if (result.structuredContent !== undefined) metadata.structuredContent = result.structuredContent
  if (result._meta !== undefined) metadata._meta = result._meta
  const text = content.map(renderContentBlock).join('\n')
  const media = mediaOf(content)
  if (result.isError === true) {
    return errorResult(
      text || `MCP tool "${origin.tool}" on server "${origin.server}" reported an error without a message.`,
      metadata,
    )
  }
  const mapped: ToolResult = {
    output: result.structuredContent !== undefined ? toJsonText(result.structuredContent) : text,
    isError: false,
    metadata,
  }
  if (media !== undefined) mapped.media = media
  return mapped
}

/** The images and audio among the blocks (well-formed base64 only), or `undefined` when there are none. */
function mediaOf(content: readonly ContentBlock[]): ToolMedia[] | undefined {
  let media: ToolMedia[] | undefined
  for (const block of content) {
    if ((block.type === 'image' || block.type === 'audio') && isBase64(block.data)) {
      media ??= []
      // Unwrapped once here, so a data URL or a provider request can carry it as is.
      const data = /\s/.test(block.data) ? block.data.replace(/\s/g, '') : block.data
      media.push({ type: block.type, mediaType: block.mimeType, data })
    }
  }
  return media
}

/** One content block as text the model can read: text as it is, anything else as a one-line summary. */
function renderContentBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text
    case 'image':
    case 'audio':
      return mediaNote(block.type, block.mimeType, block.data)
    case 'resource_link': {
      const label = [block.name, block.mimeType].filter(Boolean).join(', ')
      return `[resource link: ${block.uri}${label ? ` (${label})` : ''}]`
    }
    case 'resource': {
      const { resource } = block
      if ('text' in resource && typeof resource.text === 'string') {
        return `[resource: ${resource.uri}]\n${resource.text}`
      }
      const bytes = 'blob' in resource && typeof resource.blob === 'string' ? base64Bytes(resource.blob) : 0
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${bytes} bytes]`
    }
    default:
      return unknownBlock(block)
  }
}

// A content type newer than this SDK still gets a summary rather than vanishing.
function unknownBlock(block: never): string {
  const type = (block as { type?: unknown }).type
  return `[${typeof type === 'string' ? type : 'unknown'} content]`
}
