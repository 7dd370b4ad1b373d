import type { Logger } from '../shared/logger.js'
import { geminiToolName } from '../tool/names.js'
import type { JSONSchema, Tool } from '../tool/types.js'
import {
  type GeminiLowering,
  hasNoProperties,
  lowerJsonSchemaToGemini,
} from './gemini-schema/convert-json-schema-to-gemini-schema.js'
import type { GeminiSchema } from './gemini-schema/gemini-schema.js'
import { warnAboutSchema } from './warn-about-schema.js'

/**
 * What `toGemini` takes besides the tools.
 *
 * @example
 * toGemini(tools, { parametersJsonSchema: true }) // [{ functionDeclarations: [{ name, description, parametersJsonSchema }] }]
 */
export interface ToGeminiOptions {
  /**
   * Send each tool's JSON Schema unchanged as `parametersJsonSchema` (Gemini's JSON Schema field, on models
   * that support it) instead of lowering it into `parameters`.
   *
   * @default false
   */
  parametersJsonSchema?: boolean
  /**
   * Where a warning goes when a schema had to be simplified to stay within the lowering's work budget. A
   * toolkit's own tools also warn the toolkit's logger.
   *
   * @default the toolkit's logger, if the tools belong to one
   */
  logger?: Logger
}

/**
 * One entry of `functionDeclarations`. It carries `parameters` (lowered into Gemini's Schema subset) or, with
 * `{ parametersJsonSchema: true }`, `parametersJsonSchema` (the JSON Schema as it is) — never both. A tool
 * without arguments carries neither: Gemini rejects an object schema with empty `properties`, and its
 * documentation says to leave `parameters` unset for a function without parameters.
 *
 * @example
 * const declaration: GeminiFunctionDeclaration = {
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * }
 */
export interface GeminiFunctionDeclaration {
  name: string
  description: string
  parameters?: GeminiSchema
  parametersJsonSchema?: JSONSchema
}

/**
 * The single element of the `tools` array of a Gemini request: every function sits in it.
 *
 * @example
 * const [wrapper]: [GeminiToolWrapper] = toGemini(tools)
 * wrapper.functionDeclarations.length // the number of tools
 */
export interface GeminiToolWrapper {
  functionDeclarations: GeminiFunctionDeclaration[]
}

/**
 * Renders tools as the `tools` array of a Gemini `generateContent` request. Gemini nests every function under
 * one element, so the result **always has exactly one element** — even for no tools — holding one declaration
 * per tool, in input order. A name Gemini refuses (one that starts with a digit or `-`) is declared with `_`
 * before it; a toolkit runs the model's call under that name. Each JSON Schema is lowered into Gemini's
 * Schema subset (see `convertJsonSchemaToGeminiSchema`), because the API rejects the whole request for one
 * key it does not know.
 * The tools' schemas are never mutated and the result shares no object with them.
 *
 * With the `@google/genai` SDK, whose `Type` is a TypeScript enum, pass the result as its `ToolListUnion`
 * (the wire shape is the same), or use `{ parametersJsonSchema: true }`, whose field the SDK types as `unknown`.
 *
 * @param tools - The tools to declare.
 * @param options - `{ parametersJsonSchema: true }` passes each schema through unchanged instead.
 * @example
 * const tools = toGemini([weather])
 * tools.length // 1 — the wrapper, not the tool count
 * tools[0].functionDeclarations.map((declaration) => declaration.name) // ['get_weather']
 * await fetch(`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent`, {
 *   method: 'POST',
 *   headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
 *   body: JSON.stringify({ contents, tools }),
 * })
 */
export function toGemini(tools: readonly Tool[], options: ToGeminiOptions = {}): [GeminiToolWrapper] {
  const functionDeclarations = tools.map((tool) =>
    options.parametersJsonSchema === true ? passThrough(tool) : lowered(tool, options.logger),
  )
  return [{ functionDeclarations }]
}

function lowered(tool: Tool, logger: Logger | undefined): GeminiFunctionDeclaration {
  const lowering = lowerCached(tool.inputSchema)
  if (lowering.simplified > 0) {
    warnAboutSchema(tool.inputSchema, simplifiedWarning(tool.name, lowering.simplified), logger)
  }
  const name = geminiToolName(tool.name)
  if (hasNoProperties(lowering.schema)) {
    return { name, description: tool.description } satisfies GeminiFunctionDeclaration
  }
  // A copy for every caller: an SDK that rewrites the request in place cannot reach the cached lowering.
  const parameters = copyGeminiSchema(lowering.schema)
  return { name, description: tool.description, parameters } satisfies GeminiFunctionDeclaration
}

/**
 * The warning for a tool whose schema was simplified while lowering.
 *
 * @example
 * simplifiedWarning('deep_tool', 12)
 */
function simplifiedWarning(name: string, simplified: number): string {
  return `Tool "${name}": its input schema is too large or too deeply nested to lower in full for Gemini; ${simplified} part${simplified === 1 ? ' is' : 's are'} described instead of expanded.`
}

// Lowering is pure, and a tool's schema does not change once the tool exists: each schema object is lowered
// once, and every later call copies the result.
const loweredSchemas = new WeakMap<object, GeminiLowering>()

/**
 * The lowering of a tool's schema, computed once per schema object.
 *
 * @example
 * lowerCached(tool.inputSchema).dropped // ['additionalProperties']
 */
export function lowerCached(schema: JSONSchema): GeminiLowering {
  const key: unknown = schema
  if (typeof key !== 'object' || key === null) return lowerJsonSchemaToGemini(schema)
  let lowering = loweredSchemas.get(key)
  if (lowering === undefined) {
    lowering = lowerJsonSchemaToGemini(schema)
    loweredSchemas.set(key, lowering)
  }
  return lowering
}

// A lowered schema is plain JSON with no shared objects; this copies it faster than a JSON round trip.
function copyGeminiSchema(schema: GeminiSchema): GeminiSchema {
  const copy: GeminiSchema = {}
  for (const key in schema) {
    const value = (schema as Record<string, unknown>)[key]
    ;(copy as Record<string, unknown>)[key] = copyValue(key, value)
  }
  return copy
}

function copyValue(key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (key === 'items') return copyGeminiSchema(value as GeminiSchema)
  if (key === 'properties') {
    const properties: Record<string, GeminiSchema> = {}
    const source = value as Record<string, GeminiSchema>
    for (const name in source) {
      const property = copyGeminiSchema(source[name] as GeminiSchema)
      // A data property even for `__proto__`, which an assignment would turn into a prototype change.
      if (name === '__proto__') Object.defineProperty(properties, name, ownValue(property))
      else properties[name] = property
    }
    return properties
  }
  if (key === 'anyOf') return (value as GeminiSchema[]).map(copyGeminiSchema)
  // enum, required, propertyOrdering (strings), default and example (JSON values).
  return structuredCopy(value)
}

function structuredCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(structuredCopy)
  const copy: Record<string, unknown> = {}
  for (const [key, entry] of Object.entries(value)) {
    Object.defineProperty(copy, key, ownValue(structuredCopy(entry)))
  }
  return copy
}

function ownValue(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}

function passThrough(tool: Tool): GeminiFunctionDeclaration {
  // A copy, so an SDK that rewrites the request in place cannot reach the tool's own schema.
  return {
    name: geminiToolName(tool.name),
    description: tool.description,
    parametersJsonSchema: structuredCloneOr(tool.inputSchema),
  } satisfies GeminiFunctionDeclaration
}

function structuredCloneOr(schema: JSONSchema): JSONSchema {
  try {
    return structuredClone(schema)
  } catch {
    // A schema holding something uncloneable (a function) is passed as it is: unchanged is the promise.
    return schema
  }
}
