import type { JSONSchema, Tool } from '../tool/types.js'

/**
 * One tool in the OpenAI Chat Completions `tools` array.
 *
 * @example
 * const tool: OpenAITool = { type: 'function', function: { name: 'ping', description: 'Health check', parameters: { type: 'object', properties: {} } } }
 */
export interface OpenAITool {
  type: 'function'
  function: { name: string; description: string; parameters: JSONSchema }
}

/**
 * Renders tools for OpenAI's Chat Completions API (and every OpenAI-compatible endpoint).
 *
 * @example
 * await openai.chat.completions.create({ model: 'gpt-4.1', messages, tools: toOpenAI(tk.tools()) })
 */
export function toOpenAI(tools: readonly Tool[]): OpenAITool[] {
  return tools.map(
    (tool) =>
      ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      }) satisfies OpenAITool,
  )
}
