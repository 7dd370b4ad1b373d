import type { ReadResourceResult } from '@modelcontextprotocol/client'
import { joinToolName } from '../tool/names.js'
import { base64Bytes, isBase64 } from '../tool/tool-media.js'
import { errorMessage, errorResult, toJsonText } from '../tool/tool-result.js'
import type { Tool, ToolMedia, ToolResult } from '../tool/types.js'
import type { McpServerConnection } from './mcp-server-connection.js'

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/**
 * A server's resources and prompts as tools the model can call: `<server>_list_resources` (resources
 * and templates), `<server>_read_resource` (`uri`) and `<server>_get_prompt` (`name`, `arguments`).
 *
 * @example
 * resourceAndPromptTools(connection, { resources: true, prompts: false }).map((tool) => tool.name)
 * // ['docs_list_resources', 'docs_read_resource']
 */
export function resourceAndPromptTools(
  connection: McpServerConnection,
  expose: { resources: boolean; prompts: boolean },
): Tool[] {
  const server = connection.name
  const tools: Tool[] = []
  if (expose.resources) {
    tools.push(
      {
        name: joinToolName([server, 'list_resources']),
        description: `Lists the resources (and resource URI templates) of the MCP server "${server}".`,
        inputSchema: { type: 'object', properties: {} },
        source: 'mcp',
        execute: () =>
          settle(async () => {
            const [resources, templates] = await Promise.all([
              connection.listResources(),
              connection.listResourceTemplates(),
            ])
            return {
              output: toJsonText({
                resources: resources.map(({ uri, name, description, mimeType }) => ({
                  uri,
                  name,
                  description,
                  mimeType,
                })),
                templates: templates.map(({ uriTemplate, name, description, mimeType }) => ({
                  uriTemplate,
                  name,
                  description,
                  mimeType,
                })),
              }),
              isError: false,
            }
          }),
      },
      {
        name: joinToolName([server, 'read_resource']),
        description: `Reads one resource of the MCP server "${server}" by its URI (from ${joinToolName([server, 'list_resources'])}, or a template filled in).`,
        inputSchema: {
          type: 'object',
          properties: { uri: { type: 'string', description: 'The resource URI.' } },
          required: ['uri'],
        },
        source: 'mcp',
        execute: (args) =>
          settle(async () => readResult(await connection.readResource(String(args.uri)), server)),
      },
    )
  }
  if (expose.prompts) {
    tools.push({
      name: joinToolName([server, 'get_prompt']),
      description: `Renders one prompt of the MCP server "${server}" by name, with its arguments (text values).`,
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The prompt name.' },
          arguments: {
            type: 'object',
            description: 'The prompt arguments, each a text value.',
            additionalProperties: { type: 'string' },
          },
        },
        required: ['name'],
      },
      source: 'mcp',
      execute: (args) =>
        settle(async () => {
          const given = typeof args.arguments === 'object' && args.arguments !== null ? args.arguments : {}
          const values = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, String(value)]))
          const prompt = await connection.getPrompt(String(args.name), values)
          const text = prompt.messages
            .map(
              ({ role, content }) =>
                `${role}: ${content.type === 'text' ? content.text : `[${content.type}]`}`,
            )
            .join('\n\n')
          return { output: text, isError: false, metadata: { server, prompt: args.name } }
        }),
    })
  }
  return tools
}

/** A resource's contents as a tool result: text as it is, images as media, other bytes summarized. */
function readResult(result: ReadResourceResult, server: string): ToolResult {
  const media: ToolMedia[] = []
  const parts = result.contents.map((content) => {
    if ('text' in content && typeof content.text === 'string') return content.text
    const blob = 'blob' in content ? content.blob : undefined
    const type = content.mimeType ?? 'application/octet-stream'
    if (!isBase64(blob)) return `[resource: ${content.uri}, ${type}, not valid base64]`
    if (IMAGE_TYPES.has(type)) media.push({ type: 'image', mediaType: type, data: blob })
    return `[resource: ${content.uri}, ${type}, ${base64Bytes(blob)} bytes]`
  })
  const mapped: ToolResult = {
    output: parts.join('\n'),
    isError: false,
    metadata: { server, contents: result.contents },
  }
  if (media.length > 0) mapped.media = media
  return mapped
}

/** Runs a request whose failure is an error result, never a rejection. */
async function settle(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run()
  } catch (error) {
    return errorResult(errorMessage(error))
  }
}
