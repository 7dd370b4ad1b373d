import type { Tool as McpTool } from '@modelcontextprotocol/client'
import { McpRequestError } from '../errors.js'
import { didYouMean, listNames } from '../shared/did-you-mean.js'
import { isRecord } from '../shared/is-record.js'
import type { Logger } from '../shared/logger.js'
import { joinToolName } from '../tool/names.js'
import { errorMessage, errorResult } from '../tool/tool-result.js'
import type { JSONSchema, Tool, ToolLogEntry, ToolServer } from '../tool/types.js'
import type { ConnectionOptions } from './connection-options.js'
import type { McpConfig } from './mcp-config.js'
import { McpServerConnection } from './mcp-server-connection.js'
import type { ToolFilter } from './mcp-server-plan.js'
import type {
  McpCompletion,
  McpPrompt,
  McpPromptMessages,
  McpResource,
  McpResourceContents,
  McpResourceTemplate,
  McpServerInfo,
  McpSource,
} from './mcp-source.js'
import type { OAuthOptions } from './oauth-options.js'
import { readMcpConfig } from './read-mcp-config.js'
import { resourceAndPromptTools } from './resource-and-prompt-tools.js'
import { infoOf } from './server-info.js'
import { memoryTokenStore } from './toolkit-oauth-provider.js'

// How each server's questions are answered: the host's handler, its modes, a gateway's callers.
type AnsweringOptions = Pick<ConnectionOptions, 'onElicitation' | 'elicitationModes' | 'forwardInput'>

/**
 * How the MCP source loads: where warnings go, how elicitation is answered, and whether each server's
 * resources and prompts become tools too.
 *
 * @example
 * const options: McpSourceOptions = { logger: console, exposeResources: true }
 */
export interface McpSourceOptions extends AnsweringOptions {
  logger: Logger
  /** Adds `<server>_list_resources` and `<server>_read_resource` for servers that offer resources. */
  exposeResources?: boolean
  /** Adds `<server>_get_prompt` for servers that offer prompts. */
  exposePrompts?: boolean
  /** The host's OAuth pieces, for servers whose entry has `auth`. */
  oauth?: OAuthOptions
  /** Environment variables whose values are secrets besides those whose names mark one. */
  secretNames?: readonly string[]
}

/** One server of the config, as loading left it. */
type LoadedServer =
  | { kind: 'skipped'; name: string; info: McpServerInfo }
  | {
      kind: 'connection'
      name: string
      connection: McpServerConnection
      tools: Tool[]
      // The log listeners of the calls running now: a server's log message goes to each (a log
      // notification names no request, so the calls in flight when it arrives are the ones it is about).
      listening: Set<(entry: ToolLogEntry) => void>
    }

type ConnectedServer = Extract<LoadedServer, { kind: 'connection' }>

/**
 * Loads every server of an `mcp.json` (a path, relative to the working directory, or the parsed object):
 * connects them in parallel, lists their tools and exposes each as `<server>_<tool>`. A server that is
 * disabled, misconfigured or fails to start is reported by `servers()` and a warning; the others load.
 * A server that announces `notifications/tools/list_changed` is listed again, and `tools()` changes.
 * Throws a `ConfigError` only when the config as a whole cannot be read.
 *
 * @example
 * const source = await loadMcpSource('./mcp.json', { logger: console })
 * source.tools().map((tool) => tool.name) // ['everything_echo', …]
 * source.servers()                        // { everything: { status: 'connected', tools: [...] } }
 * await source.close()
 */
export async function loadMcpSource(
  config: string | McpConfig,
  options: McpSourceOptions,
): Promise<McpSource> {
  const { logger } = options
  const parsed = await readMcpConfig(config, { secretNames: options.secretNames ?? [] })
  const configured = parsed.servers.flatMap((plan) => ('secrets' in plan ? plan.secrets : []))
  for (const warning of parsed.warnings) logger.warn(warning)
  const listeners: Array<() => void> = []
  const tokenStore = options.oauth?.tokenStore ?? memoryTokenStore()
  let all: Tool[] = []
  const servers: LoadedServer[] = parsed.servers.map((plan) => {
    switch (plan.kind) {
      case 'disabled':
        return {
          kind: 'skipped',
          name: plan.name,
          info: { status: 'disabled', reason: plan.reason, tools: [] },
        }
      case 'invalid':
        logger.warn(`MCP server "${plan.name}" was not started: ${plan.reason}.`)
        return {
          kind: 'skipped',
          name: plan.name,
          info: { status: 'failed', reason: plan.reason, tools: [] },
        }
      case 'stdio':
      case 'remote': {
        const server: ConnectedServer = {
          kind: 'connection',
          name: plan.name,
          connection: undefined as unknown as McpServerConnection,
          tools: [],
          listening: new Set(),
        }
        server.connection = new McpServerConnection(plan, {
          onLog: (entry) => {
            for (const listener of server.listening) listener(entry)
          },
          ...(options.onElicitation !== undefined && { onElicitation: options.onElicitation }),
          ...(options.elicitationModes !== undefined && { elicitationModes: options.elicitationModes }),
          forwardInput: options.forwardInput === true,
          onWarning: (message) => logger.warn(message),
          ...(options.oauth !== undefined && { oauth: options.oauth }),
          tokenStore,
          onToolsChanged: (listed) => {
            server.tools = exposedTools(server, listed, plan.tools, options)
            all = collect()
            for (const listener of listeners) listener()
          },
        })
        return server
      }
      default:
        return plan satisfies never
    }
  })
  const connected = servers.filter((server): server is ConnectedServer => server.kind === 'connection')
  const collect = (): Tool[] => connected.flatMap((server) => server.tools)
  await Promise.all(
    connected.map(async (server) => {
      try {
        const started = performance.now()
        const listed = await server.connection.open()
        server.tools = exposedTools(server, listed, server.connection.plan.tools, options)
        const state = server.connection.state
        const transport = state.status === 'connected' ? ` over ${state.transport}` : ''
        logger.info?.(
          `connected ${server.name}: ${server.tools.length} tools in ${Math.round(performance.now() - started)} ms${transport}`,
        )
      } catch (error) {
        logger.warn(`MCP server "${server.name}" failed: ${errorMessage(error)}`)
      }
    }),
  )
  all = collect()
  const byName = (name: string, method: string): McpServerConnection => {
    const server = connected.find((each) => each.name === name)
    if (server === undefined) {
      const known = connected.map((each) => `"${each.name}"`).join(', ') || '(none)'
      throw new McpRequestError(`No connected MCP server is named "${name}"; servers: ${known}.`, {
        server: name,
        method,
      })
    }
    return server.connection
  }
  // Lists span every server; one that fails is left out with a warning rather than failing the list.
  const fromEach = async <Item>(
    what: string,
    list: (server: ConnectedServer) => Promise<Item[]>,
  ): Promise<Item[]> => {
    const settled = await Promise.allSettled(
      connected.filter((server) => server.connection.state.status !== 'closed').map(list),
    )
    return settled.flatMap((outcome) => {
      if (outcome.status === 'fulfilled') return outcome.value
      logger.warn(`Listing ${what} skipped a server: ${errorMessage(outcome.reason)}`)
      return []
    })
  }
  let closing: Promise<void> | undefined
  return {
    tools: () => all,
    onToolsChanged: (listener) => {
      listeners.push(listener)
    },
    secrets: () => [
      ...configured,
      ...servers.flatMap((server) => (server.kind === 'connection' ? server.connection.secrets : [])),
    ],
    servers: () => Object.fromEntries(servers.map((server) => [server.name, infoOf(server)])),
    resources: () =>
      fromEach('resources', async (server) =>
        (await server.connection.listResources()).map((resource) => resourceOf(server.name, resource)),
      ),
    resourceTemplates: () =>
      fromEach('resource templates', async (server) =>
        (await server.connection.listResourceTemplates()).map(
          (template): McpResourceTemplate =>
            definedOnly({
              server: server.name,
              uriTemplate: template.uriTemplate,
              name: template.name,
              title: template.title,
              description: template.description,
              mimeType: template.mimeType,
            }),
        ),
      ),
    async readResource(server, uri, options): Promise<McpResourceContents> {
      const result = await byName(server, 'resources/read').readResource(uri, options?.inputRound)
      return { server, uri, contents: result.contents }
    },
    subscribeResource: (server, uri, listener) =>
      byName(server, 'resources/subscribe').subscribeResource(uri, listener),
    prompts: () =>
      fromEach('prompts', async (server) =>
        (await server.connection.listPrompts()).map(
          (prompt): McpPrompt =>
            definedOnly({
              server: server.name,
              name: prompt.name,
              title: prompt.title,
              description: prompt.description,
              arguments: (prompt.arguments ?? []).map((argument) => definedOnly({ ...argument })),
            }),
        ),
      ),
    async getPrompt(server, name, args = {}, options): Promise<McpPromptMessages> {
      const result = await byName(server, 'prompts/get').getPrompt(name, args, options?.inputRound)
      return definedOnly({
        server,
        name,
        description: result.description,
        messages: result.messages as McpPromptMessages['messages'],
      })
    },
    async complete(server, request): Promise<McpCompletion> {
      const { completion } = await byName(server, 'completion/complete').complete(request)
      return definedOnly({
        values: completion.values.filter((value) => typeof value === 'string').slice(0, 100),
        total: completion.total,
        hasMore: completion.hasMore,
      })
    },
    fetchTask(task, context) {
      const server = connected.find((each) => each.name === task.server)
      if (server !== undefined) return server.connection.fetchTask(task.tool, task.taskId, context)
      return Promise.resolve(
        errorResult(
          `No MCP server "${task.server}" in this toolkit: the result of its task was not fetched.`,
        ),
      )
    },
    close() {
      closing ??= Promise.all(connected.map((server) => server.connection.close())).then(() => undefined)
      return closing
    },
  }
}

/**
 * A server's list, filtered by its `tools` map, as exposed tools, plus its resource and prompt tools
 * when asked for and offered.
 */
function exposedTools(
  server: ConnectedServer,
  listed: readonly McpTool[],
  filter: ToolFilter,
  options: McpSourceOptions,
): Tool[] {
  const { connection } = server
  const tools = toTools(server, listed, filter, options.logger)
  const capabilities = connection.capabilities
  const extra = resourceAndPromptTools(connection, {
    resources: options.exposeResources === true && capabilities?.resources !== undefined,
    prompts: options.exposePrompts === true && capabilities?.prompts !== undefined,
  })
  const taken = new Set(tools.map((tool) => tool.name))
  for (const tool of extra) {
    if (taken.has(tool.name)) {
      options.logger.warn(
        `MCP server "${connection.name}": its own tool is named "${tool.name}"; kept it, dropped the resource/prompt tool.`,
      )
      continue
    }
    tools.push(tool)
  }
  return tools
}

function toTools(
  loaded: ConnectedServer,
  listed: readonly McpTool[],
  filter: ToolFilter,
  logger: Logger,
): Tool[] {
  const { connection, listening } = loaded
  const server = connection.name
  const offered = new Set(listed.map((tool) => tool.name))
  for (const name of [...(filter.allow ?? []), ...filter.drop]) {
    if (offered.has(name)) continue
    const guess = didYouMean(name, offered)
    logger.warn(
      `MCP server "${server}" has no tool "${name}" (named in its "tools").${guess === undefined ? '' : ` Did you mean "${guess}"?`} It offers ${listNames([...offered])}.`,
    )
  }
  if (
    filter.allow !== undefined &&
    listed.length > 0 &&
    !listed.some((tool) => filter.allow?.has(tool.name))
  ) {
    logger.warn(`MCP server "${server}" loads no tools: its "tools" allows none of the tools it offers.`)
  }
  const byExposedName = new Map<string, string>()
  const tools: Tool[] = []
  for (const tool of listed) {
    if (filter.drop.has(tool.name) || (filter.allow !== undefined && !filter.allow.has(tool.name))) continue
    const name = joinToolName([server, tool.name])
    const first = byExposedName.get(name)
    if (first !== undefined) {
      logger.warn(
        `MCP server "${server}": tools "${first}" and "${tool.name}" are both exposed as "${name}"; kept "${first}".`,
      )
      continue
    }
    byExposedName.set(name, tool.name)
    tools.push({
      name,
      description: tool.description ?? tool.title ?? '',
      inputSchema: objectRootSchema(tool.inputSchema),
      source: 'mcp',
      server: describedServer(server, connection.description),
      // Kept for the toolkit's approval policy (`approval: { mcp: 'destructive' }`).
      ...(isRecord(tool.annotations) && { annotations: { ...tool.annotations } }),
      // The server knows the tool by its own name, not the exposed one.
      execute: (args, context) => {
        const onLog = context?.onLog
        if (onLog === undefined) return connection.call(tool.name, args, context)
        listening.add(onLog)
        return connection.call(tool.name, args, context).finally(() => listening.delete(onLog))
      },
    })
  }
  return tools
}

function describedServer(name: string, description: string | undefined): ToolServer {
  return description === undefined ? { name } : { name, description }
}

/** The server's input schema with the object root every provider expects (and `properties`, which OpenAI wants). */
function objectRootSchema(schema: McpTool['inputSchema'] | undefined): JSONSchema {
  const copy: JSONSchema = { ...(schema ?? {}) }
  copy.type = 'object'
  copy.properties ??= {}
  return copy
}

function resourceOf(
  server: string,
  resource: Awaited<ReturnType<McpServerConnection['listResources']>>[number],
): McpResource {
  return definedOnly({
    server,
    uri: resource.uri,
    name: resource.name,
    title: resource.title,
    description: resource.description,
    mimeType: resource.mimeType,
    size: resource.size,
  })
}

/** The object without its `undefined` properties (the public types use exact optional properties). */
function definedOnly<Value extends object>(value: { [Key in keyof Value]: Value[Key] | undefined }): Value {
  for (const key of Object.keys(value) as Array<keyof Value>) if (value[key] === undefined) delete value[key]
  return value as Value
}
