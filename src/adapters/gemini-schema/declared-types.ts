import { isRecord } from '../../shared/is-record.js'
import { type GeminiSchemaType, schemaTypes } from './gemini-schema.js'

export function declaredTypes(node: Record<string, unknown>): (GeminiSchemaType | 'null')[] {
  const raw: unknown[] = Array.isArray(node.type) ? node.type : [node.type]
  const types = raw.filter(
    (type): type is GeminiSchemaType | 'null' =>
      type === 'null' || schemaTypes.some((known) => known === type),
  )
  return [...new Set(types)]
}

// Many MCP servers omit `type`; the keywords present still say it.
export function inferType(node: Record<string, unknown>): GeminiSchemaType | undefined {
  if (
    isRecord(node.properties) ||
    Array.isArray(node.required) ||
    isRecord(node.patternProperties) ||
    node.additionalProperties !== undefined ||
    node.minProperties !== undefined ||
    node.maxProperties !== undefined
  ) {
    return 'object'
  }
  if (
    node.items !== undefined ||
    Array.isArray(node.prefixItems) ||
    node.minItems !== undefined ||
    node.maxItems !== undefined
  ) {
    return 'array'
  }
  const values = enumValues(node)?.filter((value) => value !== null)
  if (values !== undefined && values.length > 0) {
    const kinds = new Set(values.map(kindOf))
    if (kinds.size === 1) return [...kinds][0]
    return undefined
  }
  if (typeof node.pattern === 'string' || node.minLength !== undefined || node.maxLength !== undefined) {
    return 'string'
  }
  if (typeof node.format === 'string') return 'string'
  if (
    node.minimum !== undefined ||
    node.maximum !== undefined ||
    node.exclusiveMinimum !== undefined ||
    node.exclusiveMaximum !== undefined ||
    node.multipleOf !== undefined
  ) {
    return 'number'
  }
  return undefined
}

export function enumValues(node: Record<string, unknown>): unknown[] | undefined {
  if (Object.hasOwn(node, 'const')) return [node.const]
  return Array.isArray(node.enum) ? node.enum : undefined
}

export function kindOf(value: unknown): GeminiSchemaType {
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object' && value !== null) return 'object'
  return 'string'
}

export function enumText(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

export function isNullOnly(node: Record<string, unknown>): boolean {
  const types = declaredTypes(node)
  if (types.length > 0) return types.every((type) => type === 'null')
  const values = enumValues(node)
  return values !== undefined && values.length > 0 && values.every((value) => value === null)
}
