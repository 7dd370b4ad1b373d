import type { JSONSchema, Tool } from '../tool/types.js'

/**
 * One tool in the Anthropic Messages API `tools` array.
 *
 * @example
 * const tool: AnthropicTool = { name: 'ping', description: 'Health check', input_schema: { type: 'object', properties: {} } }
 */
export interface AnthropicTool {
  name: string
  description: string
  input_schema: JSONSchema
}

/**
 * Renders tools for Anthropic's Messages API.
 *
 * @example
 * await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages, tools: toAnthropic(tk.tools()) })
 */
export function toAnthropic(tools: readonly Tool[]): AnthropicTool[] {
  return tools.map(
    (tool) =>
      ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
      }) satisfies AnthropicTool,
  )
}
