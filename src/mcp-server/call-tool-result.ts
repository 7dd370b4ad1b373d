import type { CallToolResult } from '@modelcontextprotocol/server'
import { isRecord } from '../shared/is-record.js'
import type { ToolResult } from '../tool/types.js'

type ContentBlock = CallToolResult['content'][number]

/**
 * A toolkit's answer as MCP content: the text (when there is any), then each image or audio clip; a
 * result of another MCP server's tool with embedded resources or links keeps its blocks as they came.
 *
 * @example
 * return callToolResult(await toolkit.execute(name, args))
 */
export function callToolResult(result: ToolResult): CallToolResult {
  const content: ContentBlock[] = []
  if (result.output !== '' || result.media === undefined || result.media.length === 0) {
    content.push({ type: 'text', text: result.output })
  }
  const served = servedContent(result)
  if (served !== undefined) {
    content.length = 0
    content.push(...served)
  } else {
    for (const media of result.media ?? []) {
      content.push({ type: media.type, data: media.data, mimeType: media.mediaType })
    }
  }
  const answer: CallToolResult = { content }
  if (result.isError) answer.isError = true
  // A tool from another MCP server that answered with structured content keeps it.
  const structured = result.metadata?.structuredContent
  if (!result.isError && isRecord(structured)) answer.structuredContent = structured
  return answer
}

/**
 * A result of a tool from another MCP server holding embedded resources or resource links: its content
 * blocks as that server sent them (secrets masked by the toolkit), so a gateway passes them on in order
 * rather than as text. `undefined` for every other result.
 */
function servedContent(result: ToolResult): ContentBlock[] | undefined {
  const blocks = result.metadata?.content
  if (!Array.isArray(blocks) || !blocks.some(isResourceBlock)) return undefined
  return blocks.filter(
    (block): block is ContentBlock =>
      isRecord(block) && ['text', 'image', 'audio', 'resource', 'resource_link'].includes(String(block.type)),
  )
}

function isResourceBlock(block: unknown): boolean {
  return isRecord(block) && (block.type === 'resource' || block.type === 'resource_link')
}
