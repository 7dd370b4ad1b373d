import type { UIMessage } from 'ai'
import type { ApprovalResponse, RunResult, RunState } from '../contracts/run-types.js'
import type { ChatRequest } from './read-chat-request.js'

/** How a request's transcript is built, and what is kept when its run finishes. */
export interface Conversation<Message> {
  /** What the model sees before the run (the handler's `system` goes separately). */
  messages: Message[]
  /** Called with the run's new model messages and its result; returns the answer's metadata. */
  finish(added: Message[], result: RunResult<Message>): Promise<Record<string, unknown> | undefined>
}

/** A suspended run a request's approval answers go on with, and what is kept when it finishes. */
export interface Resumption<Message> {
  state: RunState
  /** Called with the resumed run's result; returns the answer's metadata. */
  finish(result: RunResult<Message>): Promise<Record<string, unknown> | undefined>
}

/** A browser's user message in the client's message type (none when it has no text or file), or why not. */
export type UserMessages<Message> = (message: UIMessage) => Promise<Message[] | string>

/**
 * One of the handler's two modes, chosen once from its options: how it builds a request's transcript, and
 * how it resumes the run a request's approval answers go on with.
 *
 * @example
 * const conversation = await mode.conversation({ chat, request })
 */
export interface ChatMode<Message> {
  /** The transcript the model sees, or why the request is refused (400; `tooLarge`: 413). */
  conversation(input: {
    chat: ChatRequest
    request: Request
  }): Promise<Conversation<Message> | string | { tooLarge: string }>
  /** The suspended run the answers go on with, claimed once; or why nothing can be resumed (409). */
  resumption(input: {
    chat: ChatRequest
    request: Request
    /** The answered assistant message (the request's last). */
    message: UIMessage
    approvals: ApprovalResponse[]
  }): Promise<Resumption<Message> | string>
}
