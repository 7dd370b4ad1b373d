// Type tests of createChatHandler with each client: checked by `npm run typecheck` (tsc), never run.
import { GoogleGenAI } from '@google/genai'
import type { ModelMessage } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { expectTypeOf } from 'vitest'
import {
  type ConversationStore,
  createClient,
  type GenAIMessage,
  InMemoryConversationStore,
  type RunEvent,
} from '../../src/index.js'
import { type ChatClient, type ChatHandlerOptions, createChatHandler } from '../../src/next/index.js'
import { createPostgresStore } from '../../src/postgres/index.js'
import { createRedisStore } from '../../src/redis/index.js'

const genaiClient = createClient({ genai: new GoogleGenAI({ apiKey: 'key' }), model: 'gemini-2.5-flash' })
const aiClient = createClient({ model: new MockLanguageModelV4() })

// A genai client: both modes, no cast; its store holds Gemini Contents.
expectTypeOf(createChatHandler({ client: genaiClient, secret: 'x'.repeat(32) })).toEqualTypeOf<
  (request: Request) => Promise<Response>
>()
createChatHandler({
  client: genaiClient,
  store: new InMemoryConversationStore<GenAIMessage>(),
  system: 'Be brief.',
})
expectTypeOf(genaiClient).toMatchTypeOf<ChatClient<GenAIMessage>>()
expectTypeOf({ client: genaiClient, store: new InMemoryConversationStore<GenAIMessage>() }).toMatchTypeOf<
  ChatHandlerOptions<GenAIMessage>
>()

// …and refuses a store of AI SDK messages (or the other way round).
// @ts-expect-error a genai client's conversations are Gemini Contents, not ModelMessages
createChatHandler({ client: genaiClient, store: new InMemoryConversationStore<ModelMessage>() })
// @ts-expect-error an AI SDK client's conversations are ModelMessages
createChatHandler({ client: aiClient, store: new InMemoryConversationStore<GenAIMessage>() })
expectTypeOf({ client: genaiClient, store: new InMemoryConversationStore<ModelMessage>() }).not.toMatchTypeOf<
  ChatHandlerOptions<GenAIMessage>
>()

// The AI SDK client, and a hand-written AI SDK client without userMessage, as before.
createChatHandler({ client: aiClient, store: new InMemoryConversationStore<ModelMessage>() })
createChatHandler({
  client: {
    async *stream(messages: ModelMessage[]): AsyncIterable<RunEvent<ModelMessage>> {
      yield { type: 'text-delta', text: String(messages.length) }
    },
  },
})

// A hand-written client of Gemini Contents must say how to build a user message.
const genaiStream = (messages: GenAIMessage[]) => genaiClient.stream(messages)
// @ts-expect-error userMessage is missing: the handler could not build the browser's messages
createChatHandler({ client: { stream: genaiStream } })
createChatHandler({ client: { stream: genaiStream, userMessage: (parts) => genaiClient.userMessage(parts) } })
// As before, an AI SDK client's store may leave its message type to inference.
createChatHandler({ client: aiClient, store: new InMemoryConversationStore() })

// A store typed as the interface (the example app's), and the database stores, whose methods are generic.
declare const modelStore: ConversationStore<ModelMessage>
createChatHandler({ client: aiClient, store: modelStore })
createChatHandler({ client: genaiClient, store: createRedisStore({ url: 'redis://127.0.0.1:6379' }) })
createChatHandler({
  client: genaiClient,
  store: createPostgresStore({ connectionString: 'postgres://127.0.0.1/db' }),
})

// Each client builds a person's message in its own type.
expectTypeOf(genaiClient.userMessage).returns.resolves.toEqualTypeOf<GenAIMessage>()
expectTypeOf(aiClient.userMessage).returns.resolves.toEqualTypeOf<ModelMessage>()
