// A CommonJS app (require): the `require` condition's declarations (index.d.cts, next.d.cts). `ai` 7 is
// ESM only, so this is the Node 20.19+/22 module mode, where require() loads an ES module.
import { openai } from '@ai-sdk/openai'
import { ConfigError, createClient, createToolkit, defineTool } from 'toolnexus'
import { createChatHandler } from 'toolnexus/next'

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => String(a + b),
})

export const POST = createChatHandler({
  client: createClient({ model: openai('gpt-5-mini') }),
  toolkit: () => createToolkit({ tools: [add] }),
})

export function isConfigError(error: unknown): boolean {
  return ConfigError.isInstance(error)
}
