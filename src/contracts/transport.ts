import type { Tool, ToolResult } from '../tool/types.js'
import type { Usage } from './run-types.js'

/** A tool call as the model sent it. */
export interface ModelToolCall {
  /** The call's id; transports invent a stable one when the provider sent none (Gemini often doesn't). */
  id: string
  name: string
  /** The arguments as sent: JSON text (AI SDK) or an already-parsed object (Gemini). */
  input: string | Record<string, unknown>
  /**
   * Why `input`, then the text as sent, is not usable arguments (not JSON, or not an object): set by
   * `decodeToolInput`, so the loop words its answer without parsing the text again.
   */
  inputProblem?: string
  /** True when the provider sent no id and `id` was made up; the answer then carries no id. */
  idGenerated?: boolean
}

/** One model call's outcome, in the transport's message type. */
export interface ModelTurn<Message> {
  text: string
  toolCalls: ModelToolCall[]
  usage: Usage
  finishReason: string
  /**
   * The assistant turn to append to the transcript — verbatim where the provider needs it (Gemini).
   * `undefined` when the model said nothing at all: an empty turn that several providers reject in history.
   */
  message: Message | undefined
  /**
   * The provider's raw response, handed to the `afterModel` hook. A turn is the loop's once handed over
   * (every call makes a new one): the loop drops this after the hook, so that a run waiting on its next
   * model call does not hold the last one's bodies.
   */
  response: unknown
  /** The provider's id for this response, when it sent one. */
  responseId?: string
  /** The model that answered, as the provider names it, when it said. */
  responseModel?: string
}

/** What a streaming model call yields: text as it comes, then the whole turn once. */
export type TransportStreamPart<Message> =
  | { type: 'text-delta'; text: string }
  | { type: 'turn'; turn: ModelTurn<Message> }

/** One model call's input. */
export interface TransportRequest<Message> {
  messages: Message[]
  /** Tools to declare; empty means the request carries no tools at all. */
  tools: readonly Tool[]
  /**
   * Tools the provider's own tool search loads when the model asks (sent deferred); only set when the
   * transport has `nativeToolSearch`.
   */
  deferred?: ReadonlySet<string>
  /** The system prompt (system + skills prompt), when non-empty. */
  system: string | undefined
  /**
   * Aborts the model call; `undefined` when nothing can abort the run (no signal, no deadline, not a
   * stream), because a signal handed to `fetch` costs Node about 0.25 ms of CPU per request.
   */
  signal: AbortSignal | undefined
  /**
   * This run's scratch space, the same object on every turn of the run: a transport may keep what it made
   * from the transcript in `value`, so that a turn converts only the messages that are new.
   */
  memo: TransportMemo
}

/** A run's scratch space for its transport: `value` is unset when the run starts. */
export interface TransportMemo {
  value: unknown
}

/** How a failed model call may be retried. */
export interface RetryAdvice {
  retryable: boolean
  /** The provider's `Retry-After`, in milliseconds, when it sent one in whole seconds. */
  retryAfterMs?: number
  /** The provider's HTTP status, when the call got an answer. */
  statusCode?: number
}

/**
 * What the loop needs from a provider SDK. The loop owns turns, tools, hooks, retries and aborts; the
 * transport only speaks the SDK and shapes its messages.
 */
export interface Transport<Message> {
  /**
   * Who answers: the provider, by its OpenTelemetry `gen_ai.provider.name` (`openai`, `anthropic`,
   * `gcp.gemini`, …), and the model id asked for.
   */
  readonly model: { provider: string; id: string }
  /**
   * The provider searches deferred tools itself (Anthropic's tool search tool, OpenAI Responses' tool
   * search): the loop may then send every tool deferred instead of its own `search_tools`.
   */
  readonly nativeToolSearch?: boolean
  /** The user message for a prompt string. */
  userMessage(prompt: string): Message
  generate(request: TransportRequest<Message>): Promise<ModelTurn<Message>>
  /**
   * `generate` in two steps, for a caller that awaits the SDK's own promise with no frame of the
   * transport's around it: `send` makes the call (the SDK's response), `turnOf` reads that response into
   * the turn. Optional, both or neither; `generate` is the same as `send` then `turnOf`.
   */
  send?(request: TransportRequest<Message>): PromiseLike<unknown>
  turnOf?(response: unknown, request: TransportRequest<Message>): ModelTurn<Message>
  stream(request: TransportRequest<Message>): AsyncIterable<TransportStreamPart<Message>>
  /** The message(s) answering every call of one turn, in call order. */
  toolResultsMessages(results: ReadonlyArray<{ call: ModelToolCall; result: ToolResult }>): Message[]
  /** Whether a failed call may be retried. */
  classifyError(error: unknown): RetryAdvice
}
