import type { UIMessage } from 'ai'
import { type ApprovalGuard, vouchFor } from '../approvals/approval-guard.js'
import { refuseIdleResume } from '../approvals/refuse-idle-resume.js'
import { checkApprovals } from '../approvals/run-state.js'
import { RUN_METADATA_KEY, readSignedSuspension, signSuspension } from '../approvals/signed-run.js'
import { toStoredSuspension } from '../approvals/stored-suspension.js'
import type { ApprovalResponse, RunResult } from '../contracts/run-types.js'
import { ApprovalError } from '../errors.js'
import type { Signer } from '../shared/create-hmac-signer.js'
import type { Logger } from '../shared/logger.js'
import type { ChatMode, Conversation, Resumption, UserMessages } from './chat-mode.js'
import type { ChatRequest } from './read-chat-request.js'
import { ANSWER_METADATA_KEY, readSignedAnswer, signAnswer } from './signed-answer.js'

/**
 * Signed stateless mode: the browser keeps the transcript, assistant messages count only through the
 * transcript this server signed, and a suspended run travels signed with its answer.
 *
 * @example
 * const mode = createSignedChatMode({ signer, guard, logger, userMessages })
 */
export function createSignedChatMode<Message>(options: {
  signer: Signer
  guard: ApprovalGuard
  logger: Logger
  userMessages: UserMessages<Message>
}): ChatMode<Message> {
  const { logger, userMessages } = options
  const mode: SignedMode = { signer: options.signer, guard: options.guard }
  return {
    conversation: ({ chat }) => signedConversation({ mode, chat, logger, userMessages }),
    resumption: ({ chat, message, approvals }) =>
      signedResumption<Message>({ mode, chatId: chat.id ?? '', message, approvals }),
  }
}

/** Signed mode: what signs, and what guards the runs it hands out. */
interface SignedMode {
  signer: Signer
  guard: ApprovalGuard
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
  refuseIdleResume(state, approvals)
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

function assertNever(value: never): never {
  throw new Error(`Unexpected message role: ${String(value)}`)
}
