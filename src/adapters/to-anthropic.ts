import { renamedProperties } from '../tool/property-names.js'
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
        input_schema: withSendableNames(tool.inputSchema),
      }) satisfies AnthropicTool,
  )
}

/**
 * The schema with an object root (`type: 'object'` added when it is missing) and its top-level property
 * names in the form Anthropic takes (it checks the root's keys and
 * answers 400 for `filter[id]` or a 65-character name): a renamed copy when a name needs it, else the schema
 * itself. The toolkit maps the renamed names back before it validates a call.
 *
 * @example
 * withSendableNames({ type: 'object', properties: { 'filter[id]': { type: 'string' } } }).properties // { filter_id_: … }
 */
function withSendableNames(schema: JSONSchema): JSONSchema {
  // Many MCP servers leave `type` out of the root; Anthropic and OpenAI insist on `type: 'object'` there.
  if (schema.type === undefined) return withSendableNames({ type: 'object', ...schema })
  const properties = schema.properties
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return schema
  const names = renamedProperties(Object.keys(properties))
  if (names.size === 0) return schema
  const renamed: Record<string, unknown> = {}
  for (const [name, property] of Object.entries(properties)) {
    Object.defineProperty(renamed, names.get(name) ?? name, {
      value: property,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  const copy: JSONSchema = { ...schema, properties: renamed }
  if (Array.isArray(schema.required)) {
    copy.required = schema.required.map((name) =>
      typeof name === 'string' ? (names.get(name) ?? name) : name,
    )
  }
  return copy
}
