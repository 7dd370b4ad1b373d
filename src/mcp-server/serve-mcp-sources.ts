import {
  type GetPromptResult,
  type ListPromptsResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Server,
  type ServerCapabilities,
  UriTemplate,
} from '@modelcontextprotocol/server'
import { McpRequestError } from '../errors.js'
import type { McpPrompt, McpResource, McpResourceTemplate } from '../mcp/mcp-source.js'
import { isRecord } from '../shared/is-record.js'
import { joinToolName } from '../tool/names.js'
import type { Toolkit } from '../toolkit/toolkit.js'
import { withInputRounds } from './forward-request-rounds.js'
import type { RoundServing } from './serve-rounds.js'
import type { SessionSubscriptions } from './served-subscriptions.js'

// What one listing of every source gave, kept so a read or get finds its server without listing again.
interface Listed {
  resources: Map<string, McpResource>
  templates: Array<{ template: McpResourceTemplate; match: UriTemplate }>
  prompts: Map<string, McpPrompt>
}

/**
 * What a gateway offers beside tools when its toolkit has MCP servers: their resources, resource
 * templates, prompts, completions and logging, and with `subscribe` resource subscriptions. Nothing
 * when the toolkit has none.
 *
 * @example
 * const capabilities = { tools: {}, ...sourceCapabilities(toolkit) }
 */
export function sourceCapabilities(toolkit: Toolkit, subscribe = false): ServerCapabilities {
  if (Object.keys(toolkit.mcpServers()).length === 0) return {}
  return { resources: subscribe ? { subscribe: true } : {}, prompts: {}, completions: {}, logging: {} }
}

/**
 * Serves the resources, resource templates, prompts and completions of a toolkit's MCP servers on a
 * gateway's `server`. Prompts are named as tools are, `<server>_<prompt>`, so two servers' prompts never
 * collide, and mapped back on `prompts/get`. A resource keeps its URI (it is the resource's identity); a
 * URI two servers list is served from the first, and its name is prefixed with its server like a prompt.
 * A read goes to the server that listed the URI or whose template matches it; an unknown URI is the
 * protocol's resource-not-found error. With `subscriptions` (a 2025 session whose sources offer them),
 * `resources/subscribe` and `resources/unsubscribe` are served through them. With `rounds`, a source that asks for input while it reads a
 * resource or renders a prompt has its questions put to this request's caller (see `withInputRounds`).
 *
 * @example
 * serveMcpSources(server, toolkit)
 */
export function serveMcpSources(
  server: Server,
  toolkit: Toolkit,
  rounds?: RoundServing,
  subscriptions?: SessionSubscriptions,
): void {
  if (Object.keys(toolkit.mcpServers()).length === 0) return
  if (subscriptions !== undefined) {
    server.setRequestHandler('resources/subscribe', async (request) => {
      await subscriptions.subscribe(request.params.uri)
      return {}
    })
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      await subscriptions.unsubscribe(request.params.uri)
      return {}
    })
  }
  const list = (): Promise<Listed> => listSources(toolkit)
  server.setRequestHandler(
    'resources/list',
    async (): Promise<ListResourcesResult> => ({
      resources: [...(await list()).resources.values()].map(({ server: owner, ...resource }) => ({
        ...resource,
        name: joinToolName([owner, resource.name]),
      })),
    }),
  )
  server.setRequestHandler(
    'resources/templates/list',
    async (): Promise<ListResourceTemplatesResult> => ({
      resourceTemplates: (await list()).templates.map(({ template: { server: owner, ...template } }) => ({
        ...template,
        name: joinToolName([owner, template.name]),
      })),
    }),
  )
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params
    const owner = ownerIn(await list(), uri)
    if (owner === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.ResourceNotFound,
        `Resource not found: ${uri.slice(0, 200)}`,
        {
          uri,
        },
      )
    }
    return withInputRounds(rounds, ctx, { method: 'resources/read', args: { uri } }, async (inputRound) => {
      const read = await answered(() => toolkit.readResource(owner, uri, { inputRound }))
      return { contents: read.contents as ReadResourceResult['contents'] }
    })
  })
  server.setRequestHandler(
    'prompts/list',
    async (): Promise<ListPromptsResult> => ({
      prompts: [...(await list()).prompts].map(([name, { server: _owner, ...prompt }]) => ({
        ...prompt,
        name,
      })),
    }),
  )
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name } = request.params
    const prompt = (await list()).prompts.get(name)
    if (prompt === undefined) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt "${request.params.name.slice(0, 200)}".`,
      )
    }
    const args = stringsOf(request.params.arguments)
    const asked = { method: 'prompts/get' as const, args: { name, arguments: args } }
    return withInputRounds(rounds, ctx, asked, async (inputRound) => {
      const got = await answered(() => toolkit.getPrompt(prompt.server, prompt.name, args, { inputRound }))
      const result: GetPromptResult = { messages: got.messages as GetPromptResult['messages'] }
      if (got.description !== undefined) result.description = got.description
      return result
    })
  })
  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument, context } = request.params
    const listed = await list()
    const none = { completion: { values: [] } }
    const args = stringsOf(context?.arguments)
    const rest = Object.keys(args).length === 0 ? {} : { context: { arguments: args } }
    if (ref.type === 'ref/prompt') {
      const prompt = listed.prompts.get(ref.name)
      if (prompt === undefined) return none
      const completion = await answered(() =>
        toolkit.completeMcp(prompt.server, {
          ref: { type: 'ref/prompt', name: prompt.name },
          argument,
          ...rest,
        }),
      )
      return { completion: { ...completion } }
    }
    const owner = listed.templates.find(({ template }) => template.uriTemplate === ref.uri)?.template.server
    if (owner === undefined) return none
    const completion = await answered(() =>
      toolkit.completeMcp(owner, { ref: { type: 'ref/resource', uri: ref.uri }, argument, ...rest }),
    )
    return { completion: { ...completion } }
  })
}

/** One listing of every source's resources, templates and prompts (the first of a URI or name wins). */
async function listSources(toolkit: Toolkit): Promise<Listed> {
  const [resources, templates, prompts] = await Promise.all([
    toolkit.mcpResources(),
    toolkit.mcpResourceTemplates(),
    toolkit.mcpPrompts(),
  ])
  const listed: Listed = { resources: new Map(), templates: [], prompts: new Map() }
  for (const resource of resources) {
    if (!listed.resources.has(resource.uri)) listed.resources.set(resource.uri, resource)
  }
  for (const template of templates) {
    const match = templateOf(template.uriTemplate)
    if (match !== undefined) listed.templates.push({ template, match })
  }
  for (const prompt of prompts) {
    const name = joinToolName([prompt.server, prompt.name])
    if (!listed.prompts.has(name)) listed.prompts.set(name, prompt)
  }
  return listed
}

/**
 * The server a served resource URI comes from: the one that lists it, else the first whose template
 * matches it; `undefined` for a URI the toolkit does not serve.
 *
 * @example
 * const server = await resourceOwner(toolkit, 'test://static-text') // 'test'
 */
export async function resourceOwner(toolkit: Toolkit, uri: string): Promise<string | undefined> {
  return ownerIn(await listSources(toolkit), uri)
}

function ownerIn(listed: Listed, uri: string): string | undefined {
  return (
    listed.resources.get(uri)?.server ??
    listed.templates.find(({ match }) => match.match(uri) !== null)?.template.server
  )
}

/** A template's matcher; `undefined` for a template the SDK cannot parse (a server's bad data). */
function templateOf(uriTemplate: string): UriTemplate | undefined {
  try {
    return new UriTemplate(uriTemplate)
  } catch {
    return undefined
  }
}

/** The string-valued arguments of a request (prompt arguments are strings in MCP). */
function stringsOf(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {}
  const strings: Record<string, string> = {}
  for (const [key, each] of Object.entries(value)) if (typeof each === 'string') strings[key] = each
  return strings
}

/** A source's failure as the caller's JSON-RPC error, with the message the toolkit made safe to show. */
async function answered<Value>(run: () => Promise<Value>): Promise<Value> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof McpRequestError)
      throw new ProtocolError(ProtocolErrorCode.InternalError, error.message)
    throw error
  }
}
