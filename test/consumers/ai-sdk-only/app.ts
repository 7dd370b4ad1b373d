// An app with the AI SDK and no @google/genai: toolnexus's declarations must compile here with
// skipLibCheck off.
import { openai } from '@ai-sdk/openai'
import type { ModelMessage } from 'ai'
import {
  AbortError,
  createClient,
  createToolkit,
  defineTool,
  InMemoryConversationStore,
  type RunResult,
  type Toolkit,
} from 'toolnexus'
import type { DbosRunner } from 'toolnexus/dbos'
import { createChatHandler } from 'toolnexus/next'
import { z } from 'zod'

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
})

const client = createClient({ model: openai('gpt-5-mini'), store: new InMemoryConversationStore() })
let toolkit: Promise<Toolkit> | undefined
export const POST = createChatHandler({
  client,
  toolkit: () => (toolkit ??= createToolkit({ tools: [weather] })),
})
export const STORED_POST = createChatHandler({ client, store: new InMemoryConversationStore<ModelMessage>() })

export async function ask(question: string): Promise<RunResult<ModelMessage> | undefined> {
  try {
    return await client.run(question, { toolkit: await createToolkit({ tools: [weather] }) })
  } catch (error) {
    if (AbortError.isInstance(error)) return undefined
    throw error
  }
}

// Durable runs: the DBOS runner's declarations compile without @dbos-inc/dbos-sdk installed.
export async function durableRun(durable: DbosRunner, toolkit: Toolkit): Promise<string> {
  const client = createClient({ model: openai('gpt-5-mini'), durable })
  const result = await client.run('Refund order 42', { toolkit, runId: 'order-42' })
  return result.text
}
