import { type ApprovalGuard, createApprovalGuard, readApprovalTtl } from '../approvals/approval-guard.js'
import { readClaimStore } from '../approvals/claim-store.js'
import { ConfigError } from '../errors.js'
import { createHmacSigner, MIN_SECRET_LENGTH, type Signer } from '../shared/create-hmac-signer.js'
import type { Logger } from '../shared/logger.js'
import type { ConversationStore } from '../stores/conversation-store.js'
import type { ChatClient, ChatHandlerOptions, StoreChatHandlerOptions } from './chat-handler-options.js'
import type { ChatMode } from './chat-mode.js'
import type { ResolvedChatLimits } from './read-chat-request.js'
import { readUserMessages } from './read-user-messages.js'
import { createSignedChatMode } from './signed-chat-mode.js'
import { createStoreChatMode } from './store-chat-mode.js'

/** The random key of handlers given no `secret`: one per process, so its handlers agree. */
let processSigner: Signer | undefined

/**
 * The handler's mode, chosen once from its options (checked: a wrong one fails here, with what to change):
 * store mode with a `store`, else the signed stateless mode.
 *
 * @example
 * const mode = readChatMode({ options, client, logger, limits })
 */
export function readChatMode<Message>(input: {
  options: ChatHandlerOptions<Message>
  client: ChatClient<Message>
  logger: Logger
  limits: ResolvedChatLimits
}): ChatMode<Message> {
  const { options, client, logger, limits } = input
  const mode = forFormat(readMode(options), client)
  const userMessages = readUserMessages(client)
  return mode.kind === 'store'
    ? createStoreChatMode({ store: mode.store, conversationId: mode.conversationId, userMessages, limits })
    : createSignedChatMode({ signer: mode.signer, guard: mode.guard, logger, userMessages })
}

/** The mode the options ask for, before it is built. */
type Mode<Message> =
  | {
      kind: 'store'
      store: ConversationStore<Message>
      conversationId: NonNullable<StoreChatHandlerOptions['conversationId']> | undefined
    }
  | { kind: 'signed'; signer: Signer; guard: ApprovalGuard }

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
