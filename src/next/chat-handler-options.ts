import type { ModelMessage } from 'ai'
import type { ResumeOptions, RunEvent, RunOptions, RunState } from '../contracts/run-types.js'
import type { UserContentPart } from '../conversation/user-message.js'
import type { Awaitable } from '../shared/awaitable.js'
import type { ClaimStore } from '../shared/claim-store.js'
import type { Logger } from '../shared/logger.js'
import type { ConversationRecord, ConversationStore } from '../stores/conversation-store.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import type { ChatLimits } from './read-chat-request.js'

/** How a chat client runs a conversation in its message type. */
interface ChatClientRuns<Message> {
  /** Runs the conversation; `options` carries the handler's `toolkit`, `system` and the request's `signal`. */
  stream(messages: Message[], options: RunOptions<Message>): AsyncIterable<RunEvent<Message>>
  /** Goes on with a suspended run (tools that need approval): the request after `addToolApprovalResponse`. */
  resumeStream?(state: RunState, options: ResumeOptions<Message>): AsyncIterable<RunEvent<Message>>
}

/**
 * Builds a person's message (text and files, from the browser) in the client's message type.
 *
 * @example
 * const userMessage: ChatUserMessage<GenAIMessage> = (parts) => client.userMessage(parts)
 */
export type ChatUserMessage<Message> = (parts: UserContentPart[]) => Awaitable<Message>

/**
 * What the handler needs of a client: any `createClient(...)` is one, over an AI SDK model
 * (`ChatClient<ModelMessage>`) or `@google/genai` (`ChatClient<GenAIMessage>`). A hand-written one needs
 * `userMessage` (which builds the browser's messages) unless it speaks AI SDK `ModelMessage`s: without
 * it, the handler builds them with the AI SDK's `convertToModelMessages`.
 *
 * @example
 * const client: ChatClient = createClient({ model: openai('gpt-5-mini') })
 * const gemini: ChatClient<GenAIMessage> = createClient({ genai: new GoogleGenAI({ apiKey }), model: 'gemini-2.5-flash' })
 */
export type ChatClient<Message = ModelMessage> = ChatClientRuns<Message> &
  ([Message] extends [ModelMessage]
    ? { userMessage?: ChatUserMessage<Message> }
    : { userMessage: ChatUserMessage<Message> })

/**
 * A store of exactly the client's message type. (A `ConversationStore`'s `save` is a method, which
 * TypeScript checks loosely: a store of AI SDK messages would pass for one of Gemini `Content`s.)
 *
 * @example
 * const store: ChatStore<GenAIMessage> = new InMemoryConversationStore<GenAIMessage>()
 */
export type ChatStore<Message> = ConversationStore<Message> & {
  save: (id: string, record: ConversationRecord<Message>, expectedVersion: number) => Awaitable<boolean>
}

/**
 * The toolkit, or a way to get it: a promise, or a function called on each request.
 *
 * @example
 * let shared: Promise<Toolkit> | undefined
 * const toolkit: ToolkitSource = () => (shared ??= createToolkit({ mcpConfig: 'mcp.json' }))
 */
export type ToolkitSource =
  | Toolkit
  | PromiseLike<Toolkit>
  | ((request: Request) => Toolkit | PromiseLike<Toolkit>)

/** What both modes take. */
interface CommonChatHandlerOptions<Message = ModelMessage> {
  /** Runs the conversation: `createClient({ model })`, or `createClient({ genai, model })`. */
  client: ChatClient<Message>
  /**
   * The tools. A function is called on every request (return a cached promise to share one toolkit, or
   * build one per user from the request); it keeps `next build` from starting MCP servers at import.
   */
  toolkit?: ToolkitSource
  /**
   * The system prompt of every run, after the client's own `system` (a blank line apart): the AI SDK
   * client sends it as the system message, the genai client as `systemInstruction`.
   */
  system?: string
  /** The text the browser sees when the run fails. Default: the error's message. */
  onError?: (error: unknown) => string
  /**
   * How much one request (and, in store mode, one conversation) may carry, and how long its body may take.
   * @default { bodyBytes: 4_000_000, bodyTimeoutMs: 30_000, messages: 1_000, parts: 10_000, fileBytes: 10_000_000, conversationBytes: 16_000_000, conversationMessages: 10_000 }
   */
  limits?: ChatLimits
  /** Where the handler warns (a history whose signatures do not verify, a store that failed). @default console */
  logger?: Logger
}

/**
 * Store mode: the server owns the transcript. It loads the conversation by the chat `id`, takes only the
 * new user message from the body (the last one; a client may send only that one, as `{ id, message }`)
 * and saves the conversation back, so any instance sharing the store can continue it.
 */
export interface StoreChatHandlerOptions<Message = ModelMessage> extends CommonChatHandlerOptions<Message> {
  /**
   * Where conversations live: one shared store (Redis, Postgres) for N instances. It holds the client's
   * messages: a `ConversationStore<GenAIMessage>` for a genai client.
   */
  store: ChatStore<NoInfer<Message>>
  /**
   * The store key of a request's conversation. The chat id comes from the browser: scope it to the
   * signed-in user here, or anyone who learns an id can continue (and read through the model) that
   * conversation. @default the chat id
   *
   * @example
   * conversationId: async ({ id, request }) => `${(await auth(request)).userId}:${id}`
   */
  conversationId?: (context: { id: string; request: Request }) => Awaitable<string>
  secret?: undefined
  /** Store mode claims an answered run in the store itself (a compare-and-set). */
  claims?: undefined
  approvalTtlSeconds?: undefined
}

/**
 * Signed stateless mode: the browser keeps the transcript, and every answer the server streams carries
 * its model messages signed with `secret`; assistant messages that do not carry a valid signature never
 * reach the model.
 */
export interface SignedChatHandlerOptions<Message = ModelMessage> extends CommonChatHandlerOptions<Message> {
  store?: undefined
  conversationId?: undefined
  /**
   * The HMAC key, at least 32 characters (`openssl rand -base64 32`). Omitted: a random one made once per
   * process, so one instance works with no configuration; N instances (or a restart that should keep
   * conversations going) need the same `secret`, and `claims`.
   */
  secret?: string
  /**
   * Where an answered run is claimed before anything of it runs, shared by every instance that shares the
   * `secret`: the first answer wins (approve or deny), a later one is refused and nothing runs. Needed
   * with a `secret` once a tool needs approval (without it the first suspension is a `ConfigError`).
   * @default one guard for the whole process (enough for one instance without a `secret`)
   * @example
   * createChatHandler({ client, toolkit, secret: process.env.CHAT_SECRET, claims: createRedisStore({ url }) })
   */
  claims?: ClaimStore
  /** Seconds a signed run waits for its answer; then it is refused. @default 900 */
  approvalTtlSeconds?: number
}

/**
 * What `createChatHandler` takes: `store` for store mode, else the signed stateless mode.
 *
 * @example
 * const options: ChatHandlerOptions = { client, toolkit: getToolkit, system: 'Answer in French.', secret: process.env.CHAT_SECRET }
 */
export type ChatHandlerOptions<Message = ModelMessage> =
  | StoreChatHandlerOptions<Message>
  | SignedChatHandlerOptions<Message>

/**
 * The route's `POST`: a `Request` in, the UI message stream (or a JSON `{ error }`) out.
 *
 * @example
 * export const POST: ChatHandler = createChatHandler({ client, toolkit })
 */
export type ChatHandler = (request: Request) => Promise<Response>
