// What the tests of a tool name Gemini refuses share: a tool whose name starts with a digit beside one whose
// name Gemini takes, a script that calls both under the names they are declared under, and readers of what
// reached the scripted Google endpoint.
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { afterEach } from 'vitest'
import { defineTool } from '../../src/tool/define-tool.js'
import { googleProtocol } from './scripted-google.js'
import { type ScriptedServer, type ScriptStep, startScriptedServer } from './scripted-server.js'

export const onePassword = defineTool({
  name: '1password_get_item',
  description: 'Reads an item from the vault.',
  inputSchema: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
  execute: ({ item }) => `secret of ${item}`,
})

export const weather = defineTool({
  name: 'get_weather',
  description: 'Weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => `sunny in ${city}`,
})

/** The model calls both tools under the names Gemini was given, then answers `done`. */
export const CALLS_BOTH: ScriptStep[] = [
  {
    type: 'reply',
    toolCalls: [
      { id: 'ignored', name: '_1password_get_item', arguments: '{"item":"github"}' },
      { id: 'ignored', name: 'get_weather', arguments: '{"city":"Pune"}' },
    ],
  },
  { type: 'reply', text: 'done' },
]

/**
 * Starts scripted Google endpoints for the calling test file (each answers 400 for a name Gemini refuses);
 * every one a test started is closed after it, whether it passed or not.
 */
export function googleEndpoints(): (script?: ScriptStep[]) => Promise<ScriptedServer> {
  const servers: ScriptedServer[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })
  return async (script = CALLS_BOTH) => {
    const server = await startScriptedServer({ protocol: googleProtocol, script })
    servers.push(server)
    return server
  }
}

/** An `@ai-sdk/google` model over the scripted endpoint. */
export function googleModel(server: ScriptedServer) {
  return createGoogleGenerativeAI({ baseURL: server.url, apiKey: 'test-key' })('gemini-2.5-flash')
}

/** The function names a request declared, in order. */
export function declaredNames(server: ScriptedServer, request: number): string[] {
  const tools: Array<{ functionDeclarations?: Array<{ name: string }> }> =
    server.requests[request]?.body.tools ?? []
  return tools.flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name))
}

type Part = { functionCall?: { name: string }; functionResponse?: { name: string } }

/** Every function name in a request's history, in order. */
export function historyNames(server: ScriptedServer, request: number): string[] {
  const contents: Array<{ parts: Part[] }> = server.requests[request]?.body.contents ?? []
  return contents.flatMap((content) =>
    content.parts.flatMap((part) => {
      const name = part.functionCall?.name ?? part.functionResponse?.name
      return name === undefined ? [] : [name]
    }),
  )
}
