import type { JSONSchema, Tool } from '../tool/types.js'
import {
  convertJsonSchemaToGeminiSchema,
  type GeminiSchema,
  hasNoProperties,
} from './convert-json-schema-to-gemini-schema.js'

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
 * per tool, in input order. Each JSON Schema is lowered into Gemini's Schema subset (see
 * `convertJsonSchemaToGeminiSchema`), because the API rejects the whole request for one key it does not know.
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
    options.parametersJsonSchema === true ? passThrough(tool) : lowered(tool),
  )
  return [{ functionDeclarations }]
}

function lowered(tool: Tool): GeminiFunctionDeclaration {
  const parameters = convertJsonSchemaToGeminiSchema(tool.inputSchema)
  if (hasNoProperties(parameters)) {
    return { name: tool.name, description: tool.description } satisfies GeminiFunctionDeclaration
  }
  return { name: tool.name, description: tool.description, parameters } satisfies GeminiFunctionDeclaration
}

function passThrough(tool: Tool): GeminiFunctionDeclaration {
  // A copy, so an SDK that rewrites the request in place cannot reach the tool's own schema.
  return {
    name: tool.name,
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
