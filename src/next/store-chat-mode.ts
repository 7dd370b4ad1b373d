import type { ApprovalResponse } from '../contracts/run-types.js'
import { callStore } from '../conversation/call-store.js'
import { claimStoredRun } from '../conversation/claim-stored-run.js'
import { saveTurn } from '../conversation/save-turn.js'
import { StoreError } from '../errors.js'
import { isRecord } from '../shared/is-record.js'
import type { ConversationStore } from '../stores/conversation-store.js'
import { quoteId } from '../stores/quote-id.js'
import type { StoreChatHandlerOptions } from './chat-handler-options.js'
import type { ChatMode, Conversation, Resumption, UserMessages } from './chat-mode.js'
import { conversationOverCap } from './conversation-caps.js'
import type { ChatRequest, ResolvedChatLimits } from './read-chat-request.js'

/** Saves of one question that keep losing the race to other instances before the handler gives up. */
const MAX_SAVE_ATTEMPTS = 10

/** The longest conversation id the store mode takes. */
const MAX_ID_LENGTH = 256

/**
 * Store mode: the server keeps the transcript by chat id (see `storedConversation`), and a request's
 * approval answers resume the run the store keeps suspended, claimed once across instances.
 *
 * @example
 * const mode = createStoreChatMode({ store, conversationId: undefined, userMessages, limits })
 */
export function createStoreChatMode<Message>(options: {
  store: ConversationStore<Message>
  conversationId: StoreChatHandlerOptions['conversationId']
  userMessages: UserMessages<Message>
  limits: ResolvedChatLimits
}): ChatMode<Message> {
  return {
    conversation: ({ chat, request }) => storedConversation({ ...options, chat, request }),
    resumption: ({ chat, request, approvals }) => storedResumption({ ...options, chat, request, approvals }),
  }
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
    return '"id" is required to resume a run: it names the conversation the server keeps.'
  }
  const key =
    input.conversationId === undefined ? chat.id : await input.conversationId({ id: chat.id, request })
  const claimed = await claimStoredRun({ store, id: key, approvals, refuseIdle: true })
  return {
    state: claimed.state,
    finish: async (result) => {
      await claimed.save(result)
      return undefined
    },
  }
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
