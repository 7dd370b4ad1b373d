// An MCP server on the v2 SDK with what the conformance suite's reference server offers beyond plain
// tools: resources, a resource template, prompts (plain, with arguments, with an embedded resource, with
// an image), completions, a tool that logs, one that reports progress, one that answers with an embedded
// resource, one with mixed content, and tools, a prompt and a resource that ask the client for input
// (asking-tools.ts, input-required-tools.ts), and a resource to subscribe to (on 2026-07-28, through a
// subscriptions/listen stream). Named `test` in the gateway's mcp.json, so its tools and prompts
// are served as `test_<name>`: the names the suite calls.
import {
  type CallToolResult,
  type GetPromptResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerNotifier,
  createMcpHandler as sdkMcpHandler,
} from '@modelcontextprotocol/server'
import { ASKING_TOOLS, askingTool } from './asking-tools.js'
import {
  ASKING_PROMPT,
  ASKING_RESOURCE,
  askingPrompt,
  askingResource,
  INPUT_REQUIRED_TOOLS,
  inputRequiredTool,
} from './input-required-tools.js'
import { type FetchServer, serveFetch } from './serve-fetch.js'
import { RED_PIXEL } from './served-toolkit.js'

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

const NO_ARGS = { type: 'object' as const, properties: {} }
const TOOLS = [
  { name: 'tool_with_logging', description: 'Sends three log messages while it runs.', inputSchema: NO_ARGS },
  { name: 'tool_with_progress', description: 'Reports progress 0, 50 and 100 of 100.', inputSchema: NO_ARGS },
  { name: 'embedded_resource', description: 'Answers with an embedded resource.', inputSchema: NO_ARGS },
  {
    name: 'multiple_content_types',
    description: 'Answers with text, an image and a resource.',
    inputSchema: NO_ARGS,
  },
  { name: 'resource_link', description: 'Answers with a link to a resource.', inputSchema: NO_ARGS },
  ...ASKING_TOOLS,
  ...INPUT_REQUIRED_TOOLS,
]

const EMBEDDED = {
  type: 'resource' as const,
  resource: {
    uri: 'test://embedded-resource',
    mimeType: 'text/plain',
    text: 'This is an embedded resource content.',
  },
}

/** One source server instance (the SDK's handler makes one per request or session). */
export function createSourceServer(): Server {
  const server = new Server(
    { name: 'conformance-source', version: '1.0.0' },
    {
      capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, completions: {}, logging: {} },
    },
  )
  server.setRequestHandler('tools/list', () => ({ tools: TOOLS }))
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    switch (request.params.name) {
      case 'tool_with_logging':
        await ctx.mcpReq.log('info', 'Tool execution started')
        await wait(50)
        await ctx.mcpReq.log('info', 'Tool processing data')
        await wait(50)
        await ctx.mcpReq.log('info', 'Tool execution completed')
        return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] }
      case 'tool_with_progress': {
        const token = request.params._meta?.progressToken
        for (const progress of [0, 50, 100]) {
          if (token !== undefined) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress, total: 100 },
            })
          }
          if (progress < 100) await wait(50)
        }
        return { content: [{ type: 'text', text: 'Tool with progress executed successfully' }] }
      }
      case 'embedded_resource':
        return { content: [EMBEDDED] }
      case 'multiple_content_types':
        return {
          content: [
            { type: 'text', text: 'Multiple content types test:' },
            { type: 'image', data: RED_PIXEL, mimeType: 'image/png' },
            {
              type: 'resource',
              resource: {
                uri: 'test://mixed-content-resource',
                mimeType: 'application/json',
                text: '{"test":"data","value":123}',
              },
            },
          ],
        }
      case 'resource_link':
        return {
          content: [
            { type: 'resource_link', uri: 'test://static-text', name: 'static-text', mimeType: 'text/plain' },
          ],
        }
      default: {
        const asked =
          askingTool(request.params.name, request.params.arguments ?? {}, ctx) ??
          inputRequiredTool(request.params.name, ctx)
        if (asked !== undefined) return asked as CallToolResult
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${request.params.name}`)
      }
    }
  })
  server.setRequestHandler('resources/list', () => ({
    resources: [
      {
        uri: 'test://static-text',
        name: 'static-text',
        description: 'A static text resource',
        mimeType: 'text/plain',
      },
      {
        uri: 'test://static-binary',
        name: 'static-binary',
        description: 'A static PNG',
        mimeType: 'image/png',
      },
      {
        uri: 'test://watched-resource',
        name: 'watched-resource',
        description: 'A resource to subscribe to',
        mimeType: 'text/plain',
      },
      ASKING_RESOURCE,
    ],
  }))
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: [
      {
        uriTemplate: 'test://template/{id}/data',
        name: 'template',
        description: 'Data for one id',
        mimeType: 'application/json',
      },
    ],
  }))
  server.setRequestHandler('resources/read', (request, ctx) => {
    const { uri } = request.params
    const asked = askingResource(uri, ctx)
    if (asked !== undefined) return asked as never
    if (uri === 'test://static-text') {
      return {
        contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
      }
    }
    if (uri === 'test://watched-resource') {
      return { contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content.' }] }
    }
    if (uri === 'test://static-binary') return { contents: [{ uri, mimeType: 'image/png', blob: RED_PIXEL }] }
    const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1]
    if (id !== undefined) {
      const text = JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` })
      return { contents: [{ uri, mimeType: 'application/json', text }] }
    }
    throw new ProtocolError(ProtocolErrorCode.ResourceNotFound, `Resource not found: ${uri}`, { uri })
  })
  server.setRequestHandler('prompts/list', () => ({
    prompts: [
      { name: 'simple_prompt', description: 'A prompt without arguments' },
      {
        name: 'prompt_with_arguments',
        description: 'A prompt with two arguments',
        arguments: [
          { name: 'arg1', description: 'First test argument', required: true },
          { name: 'arg2', description: 'Second test argument', required: true },
        ],
      },
      {
        name: 'prompt_with_embedded_resource',
        description: 'A prompt that embeds a resource',
        arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
      },
      { name: 'prompt_with_image', description: 'A prompt with an image' },
      ASKING_PROMPT,
    ],
  }))
  server.setRequestHandler('prompts/get', (request, ctx): GetPromptResult => {
    const args = request.params.arguments ?? {}
    const asked = askingPrompt(request.params.name, ctx)
    if (asked !== undefined) return asked as GetPromptResult
    switch (request.params.name) {
      case 'simple_prompt':
        return {
          messages: [
            { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
          ],
        }
      case 'prompt_with_arguments':
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`,
              },
            },
          ],
        }
      case 'prompt_with_embedded_resource':
        return {
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: {
                  uri: String(args.resourceUri),
                  mimeType: 'text/plain',
                  text: 'Embedded resource content for testing.',
                },
              },
            },
            { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
          ],
        }
      case 'prompt_with_image':
        return {
          messages: [
            { role: 'user', content: { type: 'image', data: RED_PIXEL, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
          ],
        }
      default:
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt ${request.params.name}`)
    }
  })
  server.setRequestHandler('completion/complete', (request) => {
    const { argument } = request.params
    const values = ['paris', 'park', 'party', 'test-value'].filter((value) =>
      value.startsWith(argument.value),
    )
    return { completion: { values, total: values.length, hasMore: false } }
  })
  return server
}

/**
 * The source served over streamable HTTP on loopback (both eras, stateless 2025 serving), with what
 * publishes its changes to the 2026-07-28 clients listening (`notify.resourceUpdated(uri)`).
 */
export async function serveSource(): Promise<FetchServer & { notify: ServerNotifier }> {
  const handler = sdkMcpHandler(() => createSourceServer(), { legacy: 'stateless' })
  const served = await serveFetch((request) => handler.fetch(request))
  return {
    url: served.url,
    notify: handler.notify,
    close: () => handler.close().then(() => served.close()),
  }
}
