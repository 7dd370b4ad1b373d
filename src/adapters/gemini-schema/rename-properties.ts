import { renamedProperties } from '../../tool/property-names.js'
import { ownValue } from './copy-keywords.js'
import type { GeminiSchema } from './gemini-schema.js'
import { MAX_OUTPUT_DEPTH } from './lower-state.js'

// Property names Gemini refuses are sent renamed (`filter[id]` → `filter_id_`), in `required` and
// `propertyOrdering` too; the lowered tree is this lowering's own, so it is renamed in place.
export function renameProperties(schema: GeminiSchema, renamed: Set<string>, depth: number): void {
  if (depth > MAX_OUTPUT_DEPTH * 2) return
  if (schema.properties !== undefined) {
    const names = renamedProperties(Object.keys(schema.properties))
    if (names.size > 0) {
      const properties: Record<string, GeminiSchema> = {}
      for (const [name, property] of Object.entries(schema.properties)) {
        Object.defineProperty(properties, names.get(name) ?? name, ownValue(property))
      }
      schema.properties = properties
      for (const key of ['required', 'propertyOrdering'] as const) {
        const list = schema[key]
        if (list !== undefined) schema[key] = list.map((name) => names.get(name) ?? name)
      }
      for (const [from, to] of names) renamed.add(`${from} → ${to}`)
    }
    for (const property of Object.values(schema.properties)) renameProperties(property, renamed, depth + 1)
  }
  if (schema.items !== undefined) renameProperties(schema.items, renamed, depth + 1)
  for (const branch of schema.anyOf ?? []) renameProperties(branch, renamed, depth + 1)
}
