import { notStrictWarning, strictCached } from '../adapters/to-openai.js'
import { warnAboutSchema } from '../adapters/warn-about-schema.js'
import type { Logger } from '../shared/logger.js'
import type { Tool } from '../tool/types.js'
import type { SpecFunctionTool } from './language-model-spec.js'

/**
 * The function tool declarations a model call sends, worked out once per tools list: the loop hands the
 * same list for every turn until the toolkit's tools change, and a changed list is a new array.
 *
 * @example
 * const declarations = new ToolDeclarations({ strict: false })
 * declarations.of(toolkit.tools()) // [{ type: 'function', name, description, inputSchema }, ...]
 */
export class ToolDeclarations {
  readonly #strict: boolean
  readonly #name: (name: string) => string
  readonly #logger: Logger | undefined
  readonly #lists = new WeakMap<readonly Tool[], SpecFunctionTool[]>()

  constructor(options: {
    /** Declare every tool in strict mode, its schema in the form strict mode accepts. */
    strict: boolean
    /** The name a tool is declared under, when the provider refuses some (Gemini). @default the tool's own */
    name?: (name: string) => string
    /** Also hears the warnings about schemas, besides the logger of the toolkit holding each. @default none */
    logger?: Logger
  }) {
    this.#strict = options.strict
    this.#name = options.name ?? ((name) => name)
    this.#logger = options.logger
  }

  /** The declarations of `tools`, in order. */
  of(tools: readonly Tool[]): SpecFunctionTool[] {
    let declarations = this.#lists.get(tools)
    if (declarations === undefined) {
      declarations = tools.map((tool) =>
        this.#strict
          ? strictDeclaration(tool, this.#name(tool.name), this.#logger)
          : declaration(tool, this.#name(tool.name)),
      )
      this.#lists.set(tools, declarations)
    }
    return declarations
  }
}

function declaration(tool: Tool, name: string): SpecFunctionTool {
  return { type: 'function', name, description: tool.description, inputSchema: tool.inputSchema }
}

// A tool in strict mode: its schema as strict mode takes it, or as it is (and `strict: false`, with a warning)
// when strict mode cannot say it.
function strictDeclaration(tool: Tool, name: string, logger: Logger | undefined): SpecFunctionTool {
  const conversion = strictCached(tool.inputSchema)
  if (conversion.kind === 'refused') {
    warnAboutSchema(tool.inputSchema, notStrictWarning(tool.name, conversion.reasons), logger)
    return {
      type: 'function',
      name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      strict: false,
    }
  }
  return {
    type: 'function',
    name,
    description: tool.description,
    inputSchema: structuredClone(conversion.schema),
    strict: true,
  }
}
