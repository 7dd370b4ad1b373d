import type { JSONSchema, Tool } from '../tool/types.js'
import { searchWords } from './search-terms.js'

// Bounds on what one schema adds to the index, so a huge or deeply nested schema stays cheap.
const MAX_PARAM_DEPTH = 3
const MAX_PARAMS = 64

/** Parameter names and descriptions, nested objects and array items included, within fixed bounds. */
export function collectParams(schema: JSONSchema, into: string[], depth: number): void {
  if (depth >= MAX_PARAM_DEPTH) return
  const properties = schema.properties
  if (typeof properties === 'object' && properties !== null) {
    for (const [name, property] of Object.entries(properties)) {
      if (into.length >= MAX_PARAMS * 2) return
      into.push(name)
      if (typeof property !== 'object' || property === null) continue
      const described = (property as JSONSchema).description
      if (typeof described === 'string') into.push(described)
      collectParams(property as JSONSchema, into, depth + 1)
    }
  }
  const items = schema.items
  if (typeof items === 'object' && items !== null && !Array.isArray(items)) {
    collectParams(items as JSONSchema, into, depth + 1)
  }
}

/** The words a tool's meaning is made of: its name split into words, its description, its server. */
export function meaningWords(tool: Tool): string[] {
  const server = tool.server === undefined ? '' : `${tool.server.name} ${tool.server.description ?? ''}`
  const description = typeof tool.description === 'string' ? tool.description : ''
  return searchWords(`${tool.name} ${description} ${server}`)
}
