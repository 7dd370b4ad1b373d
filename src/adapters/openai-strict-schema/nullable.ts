import { isRecord } from '../../shared/is-record.js'

/**
 * The schema that also allows `null`: the form strict mode gives an optional property.
 *
 * @example
 * nullable({ type: 'string' }) // { type: ['string', 'null'] }
 */
export function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(schema.anyOf)) {
    const hasNull = schema.anyOf.some((branch) => isRecord(branch) && branch.type === 'null')
    return hasNull ? schema : { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] }
  }
  if (typeof schema.$ref === 'string') {
    const { description, ...reference } = schema
    return {
      anyOf: [reference, { type: 'null' }],
      ...(description === undefined ? {} : { description }),
    }
  }
  const copy = { ...schema }
  const types = typeList(schema)
  if (types.length > 0 && !types.includes('null')) copy.type = [...types, 'null']
  if (Array.isArray(copy.enum) && !copy.enum.includes(null)) copy.enum = [...copy.enum, null]
  if (Object.hasOwn(copy, 'const')) {
    copy.enum = [copy.const, null]
    delete copy.const
  }
  return copy
}

export function typeList(node: Record<string, unknown>): string[] {
  const raw: unknown[] = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type]
  return [...new Set(raw.filter((type): type is string => typeof type === 'string'))]
}
