import { asSchema } from 'ai'
import { ToolDefinitionError } from '../errors.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import { findSchemaProblem } from './find-schema-problem.js'
import { errorMessage } from './tool-result.js'
import type { JSONSchema } from './types.js'

const aiSdkSchemaMarker = Symbol.for('vercel.ai.schema')

/**
 * What `defineTool` accepts as `inputSchema`: a JSON Schema object, a zod schema, any Standard Schema
 * that can emit JSON Schema, an AI SDK `Schema` (`jsonSchema(...)`, `zodSchema(...)`), or a zod shape
 * (`{ city: z.string() }`, the MCP SDK's way), read as the object it describes.
 */
export type InputSchema =
  | JSONSchema
  | { readonly [key: string]: unknown }
  | { readonly '~standard': unknown }
  | { readonly jsonSchema: unknown }
  // A JSON Schema typed by an interface without an index signature, like `JSONSchema7` of @types/json-schema.
  | object

/**
 * Turns any accepted `inputSchema` into a fresh plain JSON Schema object with an object root. The input is
 * never mutated; the result is the caller's own copy.
 *
 * @throws {ToolDefinitionError} when the schema cannot be read, resolves only asynchronously, its root
 * is not an object, it is cyclic or nests too deeply, or it has a `pattern` the linear-time engine cannot
 * evaluate (a lookaround, a backreference).
 * @example
 * toJsonSchema(z.object({ city: z.string() }), 'get_weather') // { type: 'object', properties: { city: … }, … }
 */
export function toJsonSchema(input: InputSchema | undefined, toolName: string): JSONSchema {
  const raw = input === undefined ? { type: 'object', properties: {} } : readSchema(input, toolName)
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ToolDefinitionError(
      `Tool "${toolName}": inputSchema must describe an object, got ${typeof raw}.`,
    )
  }
  // Before copying: a cycle or a 1,000-level nesting would otherwise fail later, per call, or misleadingly.
  const problem = findSchemaProblem(raw)
  if (problem !== undefined)
    throw new ToolDefinitionError(`Tool "${toolName}": inputSchema ${problem.message}.`)
  let schema: JSONSchema
  try {
    schema = structuredClone(raw) as JSONSchema
  } catch (error) {
    throw new ToolDefinitionError(
      `Tool "${toolName}": inputSchema must be plain JSON data (no functions or class instances).`,
      { cause: error },
    )
  }
  if (schema.type === undefined && !('anyOf' in schema) && !('oneOf' in schema) && !('$ref' in schema)) {
    schema.type = 'object'
  }
  if (schema.type !== 'object') {
    throw new ToolDefinitionError(
      `Tool "${toolName}": the root of inputSchema must be { type: "object" } (tool arguments are always an object), got type ${JSON.stringify(schema.type)}. Wrap the value in an object property.`,
    )
  }
  if (schema.properties === undefined) schema.properties = {}
  return schema
}

function readSchema(input: InputSchema, toolName: string): unknown {
  if (!isWrapped(input)) return isRawShape(input) ? readRawShape(input, toolName) : input
  let jsonSchema: unknown
  try {
    jsonSchema = asSchema(input as Parameters<typeof asSchema>[0]).jsonSchema
  } catch (error) {
    throw new ToolDefinitionError(
      `Tool "${toolName}": inputSchema could not be converted to JSON Schema (${errorMessage(error)}). Pass a JSON Schema object, a zod 4 schema or a Standard Schema with JSON Schema support.`,
      { cause: error },
    )
  }
  if (isPromiseLike(jsonSchema)) {
    throw new ToolDefinitionError(
      `Tool "${toolName}": inputSchema resolves to JSON Schema asynchronously. Resolve it first: inputSchema: await asSchema(schema).jsonSchema.`,
    )
  }
  return jsonSchema
}

function isWrapped(input: unknown): boolean {
  return (
    typeof input === 'function' ||
    (typeof input === 'object' && input !== null && (aiSdkSchemaMarker in input || '~standard' in input))
  )
}

// `{ city: z.string() }`: the MCP SDK's way of writing an object schema, its properties' schemas by name.
// No JSON Schema has a schema object as the value of one of its own keywords.
function isRawShape(input: object): boolean {
  return Object.values(input).some(isStandardSchema)
}

function isStandardSchema(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && '~standard' in value
}

// The object a raw shape means: each value's JSON Schema as a property, required unless the value accepts
// `undefined` (`.optional()`, `.default()`), no other property, as `z.object(shape)` would say it.
function readRawShape(shape: object, toolName: string): JSONSchema {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  const definitions: Record<string, unknown> = {}
  let draft: unknown
  for (const [name, value] of Object.entries(shape)) {
    if (!isStandardSchema(value)) {
      throw new ToolDefinitionError(
        `Tool "${toolName}": inputSchema mixes schemas (a zod shape like { city: z.string() }) with other values: "${name}" is not a schema. Write every property as a schema, or pass z.object({ ... }) or a JSON Schema.`,
      )
    }
    const property = readSchema(value, `${toolName}.${name}`)
    if (typeof property !== 'object' || property === null) {
      throw new ToolDefinitionError(`Tool "${toolName}": the schema of "${name}" is not an object.`)
    }
    const { $schema, $defs, definitions: legacy, ...rest } = property as Record<string, unknown>
    draft ??= $schema
    Object.assign(definitions, $defs, legacy)
    Object.defineProperty(properties, name, {
      value: rest,
      enumerable: true,
      writable: true,
      configurable: true,
    })
    if (!acceptsUndefined(value)) required.push(name)
  }
  return {
    ...(draft === undefined ? {} : { $schema: draft }),
    type: 'object',
    properties,
    ...(required.length === 0 ? {} : { required }),
    additionalProperties: false,
    ...(Object.keys(definitions).length === 0 ? {} : { $defs: definitions }),
  }
}

// Whether leaving the property out is fine with its schema: a Standard Schema that takes `undefined`.
function acceptsUndefined(value: unknown): boolean {
  const standard = (value as { '~standard'?: { validate?: unknown } })['~standard']
  if (typeof standard?.validate !== 'function') return false
  try {
    const result = (standard.validate as (input: unknown) => unknown)(undefined)
    if (isPromiseLike(result)) {
      Promise.resolve(result).catch(() => {})
      return false
    }
    return typeof result === 'object' && result !== null && !('issues' in result && result.issues)
  } catch {
    return false
  }
}
