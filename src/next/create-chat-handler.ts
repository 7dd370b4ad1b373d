// The drop-in `POST` for a Next.js App Router route that `useChat` talks to. Web APIs and `ai` only: the
// same handler runs on the Node and the edge runtime.
//
// It faces browsers, so it trusts no history a client sends. Two modes:
// - store mode (`store`): the server keeps the transcript by chat id; a request adds only its new user
//   message, whatever else the body carries;
// - signed stateless mode (no store): every answer streamed ends with its own model messages, signed
//   (HMAC-SHA256, `secret`); on the next request an assistant message counts only through that signed
//   transcript, and one without a valid signature is left out.
// In both, client `system` messages are dropped and client `providerMetadata` never reaches a provider.
//
// Generic over the client's message type: AI SDK `ModelMessage`s, or Gemini `Content`s for a
// `@google/genai` client. The client builds each user message (`client.userMessage`); the handler's
// `system` goes to the run as its `system` option, so Gemini gets it as `systemInstruction`.
import type { ModelMessage, UIMessage } from 'ai'
import {
  type ApprovalGuard,
  createApprovalGuard,
  readApprovalTtl,
  vouchFor,
} from '../approvals/approval-guard.js'
import { readClaimStore } from '../approvals/claim-store.js'
import { checkApprovals } from '../approvals/run-state.js'
import { RUN_METADATA_KEY, readSignedSuspension, signSuspension } from '../approvals/signed-run.js'
import { toStoredSuspension } from '../approvals/stored-suspension.js'
import { toModelUserMessage, type UserContentPart } from '../client/user-message.js'
import { callStore } from '../conversation/call-store.js'
import { claimStoredRun } from '../conversation/claim-stored-run.js'
import { saveTurn } from '../conversation/save-turn.js'
import { ApprovalError, ConfigError, StoreError } from '../errors.js'
import type {
  ApprovalResponse,
  ResumeOptions,
  RunEvent,
  RunOptions,
  RunResult,
  RunState,
} from '../loop/types.js'
import type { Awaitable } from '../shared/awaitable.js'
import type { ClaimStore } from '../shared/claim-store.js'
import { createHmacSigner, MIN_SECRET_LENGTH, type Signer } from '../shared/hmac-signer.js'
import { isRecord } from '../shared/is-record.js'
import { consoleLogger, type Logger } from '../shared/logger.js'
import type { ConversationRecord, ConversationStore } from '../stores/conversation-store.js'
import { quoteId } from '../stores/quote-id.js'
import { errorMessage } from '../tool/tool-result.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { toUIMessageStreamResponse } from '../ui/to-ui-message-stream.js'
import { conversationOverCap } from './conversation-caps.js'
import { readApprovalAnswers } from './read-approval-answers.js'
import {
  type ChatLimits,
  type ChatRequest,
  type ResolvedChatLimits,
  readChatLimits,
  readChatRequest,
} from './read-chat-request.js'
import { readUserContent } from './read-user-content.js'
import { ANSWER_METADATA_KEY, readSignedAnswer, signAnswer } from './signed-answer.js'

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

/** Saves of one question that keep losing the race to other instances before the handler gives up. */
const MAX_SAVE_ATTEMPTS = 10

/** The longest conversation id the store mode takes. */
const MAX_ID_LENGTH = 256

/** The random key of handlers given no `secret`: one per process, so its handlers agree. */
let processSigner: Signer | undefined

/** How a request's transcript is built, and what is kept when its run finishes. */
interface Conversation<Message> {
  /** What the model sees before the run (the handler's `system` goes separately). */
  messages: Message[]
  /** Called with the run's new model messages and its result; returns the answer's metadata. */
  finish(added: Message[], result: RunResult<Message>): Promise<Record<string, unknown> | undefined>
}

/** A suspended run a request's approval answers go on with, and what is kept when it finishes. */
interface Resumption<Message> {
  state: RunState
  /** Called with the resumed run's result; returns the answer's metadata. */
  finish(result: RunResult<Message>): Promise<Record<string, unknown> | undefined>
}

/** A browser's user message in the client's message type (none when it has no text or file), or why not. */
type UserMessages<Message> = (message: UIMessage) => Promise<Message[] | string>

/**
 * Makes the `POST` handler of a chat route: reads `useChat`'s body within `limits`, builds the
 * transcript the model sees — from the `store` by chat id (store mode), or from the client's history
 * where only user messages and the assistant answers this server signed count (signed stateless mode) —
 * runs `client.stream` with the toolkit and `system`, and answers with the AI SDK UI message stream. A
 * body that is not `useChat`'s gets a 400 (413 when too large) with a JSON `{ error }` saying what is
 * wrong; a client that disconnects aborts the run.
 *
 * Works with both clients, in their own message types: over an AI SDK model the transcript is
 * `ModelMessage`s; with `createClient({ genai, model })` it is Gemini `Content`s (thought signatures
 * kept), the browser's files become `inlineData` / `fileData` parts, `system` reaches Gemini as
 * `systemInstruction`, and a store holds `GenAIMessage`s.
 *
 * @example
 * // app/api/chat/route.ts
 * import { createClient, createToolkit, type Toolkit } from 'toolnexus'
 * import { createChatHandler } from 'toolnexus/next'
 * // Made on the first request, not at import: `next build` imports the route, and would start the MCP servers.
 * let toolkit: Promise<Toolkit> | undefined
 * export const POST = createChatHandler({
 *   client: createClient({ model: 'openai/gpt-5-mini' }),
 *   toolkit: () => (toolkit ??= createToolkit({ mcpConfig: 'mcp.json' })),
 *   secret: process.env.CHAT_SECRET,
 * })
 */
export function createChatHandler(options: ChatHandlerOptions<ModelMessage>): ChatHandler
/**
 * The handler for a client of any message type: a genai client's (Gemini `Content`s, its store a
 * `ConversationStore<GenAIMessage>`), or a hand-written `ChatClient<Message>` with its `userMessage`.
 *
 * @example
 * export const POST = createChatHandler({ client: createClient({ genai, model: 'gemini-2.5-flash' }), toolkit })
 */
export function createChatHandler<Message>(options: ChatHandlerOptions<Message>): ChatHandler
export function createChatHandler<Message>(options: ChatHandlerOptions<Message>): ChatHandler {
  if (typeof options !== 'object' || options === null || typeof options.client?.stream !== 'function') {
    throw new ConfigError(
      'createChatHandler needs { client }, a client from createClient({ model }), like createChatHandler({ client, toolkit }).',
    )
  }
  const { client, system, onError, logger = consoleLogger } = options
  if (system !== undefined && typeof system !== 'string') {
    throw new ConfigError('`system` must be a string (the system prompt).', { field: 'system' })
  }
  const limits = readChatLimits(options.limits)
  const mode = forFormat(readMode(options), client)
  const userMessages = readUserMessages(client)

  return async (request) => {
    const reading = await readChatRequest(request, limits)
    if (!reading.ok) return jsonError(reading.status, reading.error)
    const chat = reading.request
    const last = chat.messages.at(-1)
    // The request `useChat` sends after `addToolApprovalResponse`: the answered assistant message last.
    const approvals = last?.role === 'assistant' ? readApprovalAnswers(last) : []
    if (last?.role !== 'user' && approvals.length === 0) {
      return jsonError(
        400,
        `The last message must be the user's (role "user"), not ${JSON.stringify(last?.role)}: it is what the model answers.`,
      )
    }

    let toolkit: Toolkit | undefined
    try {
      toolkit = await resolveToolkit(options.toolkit, request)
    } catch (error) {
      return jsonError(500, `The toolkit could not be created: ${errorMessage(error)}`)
    }

    // Passed as is: the loop checks a signal by its shape, so one from the edge runtime's realm works.
    const signal = request.signal
    const runOptions: RunOptions<Message> = { signal }
    if (toolkit !== undefined) runOptions.toolkit = toolkit
    if (system !== undefined && system !== '') runOptions.system = system
    const streamInit = { signal, ...(onError === undefined ? {} : { onError }) }

    if (approvals.length > 0 && last !== undefined) {
      if (typeof client.resumeStream !== 'function') {
        return jsonError(400, 'This chat client cannot resume runs: pass one from createClient({ model }).')
      }
      let resumption: Resumption<Message> | string
      try {
        resumption =
          mode.kind === 'store'
            ? await storedResumption({ ...mode, chat, request, approvals })
            : await signedResumption<Message>({ mode, chatId: chat.id ?? '', message: last, approvals })
      } catch (error) {
        if (ApprovalError.isInstance(error)) return jsonError(409, error.message)
        if (!StoreError.isInstance(error)) throw error
        logger.warn(error.message)
        return jsonError(
          503,
          `The conversation store is unavailable (its ${error.operation} failed). Try again later.`,
        )
      }
      if (typeof resumption === 'string') return jsonError(409, resumption)
      const events = client.resumeStream(resumption.state, { ...runOptions, approvals })
      return toUIMessageStreamResponse(events, { ...streamInit, messageMetadata: resumption.finish })
    }

    let conversation: Conversation<Message> | string | { tooLarge: string }
    try {
      conversation =
        mode.kind === 'store'
          ? await storedConversation({ ...mode, chat, request, userMessages, limits })
          : await signedConversation({ mode, chat, logger, userMessages })
    } catch (error) {
      if (!StoreError.isInstance(error)) throw error
      // A StoreError's message names the operation and the conversation, never a URL or a password.
      logger.warn(error.message)
      return jsonError(
        503,
        `The conversation store is unavailable (its ${error.operation} failed). Try again later.`,
      )
    }
    if (typeof conversation === 'string') return jsonError(400, conversation)
    if ('tooLarge' in conversation) return jsonError(413, conversation.tooLarge)

    const prompt = conversation.messages
    const events = client.stream(prompt, runOptions)
    const finish = conversation.finish
    return toUIMessageStreamResponse(events, {
      ...streamInit,
      messageMetadata: (result) => finish(result.messages.slice(prompt.length), result),
    })
  }
}

type Mode<Message> =
  | {
      kind: 'store'
      store: ConversationStore<Message>
      conversationId: NonNullable<StoreChatHandlerOptions['conversationId']> | undefined
    }
  | SignedMode

/** Signed mode: what signs, and what guards the runs it hands out. */
interface SignedMode {
  kind: 'signed'
  signer: Signer
  guard: ApprovalGuard
}

/**
 * Signed mode's signer, bound to the client's message format: an answer signed by a route of one kind
 * (AI SDK messages) never verifies on a route of another (Gemini Contents) sharing its `secret`, where
 * the model would refuse it. AI SDK routes sign as they always have; a hand-written client that builds
 * its own user messages counts as a format of its own.
 */
function forFormat<Message>(mode: Mode<Message>, client: ChatClient<Message>): Mode<Message> {
  if (mode.kind !== 'signed') return mode
  const declared = (client as { messageFormat?: unknown }).messageFormat
  const format =
    typeof declared === 'string'
      ? declared
      : (client as { userMessage?: unknown }).userMessage === undefined
        ? 'ai-sdk'
        : 'custom'
  if (format === 'ai-sdk') return mode
  const { signer } = mode
  const scope = (purpose: string): string => `${purpose}/${format}`
  return {
    ...mode,
    signer: {
      sign: (purpose, text) => signer.sign(scope(purpose), text),
      verify: (purpose, text, signature) => signer.verify(scope(purpose), text, signature),
    },
  }
}

/**
 * How the handler builds a browser's user message: with the client's own `userMessage` (every client
 * from `createClient` has one), else as AI SDK `ModelMessage`s. Nothing from the request decides it.
 */
function readUserMessages<Message>(client: ChatClient<Message>): UserMessages<Message> {
  const build = (client as { userMessage?: unknown }).userMessage
  if (build !== undefined && typeof build !== 'function') {
    throw new ConfigError(
      '`client.userMessage` must be a function building a user message from text and file parts; a client from createClient has one.',
      { field: 'client' },
    )
  }
  const toMessage =
    build === undefined
      ? (toModelUserMessage as unknown as ChatUserMessage<Message>)
      : (parts: UserContentPart[]) => (build as ChatUserMessage<Message>).call(client, parts)
  return async (message) => {
    const parts = readUserContent(message)
    if (parts.length === 0) return []
    try {
      return [await toMessage(parts)]
    } catch (error) {
      if (!ConfigError.isInstance(error)) throw error
      return `A user message cannot go to the model: ${error.message}`
    }
  }
}

function readMode<Message>(options: ChatHandlerOptions<Message>): Mode<Message> {
  if (options.store !== undefined) {
    const { store, conversationId } = options
    if (typeof store?.load !== 'function' || typeof store.save !== 'function') {
      throw new ConfigError('`store` must be a ConversationStore, like new InMemoryConversationStore().', {
        field: 'store',
      })
    }
    if (options.secret !== undefined) {
      throw new ConfigError(
        '`secret` and `store` are two modes: with a store the server keeps the transcript and signs nothing. Pass one of them.',
        { field: 'secret' },
      )
    }
    // Typed out of store mode; a caller without types may still pass them.
    const { claims, approvalTtlSeconds } = options as { claims?: unknown; approvalTtlSeconds?: unknown }
    if (claims !== undefined || approvalTtlSeconds !== undefined) {
      throw new ConfigError(
        '`claims` and `approvalTtlSeconds` are for the signed mode: with a store, an answered run is claimed in the store, and expires by the client’s `approvalTtlSeconds`.',
        { field: claims !== undefined ? 'claims' : 'approvalTtlSeconds' },
      )
    }
    if (conversationId !== undefined && typeof conversationId !== 'function') {
      throw new ConfigError('`conversationId` must be a function ({ id, request }) => the store key.', {
        field: 'conversationId',
      })
    }
    return { kind: 'store', store, conversationId }
  }
  const { secret } = options
  const guard = createApprovalGuard({
    claims: readClaimStore(options.claims, 'createChatHandler'),
    sharedSecret: secret !== undefined,
    ttlSeconds: readApprovalTtl(options.approvalTtlSeconds, 'createChatHandler'),
    where: 'createChatHandler',
  })
  if (secret === undefined) {
    processSigner ??= createHmacSigner()
    return { kind: 'signed', signer: processSigner, guard }
  }
  if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `\`secret\` must be a text of at least ${MIN_SECRET_LENGTH} characters (openssl rand -base64 32 makes one); got ${typeof secret === 'string' ? `${secret.length} characters` : typeof secret}.`,
      { field: 'secret' },
    )
  }
  return { kind: 'signed', signer: createHmacSigner({ secret }), guard }
}

/**
 * Store mode: the transcript is the store's; the body gives the new user message only. `regenerate`
 * answers the stored conversation's last user message again. The question is saved before the run, so a
 * run that fails keeps it (and `regenerate` then finds it); the answer is appended when the run finishes,
 * after whatever another instance appended meanwhile. Every write is a compare-and-set on the store's
 * version: nothing here depends on process-local state.
 */
async function storedConversation<Message>(input: {
  store: ConversationStore<Message>
  conversationId: StoreChatHandlerOptions['conversationId']
  chat: ChatRequest
  request: Request
  userMessages: UserMessages<Message>
  limits: ResolvedChatLimits
}): Promise<Conversation<Message> | string | { tooLarge: string }> {
  const { store, chat, request } = input
  if (chat.id === undefined || chat.id === '') {
    return '"id" is required: it names the conversation the server keeps (useChat sends it).'
  }
  if (chat.id.length > MAX_ID_LENGTH) {
    return `"id" is ${chat.id.length} characters long, more than the limit of ${MAX_ID_LENGTH}.`
  }
  const key =
    input.conversationId === undefined ? chat.id : await input.conversationId({ id: chat.id, request })
  const newest = chat.messages.at(-1)
  const question =
    chat.trigger === 'regenerate-message' || newest === undefined
      ? undefined
      : await input.userMessages(newest)
  if (typeof question === 'string') return question
  if (question?.length === 0) return 'The new user message has no text or file part to answer.'

  for (let attempt = 1; attempt <= MAX_SAVE_ATTEMPTS; attempt++) {
    const loaded = await callStore('load', key, () => store.load(key))
    const stored = loaded?.messages ?? []
    let messages: Message[]
    if (question === undefined) {
      let lastUser = stored.length - 1
      while (lastUser >= 0 && !isPersonMessage(stored[lastUser])) lastUser--
      if (lastUser === -1) return 'There is nothing to regenerate: the conversation has no user message yet.'
      messages = stored.slice(0, lastUser + 1)
    } else {
      messages = [...stored, ...question]
      // Refused before anything is stored: a full conversation takes no more questions.
      const tooLarge = conversationOverCap(messages, input.limits)
      if (tooLarge !== undefined) return { tooLarge }
    }
    // A new question leaves a waiting run's calls unrun (the stored transcript answers them so).
    const saved = await callStore('save', key, () => store.save(key, { messages }, loaded?.version ?? 0))
    if (!saved) continue
    return {
      messages,
      finish: async (added, result) => {
        const current = await callStore('load', key, () => store.load(key))
        await saveTurn({ store, id: key, loaded: current, turn: added, result })
        return undefined
      },
    }
  }
  throw new StoreError(
    `Conversation ${quoteId(key)} changed under each of ${MAX_SAVE_ATTEMPTS} saves of this question; nothing was written.`,
    { operation: 'save' },
  )
}

/**
 * Signed stateless mode: user messages count as text and files; an assistant message counts only as the
 * signed transcript it carries, never as its parts; system messages are dropped.
 */
async function signedConversation<Message>(input: {
  mode: SignedMode
  chat: ChatRequest
  logger: Logger
  userMessages: UserMessages<Message>
}): Promise<Conversation<Message> | string> {
  const { mode, chat, logger } = input
  const { signer } = mode
  const messages: Message[] = []
  let altered = 0
  for (const message of chat.messages) {
    switch (message.role) {
      case 'user': {
        const converted = await input.userMessages(message)
        if (typeof converted === 'string') return converted
        messages.push(...converted)
        break
      }
      case 'assistant': {
        const reading = await readSignedAnswer<Message>(signer, message)
        if (reading.kind === 'signed') messages.push(...reading.messages)
        else if (reading.kind === 'altered') altered += 1
        break
      }
      case 'system':
        // The server's `system` is the only system prompt; a browser's never becomes one.
        break
      default:
        assertNever(message.role)
    }
  }
  if (altered > 0) {
    logger.warn(
      `createChatHandler left out ${altered} assistant message(s) whose signature does not verify: altered by the client, or signed with another secret (give every instance the same \`secret\`).`,
    )
  }
  return {
    messages,
    finish: (added, result) => signedMetadata({ mode, chatId: chat.id ?? '', added, result }),
  }
}

/** Store mode: the conversation's suspended run, claimed for these answers (once, across instances). */
async function storedResumption<Message>(input: {
  store: ConversationStore<Message>
  conversationId: StoreChatHandlerOptions['conversationId']
  chat: ChatRequest
  request: Request
  approvals: ApprovalResponse[]
}): Promise<Resumption<Message> | string> {
  const { store, chat, request, approvals } = input
  if (chat.id === undefined || chat.id === '' || chat.id.length > MAX_ID_LENGTH) {
    return '"id" is required to answer approvals: it names the conversation the server keeps.'
  }
  const key =
    input.conversationId === undefined ? chat.id : await input.conversationId({ id: chat.id, request })
  const claimed = await claimStoredRun({ store, id: key, approvals })
  return {
    state: claimed.state,
    finish: async (result) => {
      await claimed.save(result)
      return undefined
    },
  }
}

/**
 * Signed stateless mode: the suspended run the answered message carries, signed by this server, and its
 * signed transcript; the resumed answer's transcript replaces the calls' "not run" answers with the real
 * ones. Nothing a browser made up can be resumed: the run must be this conversation's, carried by the
 * message whose answer it was signed with, unexpired, and unclaimed — it is claimed here, before anything
 * runs, so that a second answer (here, on another instance, after a restart) runs nothing.
 */
async function signedResumption<Message>(input: {
  mode: SignedMode
  chatId: string
  message: UIMessage
  approvals: ApprovalResponse[]
}): Promise<Resumption<Message> | string> {
  const { mode, chatId, message, approvals } = input
  const { signer } = mode
  const run = await readSignedSuspension(signer, message)
  const answer = await readSignedAnswer<Message>(signer, message)
  if (run === undefined || answer.kind !== 'signed') {
    return 'The answered message carries no run this server suspended (unsigned, altered, or signed with another secret); nothing ran.'
  }
  const carried = (message.metadata as Record<string, { signature?: unknown }>)[ANSWER_METADATA_KEY]
  if (run.chatId !== chatId || run.answer !== carried?.signature) {
    throw new ApprovalError(
      'The answered run belongs to another message or conversation than the one it came with; nothing ran.',
      { code: 'unknown-approval' },
    )
  }
  if (Date.now() >= run.expiresAt) {
    throw new ApprovalError(
      'The run expired: its approval was not answered in time (`approvalTtlSeconds`); nothing ran.',
      { code: 'expired-approval' },
    )
  }
  const { state, placeholders } = run.suspension
  checkApprovals({ state, approvals })
  await mode.guard.claim(state)
  vouchFor(state)
  const before = answer.messages.slice(0, Math.max(0, answer.messages.length - placeholders))
  return {
    state,
    finish: (result) =>
      signedMetadata({
        mode,
        chatId,
        added: [...before, ...result.messages.slice(state.messages.length)],
        result,
      }),
  }
}

/**
 * The signed answer, and the signed suspended run while it waits (cleared once it does not), bound to the
 * conversation and to this answer. The guard sees a suspended run first: it refuses one a shared secret
 * without `claims` would make replayable, before anything of it reaches the browser.
 */
async function signedMetadata<Message>(input: {
  mode: SignedMode
  chatId: string
  added: readonly Message[]
  result: RunResult<Message>
}): Promise<Record<string, unknown>> {
  const { mode, chatId, added, result } = input
  const signed = await signAnswer(mode.signer, added)
  if (result.status !== 'suspended') return { ...signed, [RUN_METADATA_KEY]: null }
  const suspension = toStoredSuspension(result)
  mode.guard.suspend(suspension.state)
  const run = await signSuspension(mode.signer, {
    suspension,
    chatId,
    answer: signed[ANSWER_METADATA_KEY].signature,
    expiresAt: Date.now() + mode.guard.ttlSeconds * 1000,
  })
  return { ...signed, ...run }
}

/**
 * Whether a transcript message is one a person sent: a `user` message, but not Gemini's answers to
 * function calls (which are `user` contents too; the AI SDK's are `tool` messages).
 */
function isPersonMessage(message: unknown): boolean {
  if (!isRecord(message) || message.role !== 'user') return false
  return !(
    Array.isArray(message.parts) && message.parts.some((part) => isRecord(part) && 'functionResponse' in part)
  )
}

function assertNever(value: never): never {
  throw new Error(`Unexpected message role: ${String(value)}`)
}

async function resolveToolkit(
  source: ToolkitSource | undefined,
  request: Request,
): Promise<Toolkit | undefined> {
  if (typeof source === 'function') return await source(request)
  return await source
}

function jsonError(status: number, error: string): Response {
  return Response.json({ error }, { status })
}
