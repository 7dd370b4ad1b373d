/**
 * The value types Gemini's `Schema` knows, spelled as JSON Schema spells them (the API accepts any case;
 * `@google/genai` upper-cases them itself).
 *
 * @example
 * const type: GeminiSchemaType = 'integer'
 */
export type GeminiSchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object'

/**
 * Gemini's `Schema`: the OpenAPI 3.0 subset a `functionDeclarations[].parameters` may use. The API rejects a
 * whole request for one key outside it, which is why `toGemini` lowers every JSON Schema into this shape.
 *
 * @example
 * const schema: GeminiSchema = { type: 'object', properties: { unit: { type: 'string', enum: ['c', 'f'] } } }
 */
export interface GeminiSchema {
  type?: GeminiSchemaType
  /** `float`/`double` on numbers, `int32`/`int64` on integers, `enum`/`date-time` on strings. */
  format?: string
  title?: string
  description?: string
  nullable?: boolean
  /** Always strings, and only on `type: 'string'`. */
  enum?: string[]
  items?: GeminiSchema
  properties?: { [name: string]: GeminiSchema }
  required?: string[]
  propertyOrdering?: string[]
  /** Alone on its node: never beside `type` or any other key. */
  anyOf?: GeminiSchema[]
  default?: unknown
  example?: unknown
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  minProperties?: number
  maxProperties?: number
  pattern?: string
}

// The keys a `GeminiSchema` may carry, in the order the output lists them; everything else is dropped.
export const GEMINI_SCHEMA_KEYS: readonly (keyof GeminiSchema)[] = [
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'propertyOrdering',
  'anyOf',
  'default',
  'example',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'pattern',
]

// The formats the API accepts per type; any other format is rejected with HTTP 400, so it moves into the
// description instead.
export const allowedFormats: Record<GeminiSchemaType, readonly string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
  boolean: [],
  array: [],
  object: [],
}

export const schemaTypes: readonly GeminiSchemaType[] = [
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
]

type LooseSchema = { [Key in keyof GeminiSchema]?: GeminiSchema[Key] | undefined }

// A stable key order keeps snapshots and request bodies readable: the order of the subset's key list.
export function orderKeys(schema: LooseSchema): GeminiSchema {
  const ordered: Record<string, unknown> = {}
  for (const key of GEMINI_SCHEMA_KEYS) {
    const value = schema[key]
    if (value !== undefined) ordered[key] = value
  }
  // Same keys and values as `schema`, only reordered.
  return ordered as GeminiSchema
}
