// The keywords strict mode accepts; every other one is moved into the node's description.
export const STRICT_KEYS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
])
// The string formats strict mode knows; another format is said in the description instead.
export const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
])
export const STRICT_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
// Keywords read here and rewritten into what strict mode says instead.
export const REWRITTEN_KEYS = new Set([
  'oneOf',
  'allOf',
  'prefixItems',
  'nullable',
  '$schema',
  '$id',
  '$comment',
])

/** OpenAI's documented limits for a strict schema. */
export const MAX_NESTING = 10
export const MAX_PROPERTIES = 5000
export const MAX_ENUM_VALUES = 1000

export interface StrictState {
  reasons: string[]
  lost: Set<string>
  onPath: Set<object>
  /** Every `$ref` the converted schema holds: only the definitions they reach are sent. */
  refs: Set<string>
  properties: number
  enumValues: number
}
