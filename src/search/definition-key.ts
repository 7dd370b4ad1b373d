import type { Tool } from '../tool/types.js'

/**
 * What identifies a tool's definition: its name, description, input schema and server. The search index
 * and the embedding cache take a tool again only when this changes.
 *
 * @example
 * definitionKey(tool) === definitionKey(sameToolAgain) // true
 */
export function definitionKey(tool: Tool): string {
  return JSON.stringify([tool.name, tool.description, tool.inputSchema, tool.server ?? null])
}
