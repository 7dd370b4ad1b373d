import type { JSONSchema } from './types.js'

/** Says yes when arguments plainly fit; `false` means "ask the full validator", not "invalid". */
export type QuickArgsCheck = (args: Record<string, unknown>) => boolean

type ScalarType = 'string' | 'number' | 'integer' | 'boolean'

interface QuickProperty {
  type: ScalarType | undefined
  enum: readonly unknown[] | undefined
}

// Keywords that never change whether a value is valid.
const ANNOTATIONS = new Set([
  '$schema',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
])
const ROOT_KEYWORDS = new Set([...ANNOTATIONS, 'type', 'properties', 'required', 'additionalProperties'])
const PROPERTY_KEYWORDS = new Set([...ANNOTATIONS, 'type', 'enum'])
const SCALAR_TYPES = new Set<unknown>(['string', 'number', 'integer', 'boolean'])

/**
 * A fast check for the schemas most tools have: an object of scalar properties (`string`, `number`,
 * `integer`, `boolean`, optionally an `enum` of scalars), with `required` and a boolean
 * `additionalProperties`. Returns `undefined` for any schema that uses more than that, so the full
 * validator handles it. The check only ever says yes to arguments the full validator accepts; anything
 * else (a wrong type, a missing key) is left to the full validator, which also explains what is wrong.
 *
 * @example
 * const check = compileQuickArgsCheck({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] })
 * check?.({ city: 'Pune' }) // true
 * check?.({})               // false: the full validator says why
 */
export function compileQuickArgsCheck(schema: JSONSchema): QuickArgsCheck | undefined {
  if (!onlyKeywords(schema, ROOT_KEYWORDS) || (schema.type !== undefined && schema.type !== 'object')) {
    return undefined
  }
  const properties = new Map<string, QuickProperty>()
  const declared = schema.properties ?? {}
  if (!isPlainObject(declared)) return undefined
  for (const [name, property] of Object.entries(declared)) {
    const quick = quickProperty(property)
    if (quick === undefined) return undefined
    properties.set(name, quick)
  }
  const required = schema.required ?? []
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) return undefined
  const additional = schema.additionalProperties ?? true
  if (typeof additional !== 'boolean') return undefined
  // A required name without a property schema still only has to be present.
  const requiredNames = [...new Set(required as string[])]

  return (args) => {
    // Inherited keys are something the full validator may look at; plain JSON objects have none.
    const prototype = Object.getPrototypeOf(args)
    if (prototype !== Object.prototype && prototype !== null) return false
    for (const name of requiredNames) {
      if (!Object.hasOwn(args, name)) return false
    }
    for (const name of Object.keys(args)) {
      const property = properties.get(name)
      if (property === undefined) {
        if (!additional) return false
        continue
      }
      if (!fits(args[name], property)) return false
    }
    return true
  }
}

function quickProperty(schema: unknown): QuickProperty | undefined {
  if (!isPlainObject(schema) || !onlyKeywords(schema, PROPERTY_KEYWORDS)) return undefined
  const type = schema.type
  if (type !== undefined && !SCALAR_TYPES.has(type)) return undefined
  const values = schema.enum
  if (values !== undefined && !(Array.isArray(values) && values.every(isScalar))) return undefined
  // A bare `{}` accepts anything, which this check cannot tell apart from a typo in a nested schema.
  if (type === undefined && values === undefined) return undefined
  return { type: type as ScalarType | undefined, enum: values as readonly unknown[] | undefined }
}

function fits(value: unknown, property: QuickProperty): boolean {
  switch (property.type) {
    case 'string':
      if (typeof value !== 'string') return false
      break
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return false
      break
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return false
      break
    case 'boolean':
      if (typeof value !== 'boolean') return false
      break
    default:
      break
  }
  return property.enum === undefined || property.enum.includes(value)
}

function onlyKeywords(schema: object, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(schema)) if (!allowed.has(key)) return false
  return true
}

function isScalar(value: unknown): boolean {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  )
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
