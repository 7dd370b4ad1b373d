import type {
  Client,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from '@modelcontextprotocol/client'
import { McpRequestError } from '../errors.js'
import type { ToolInputRound } from '../tool/types.js'
import { describeError, serverAnswered } from './describe-mcp-failure.js'
import type { InFlight } from './forward-mid-call.js'
import { type ListPage, listAllPages } from './list-all-pages.js'
import { listOffered, type OfferedList } from './list-offered.js'
import { getPromptOn, RoundHandedUp, readResourceOn } from './request-rounds.js'
import type { Session } from './session.js'
import { withDeadline } from './with-deadline.js'

// Resources, templates and prompts are listed on demand; a server paging forever is cut off here.
const MAX_LIST_PAGES = 100

/** What the requests of one connection need of it: its live session, and how it reports trouble. */
export interface RequestPort {
  readonly name: string
  readonly timeoutMs: number
  closed(): boolean
  /** The live session, reconnecting first when needed. */
  ready(): Promise<Session>
  /** Marks a session lost (a remote one whose request never reached the server). */
  lost(session: Session, reason: string): void
  /** Masks the server's secrets in a message. */
  scrub(text: string): string
  onWarning: ((message: string) => void) | undefined
  /** The requests in flight on the connection, with the caller up the line each is served to. */
  inFlight: InFlight
}

/**
 * The requests of one MCP server connection besides tool calls: its resources, templates and prompts
 * (listed on demand, every page), reads, prompt renders and completions, each on the live session and
 * within the server's timeout. Failures are `McpRequestError`s with the server's secrets masked.
 *
 * @example
 * const requests = new ServerRequests(port)
 * const prompt = await requests.getPrompt('greet', { name: 'Ada' })
 */
export class ServerRequests {
  readonly #port: RequestPort

  constructor(port: RequestPort) {
    this.#port = port
  }

  /** Every resource the server lists (all pages); none when it offers no resources. */
  listResources(): Promise<Resource[]> {
    return this.#list({ method: 'resources/list', key: 'resources' }, 'resources')
  }

  /** Every resource template the server lists (all pages). */
  listResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.#list({ method: 'resources/templates/list', key: 'resourceTemplates' }, 'resource templates')
  }

  /** Every prompt the server lists (all pages); none when it offers no prompts. */
  listPrompts(): Promise<Prompt[]> {
    return this.#list({ method: 'prompts/list', key: 'prompts' }, 'prompts')
  }

  /** Reads one resource (or a URI made from a template); its server's questions go up through `round`. */
  readResource(uri: string, round: ToolInputRound | undefined): Promise<ReadResourceResult> {
    const { timeoutMs } = this.#port
    const read = (client: Client) => readResourceOn({ client, uri, timeoutMs, round })
    return this.request('resources/read', read, round)
  }

  /** Renders one prompt with its arguments; its server's questions go up through `round`. */
  getPrompt(
    name: string,
    args: Record<string, string>,
    round: ToolInputRound | undefined,
  ): Promise<GetPromptResult> {
    const { timeoutMs } = this.#port
    const render = (client: Client) => getPromptOn({ client, name, args, timeoutMs, round })
    return this.request('prompts/get', render, round)
  }

  /** Completes a prompt argument or template variable; no values where the server offers no completions. */
  complete(params: Parameters<Client['complete']>[0]): ReturnType<Client['complete']> {
    return this.request('completion/complete', (client) =>
      client.getServerCapabilities()?.completions === undefined
        ? Promise.resolve({ completion: { values: [] } })
        : client.complete(params, { timeout: this.#port.timeoutMs }),
    )
  }

  /**
   * Runs one request on the live session (reconnecting first if needed), counted in flight with the
   * `round` it is served up the line with; failures are `McpRequestError`s.
   */
  async request<Value>(
    method: string,
    run: (client: Client) => Promise<Value>,
    round?: ToolInputRound,
  ): Promise<Value> {
    const port = this.#port
    const server = port.name
    if (port.closed()) throw new McpRequestError(`MCP server "${server}" is closed.`, { server, method })
    let session: Session
    try {
      session = await port.ready()
    } catch (error) {
      throw new McpRequestError(
        `MCP server "${server}" is unavailable (${port.scrub(describeError(error))}), so ${method} was not sent.`,
        { server, method },
      )
    }
    try {
      const work = port.inFlight.run(round, () => run(session.client))
      return await withDeadline(work, { ms: port.timeoutMs, phase: method })
    } catch (error) {
      if (error instanceof RoundHandedUp) throw error
      if (session.kind !== 'stdio' && !serverAnswered(error)) port.lost(session, describeError(error))
      throw new McpRequestError(
        `MCP server "${server}" failed ${method}: ${port.scrub(describeError(error))}`,
        {
          server,
          method,
        },
      )
    }
  }

  /** Every page of a resource, template or prompt list; none when not offered. */
  #list<Item>(list: OfferedList, what: string): Promise<Item[]> {
    const { name: server, onWarning, timeoutMs } = this.#port
    const walk = (page: ListPage<Item>) =>
      listAllPages({ server, what, maxPages: MAX_LIST_PAGES, page, onWarning })
    return this.request(list.method, (client) => listOffered(client, list, timeoutMs, walk))
  }
}
