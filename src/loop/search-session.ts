import type { ToolSearchOptions } from '../search/tool-search.js'
import { errorResult } from '../tool/tool-result.js'
import type { Tool, ToolResult } from '../tool/types.js'
import type { ToolRunner as Toolkit } from '../toolkit/toolkit.js'

/**
 * The name of the tool through which a model finds the toolkit's other tools.
 *
 * @example
 * result.toolCalls.filter((call) => call.name === SEARCH_TOOL_NAME) // the searches the model made
 */
export const SEARCH_TOOL_NAME = 'search_tools'
// What one found tool's description may take of the answer; the whole definition follows in the request.
const MAX_LISTED_DESCRIPTION = 200

/**
 * The `search_tools` tool's definition (its `execute` answers that a search needs a run or a session).
 * The text never changes with the toolkit's tools, so a provider's prompt cache keeps it.
 *
 * @example
 * searchToolDefinition().inputSchema // { type: 'object', properties: { query: … }, required: ['query'] }
 */
function searchToolDefinition(): Tool {
  return {
    name: SEARCH_TOOL_NAME,
    description:
      'Finds tools for a task among the many this assistant can use and makes the best matches callable from your next step. Search whenever no loaded tool fits; describe the task in a few words.',
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'The task, in a few words: "send an email", "convert PDF to text".',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    source: 'native',
    execute: async () => errorResult('search_tools runs inside a toolkit run.'),
  }
}

/** What one run declares, for one state of the toolkit's list and of the tools found. */
interface Declared {
  list: readonly Tool[]
  found: number
  tools: readonly Tool[]
  deferred?: ReadonlySet<string>
}

/**
 * One run's view of a searching toolkit: the tools to declare on each turn (the always-loaded ones and
 * `search_tools`, then every tool a search found, appended in the order found), and the answer to a
 * `search_tools` call. With the provider's own tool search it declares every tool, all but the
 * always-loaded ones deferred.
 */
export class SearchSession {
  readonly #toolkit: Toolkit
  readonly #options: ToolSearchOptions
  readonly #native: boolean
  readonly #searchTool: Tool
  readonly #found: string[] = []
  #declared: Declared | undefined

  constructor(options: {
    toolkit: Toolkit
    search: ToolSearchOptions
    native: boolean
    loaded?: readonly string[]
  }) {
    this.#toolkit = options.toolkit
    this.#options = options.search
    this.#native = options.native
    this.#searchTool = { ...searchToolDefinition(), execute: (args) => this.#answer(args) }
    for (const name of options.loaded ?? []) this.#load(name)
  }

  /** The tools to declare now; the same array until a search adds to it or the toolkit's list changes. */
  tools(): readonly Tool[] {
    return this.#current().tools
  }

  /** The tools sent deferred, for the provider's own search; `undefined` when `search_tools` is sent. */
  deferred(): ReadonlySet<string> | undefined {
    return this.#current().deferred
  }

  /** The answer to a `search_tools` call, or `undefined` when `name` is another tool. */
  answer(name: string, args: Record<string, unknown>): Promise<ToolResult> | undefined {
    return name === SEARCH_TOOL_NAME && !this.#native ? this.#answer(args) : undefined
  }

  #current(): Declared {
    const list = this.#toolkit.tools()
    const declared = this.#declared
    if (declared !== undefined && declared.list === list && declared.found === this.#found.length)
      return declared
    const always = new Set(this.#options.alwaysLoaded ?? [])
    let next: Declared
    if (this.#native) {
      next = {
        list,
        found: 0,
        tools: list,
        deferred: new Set(list.filter((tool) => !always.has(tool.name)).map((tool) => tool.name)),
      }
    } else {
      const pinned = list.filter((tool) => always.has(tool.name))
      const found = this.#found.flatMap((name) => {
        const tool = always.has(name) ? undefined : this.#toolkit.get(name)
        return tool === undefined ? [] : [tool]
      })
      next = { list, found: this.#found.length, tools: [...pinned, this.#searchTool, ...found] }
    }
    this.#declared = next
    return next
  }

  #load(name: string): boolean {
    if (this.#found.includes(name) || (this.#options.alwaysLoaded ?? []).includes(name)) return false
    this.#found.push(name)
    return true
  }

  async #answer(args: Record<string, unknown>): Promise<ToolResult> {
    const query = args.query
    if (typeof query !== 'string' || query.trim() === '') {
      return errorResult('search_tools needs a "query": the task, in a few words.')
    }
    const matches = await this.#toolkit.search(
      query,
      this.#options.limit === undefined ? {} : { limit: this.#options.limit },
    )
    if (matches.length === 0)
      return { output: 'No tool matched. Try other words for the task.', isError: false }
    const lines = matches.map((match) => {
      const fresh = this.#load(match.name)
      const description =
        match.description.length > MAX_LISTED_DESCRIPTION
          ? `${match.description.slice(0, MAX_LISTED_DESCRIPTION)}…`
          : match.description
      return `- ${match.name}${fresh ? '' : ' (already loaded)'}: ${description}`
    })
    return { output: `These tools are now callable:\n${lines.join('\n')}`, isError: false }
  }
}
