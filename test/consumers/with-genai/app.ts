// An app with @google/genai as well: the genai client's types meet the SDK's own, both ways.
import { type Content, GoogleGenAI } from '@google/genai'
import {
  createClient,
  createToolkit,
  defineTool,
  executeFunctionCalls,
  InMemoryConversationStore,
  toGenAITools,
} from 'toolnexus'
import { createChatHandler } from 'toolnexus/next'

const ping = defineTool({ name: 'ping', description: 'Answers pong', execute: () => 'pong' })
const genai = new GoogleGenAI({ apiKey: 'key', httpOptions: { apiVersion: 'v1beta' } })
const client = createClient({ genai, model: 'gemini-2.5-flash', store: new InMemoryConversationStore() })

export async function run(history: Content[]): Promise<Content[]> {
  await using toolkit = await createToolkit({ tools: [ping] })
  const result = await client.run('ping?', { toolkit, history })
  const contents: Content[] = result.messages
  const response = await genai.models.generateContent({
    model: 'gemini-2.5-flash',
    contents,
    config: { tools: toGenAITools(toolkit) },
  })
  contents.push(await executeFunctionCalls(toolkit, response))
  return contents
}

// The chat route over the genai client: its store holds the SDK's own Contents.
export const POST = createChatHandler({
  client,
  toolkit: () => createToolkit({ tools: [ping] }),
  store: new InMemoryConversationStore<Content>(),
  system: 'Be brief.',
})
