import type { MessageFormat, ResumeOptions, RunOptions, RunResult, RunState } from '../contracts/run-types.js'
import type { UserContentPart } from '../conversation/user-message.js'
import type { RunStream } from '../loop/run-stream.js'
import type { ConversationStore } from '../stores/conversation-store.js'
import type { AskOptions } from './client-options.js'

/**
 * One tool-calling client over a model: `run` to completion, `stream` events as they happen, or `ask`
 * with memory kept by conversation id.
 */
export interface Client<Message> {
  /** Runs the loop to completion with the non-streaming model call. Rejects with `AbortError` on abort. */
  run(prompt: string | Message[], options?: RunOptions<Message>): Promise<RunResult<Message>>
  /** Runs the loop with the streaming model call, yielding events (`finish` last). */
  stream(prompt: string | Message[], options?: RunOptions<Message>): RunStream<Message>
  /**
   * `run` that continues the conversation `id` from the store and saves the turn back. Turns on one id in
   * one client run one after another; turns on one id in different processes may run at the same time:
   * the save is a compare-and-set, and a turn that finds the conversation changed meanwhile is appended
   * after what is stored now (it ran without seeing the other turn; nothing runs twice and no turn is
   * lost). `result.messages` is the transcript as saved. A store that fails rejects with `StoreError`.
   */
  ask(prompt: string | undefined, options: AskOptions<Message>): Promise<RunResult<Message>>
  /**
   * Goes on with a suspended run: approved calls run, denied ones answer the model with an error saying
   * the user declined, and the loop continues; calls left unanswered keep it suspended. The run is
   * claimed first (in `claims`, else the process's guard): it is answered once. Rejects with an
   * `ApprovalError`, having run nothing, when the state or an answer was altered, replayed, expired, or is
   * for another call.
   */
  resume(state: RunState | string, options: ResumeOptions<Message>): Promise<RunResult<Message>>
  /** `resume` with the streaming model call, yielding events like `stream`. */
  resumeStream(state: RunState | string, options: ResumeOptions<Message>): RunStream<Message>
  /** The store `ask` uses. */
  readonly store: ConversationStore<Message>
  /**
   * A person's message in this client's message type, from text and files: an AI SDK `ModelMessage`, or
   * a Gemini `Content` (text as `{ text }`, a `data:` URL as `inlineData`, an `http(s)` URL as
   * `fileData`). Only the parts' text, media type, URL and file name are kept. `createChatHandler`
   * builds each browser message with it.
   *
   * @example
   * const question = await client.userMessage([
   *   { type: 'text', text: 'What is in this picture?' },
   *   { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo…' },
   * ])
   * const result = await client.run([question], { toolkit })
   */
  userMessage(content: string | readonly UserContentPart[]): Promise<Message>
  /**
   * The message type this client speaks: `'ai-sdk'` (AI SDK `ModelMessage`s) or `'genai'` (Gemini
   * `Content`s). `createChatHandler` signs answers for this type only, so that one `secret` can serve
   * routes of both kinds without an answer of one being taken by the other.
   */
  readonly messageFormat: MessageFormat
}
