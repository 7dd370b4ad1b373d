import type { Logger } from '../shared/logger.js'
import type { JSONSchema, Tool } from '../tool/types.js'
import {
  convertJsonSchemaToOpenAIStrictSchema,
  type OpenAIStrictConversion,
} from './openai-strict-schema/convert-json-schema-to-openai-strict-schema.js'
import { warnAboutSchema } from './warn-about-schema.js'

/**
 * One tool in the OpenAI Chat Completions `tools` array.
 *
 * @example
 * const tool: OpenAITool = { type: 'function', function: { name: 'ping', description: 'Health check', parameters: { type: 'object', properties: {} } } }
 */
export interface OpenAITool {
  type: 'function'
  function: {
    name: string
    description: string
    parameters: JSONSchema
    /** Present with `{ strict: true }`: whether this tool is sent in strict mode. */
    strict?: boolean
  }
}

/**
 * What `toOpenAI` takes besides the tools.
 *
 * @example
 * toOpenAI(tools, { strict: true })
 */
export interface ToOpenAIOptions {
  /**
   * Send each tool in strict mode (Structured Outputs): its schema rewritten into the form strict mode
   * accepts (see `convertJsonSchemaToOpenAIStrictSchema`). A tool whose schema strict mode cannot say is
   * sent as it is with `strict: false`, and a warning says why.
   *
   * @default false
   */
  strict?: boolean
  /** Where the warning about a tool sent without strict mode goes (a toolkit's tools also warn the toolkit). */
  logger?: Logger
}

/**
 * Renders tools for OpenAI's Chat Completions API (and every OpenAI-compatible endpoint). With
 * `{ strict: true }` each tool is sent in strict mode: every property required, optional ones nullable
 * (the toolkit reads the model's `null` as "absent" again before it validates), `additionalProperties:
 * false`, unsupported keywords moved into descriptions.
 *
 * @example
 * await openai.chat.completions.create({ model: 'gpt-4.1', messages, tools: toOpenAI(tk.tools(), { strict: true }) })
 */
export function toOpenAI(tools: readonly Tool[], options: ToOpenAIOptions = {}): OpenAITool[] {
  if (options.strict !== true) {
    return tools.map(
      (tool) =>
        ({
          type: 'function',
          function: {
            name: tool.name,
            description: tool.description,
            parameters: objectRoot(tool.inputSchema),
          },
        }) satisfies OpenAITool,
    )
  }
  return tools.map((tool) => strictTool(tool, options.logger))
}

// Many MCP servers leave `type` out of the root; OpenAI refuses a function whose parameters are not
// `type: 'object'`.
function objectRoot(schema: JSONSchema): JSONSchema {
  return schema.type === undefined ? { type: 'object', ...schema } : schema
}

function strictTool(tool: Tool, logger: Logger | undefined): OpenAITool {
  const conversion = strictCached(tool.inputSchema)
  if (conversion.kind === 'refused') {
    warnAboutSchema(tool.inputSchema, notStrictWarning(tool.name, conversion.reasons), logger)
    return {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        parameters: tool.inputSchema,
        strict: false,
      },
    } satisfies OpenAITool
  }
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      // A copy per caller, so nobody reaches the cached conversion.
      parameters: structuredClone(conversion.schema),
      strict: true,
    },
  } satisfies OpenAITool
}

/**
 * The warning for a tool strict mode cannot take.
 *
 * @example
 * notStrictWarning('search', ['the arguments.filter allows any value; strict mode needs a type'])
 */
export function notStrictWarning(name: string, reasons: readonly string[]): string {
  return `Tool "${name}" is sent without OpenAI strict mode: ${reasons.join('; ')}.`
}

const strictSchemas = new WeakMap<object, OpenAIStrictConversion>()

/**
 * The strict-mode conversion of a tool's schema, computed once per schema object.
 *
 * @example
 * strictCached(tool.inputSchema).kind // 'strict' | 'refused'
 */
export function strictCached(schema: JSONSchema): OpenAIStrictConversion {
  const key: unknown = schema
  if (typeof key !== 'object' || key === null) return convertJsonSchemaToOpenAIStrictSchema(schema)
  let conversion = strictSchemas.get(key)
  if (conversion === undefined) {
    conversion = convertJsonSchemaToOpenAIStrictSchema(schema)
    strictSchemas.set(key, conversion)
  }
  return conversion
}
