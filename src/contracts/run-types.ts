import type { Awaitable } from '../shared/awaitable.js'
import type { Tool, ToolMedia, ToolResult } from '../tool/types.js'
import type { Toolkit } from '../toolkit/toolkit.js'

/** Tokens used, summed over a run's turns. */
export interface Usage {
  inputTokens: number
  outputTokens: number
  totalTokens: number
}

/** One tool call the model made during a run, with the result it got back. */
export interface ToolCallRecord {
  id: string
  name: string
  /** The arguments: an object when the model sent valid JSON, else the raw text it sent. */
  args: unknown
  output: string
  isError: boolean
  metadata?: Record<string, unknown>
  /** Images or audio the tool returned (see `ToolResult.media`). */
  media?: readonly ToolMedia[]
}

/**
 * A call that waits for a person's approval. Answer it with `approvalId` in `client.resume`.
 *
 * @example
 * const pending: PendingApproval = { approvalId: 'approval_3q…', toolCallId: 'call_1', toolName: 'delete_file', args: { path: 'a.txt' } }
 */
export interface PendingApproval {
  approvalId: string
  toolCallId: string
  toolName: string
  args: Record<string, unknown>
}

/**
 * A call that still runs on its MCP server as a task (its server's `taskWaitMs` passed): `client.resume`
 * asks the server for its result, on any instance, and goes on with it.
 *
 * @example
 * const task: PendingTask = { toolCallId: 'call_1', toolName: 'reports_build', server: 'reports', taskId: 'task-7f…' }
 */
export interface PendingTask {
  toolCallId: string
  toolName: string
  /** The MCP server's name in the config. */
  server: string
  taskId: string
}

/**
 * A person's answer to one pending call. A denial may say why; the model reads the reason.
 *
 * @example
 * const answers: ApprovalResponse[] = [
 *   { approvalId: pending[0].approvalId, approved: true },
 *   { approvalId: pending[1].approvalId, approved: false, reason: 'Not on a Friday.' },
 * ]
 */
export type ApprovalResponse =
  | { approvalId: string; approved: true }
  | { approvalId: string; approved: false; reason?: string }

/**
 * One call of the suspended turn, in call order: answered (`result`), waiting for approval
 * (`approvalId`), or running on its MCP server as a task (`task`).
 */
export interface RunStateCall {
  toolCallId: string
  toolName: string
  /** True when the provider sent no id and the transport made one up (the answer then carries none). */
  idGenerated?: true
  /** The arguments as recorded (an object, or the raw text when the model sent no JSON object). */
  args: unknown
  /** The call's result, once it has one. */
  result?: { output: string; isError: boolean; metadata?: Record<string, unknown> }
  /** While it waits: the id its answer must carry. */
  approvalId?: string
  /** While it runs as a task: its server (config name), the server's own tool name, and the task's id. */
  task?: { server: string; tool: string; taskId: string }
}

/**
 * Everything a suspended run needs to go on, as plain JSON data: the transcript up to the model turn that
 * made the calls, that turn's calls (each answered or waiting), and the run's counters. No tools, no
 * functions, no system prompt: those come from the client and the toolkit that resume it. Sealed by an
 * HMAC over the whole state, with the client's `secret` or else a random key of its process, so any
 * change is refused; it expires `approvalTtlSeconds` after it was made, and is answered once.
 *
 * @example
 * const text = JSON.stringify(result.state)   // keep it anywhere
 * await client.resume(JSON.parse(text), { toolkit, approvals })
 */
export interface RunState {
  type: 'toolnexus-run-state'
  version: 1
  /** Which client made it: `'ai-sdk'` (AI SDK `ModelMessage`s) or `'genai'` (Gemini `Content`s). */
  transport: MessageFormat
  /** Random, per run: approval ids of one run never match another's. */
  runId: string
  /** Model calls made so far. */
  turn: number
  usage: Usage
  /** The text and finish reason of the model turn that made the calls. */
  text: string
  finishReason: string
  /** The transcript, ending with the model turn that made the calls (their results are in `calls`). */
  messages: unknown[]
  calls: RunStateCall[]
  /** Approval ids answered earlier in this run. */
  answered: string[]
  /** `Date.now()` from which the state is refused (`expired-approval`): `approvalTtlSeconds` after it was made. */
  expiresAt: number
  /** `hmac-sha256:` and the base64url HMAC of everything else (`sha256:` in states of older versions). */
  seal: string
}

/**
 * The message format a client speaks, and a run state belongs to: `'ai-sdk'` (AI SDK `ModelMessage`s)
 * or `'genai'` (Gemini `Content`s).
 *
 * @example
 * const format: MessageFormat = client.messageFormat // 'ai-sdk'
 */
export type MessageFormat = 'ai-sdk' | 'genai'

/** @deprecated Use `MessageFormat`: it names the message format a run state belongs to. */
export type RunStateTransport = MessageFormat

/** What every run result has, finished or suspended. */
interface RunResultParts<Message> {
  text: string
  /**
   * The whole transcript in the transport's own message type (AI SDK `ModelMessage[]`, or Gemini
   * `Content[]`), ready to pass back as `history`. In a suspended run every waiting call is answered here
   * with an error result saying it was not run, so the transcript is valid history even if nobody resumes.
   */
  messages: Message[]
  /** The calls this run (or this resume) answered, in order. */
  toolCalls: ToolCallRecord[]
  /** Model calls made, over the whole run (a resumed run counts from where it stopped). */
  turns: number
  usage: Usage
  finishReason: string
}

/** A run that finished: the model stopped calling tools (`done`) or used up `maxTurns`. */
export interface FinishedRunResult<Message> extends RunResultParts<Message> {
  status: 'done' | 'max-turns'
  pending?: undefined
  state?: undefined
}

/**
 * A run that waits: some calls need a person's approval (`pending`), or still run on their MCP server
 * as tasks (`tasks`); the rest of their turn ran. `state` is plain JSON data holding everything needed
 * to go on: pass it (or its JSON text) to `client.resume` with the answers, in this process or another.
 */
export interface SuspendedRunResult<Message> extends RunResultParts<Message> {
  status: 'suspended'
  pending: PendingApproval[]
  /** The calls still running as MCP tasks; `client.resume` fetches their results. */
  tasks: PendingTask[]
  state: RunState
}

/**
 * What a run produced: finished, or suspended waiting for approvals.
 *
 * @example
 * const result = await client.run('Delete a.txt', { toolkit })
 * if (result.status === 'suspended') console.log(result.pending.map((call) => call.toolName))
 */
export type RunResult<Message> = FinishedRunResult<Message> | SuspendedRunResult<Message>

/** What `client.stream` yields, in AI SDK naming; `finish` is always last. */
export type RunEvent<Message> =
  | { type: 'text-delta'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | {
      type: 'tool-result'
      toolCallId: string
      toolName: string
      output: string
      isError: boolean
      /** Images or audio the tool returned, when it returned any. */
      media?: readonly ToolMedia[]
      /**
       * When the call runs on its MCP server as a task the run suspended on: `working` while it still
       * runs (the output then says so, and the run suspends after this turn), `settled` when a resume
       * fetched its result (`isError` says whether it failed). Absent for every other call.
       */
      task?: { server: string; taskId: string; status: 'working' | 'settled' }
    }
  /** A call that waits for a person's approval; the run ends `suspended` after this turn. */
  | {
      type: 'tool-approval-request'
      approvalId: string
      toolCallId: string
      toolName: string
      input: unknown
    }
  /** A call the person declined (on resume); the model gets an error result saying so. */
  | { type: 'tool-output-denied'; toolCallId: string; toolName: string; reason?: string }
  | { type: 'step-end'; turn: number; usage: Usage }
  | { type: 'finish'; result: RunResult<Message> }

/**
 * Hooks around each model call and each tool call. Each may be async; returning nothing changes nothing.
 *
 * @example
 * const hooks: Hooks<ModelMessage> = {
 *   beforeTool: ({ name, args }) => (name === 'delete_file' ? { result: { output: 'not allowed', isError: true } } : undefined),
 *   afterTool: ({ name, result }) => console.log(name, result.isError ? 'failed' : 'ok'),
 * }
 */
export interface Hooks<Message> {
  /** Before every model call; may replace the messages or the tools for this call only (the transcript keeps what happened). */
  beforeModel?(context: {
    messages: Message[]
    tools: readonly Tool[]
    turn: number
    // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be a plain `() => log(...)`.
  }): Awaitable<{ messages?: Message[]; tools?: readonly Tool[] } | undefined | void>
  /** After every model call, with the provider's response. */
  afterModel?(context: { response: unknown; turn: number }): Awaitable<void>
  /** Before every tool call; `{ result }` answers the call without running the tool, `{ args }` replaces them. */
  beforeTool?(context: {
    toolCallId: string
    name: string
    args: Record<string, unknown>
    // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be a plain `() => log(...)`.
  }): Awaitable<{ result?: ToolResult; args?: Record<string, unknown> } | undefined | void>
  /** After every tool call; `{ result }` replaces the result the model sees. Calls whose arguments were not a JSON object skip both tool hooks. */
  afterTool?(context: {
    toolCallId: string
    name: string
    args: Record<string, unknown>
    result: ToolResult
    // biome-ignore lint/suspicious/noConfusingVoidType: lets a hook be a plain `() => log(...)`.
  }): Awaitable<{ result?: ToolResult } | undefined | void>
}

/** What every `run`, `stream` and `ask` takes besides the prompt. */
export interface RunOptions<Message> {
  /** The tools the model may call. Omitted: the model is called without tools. */
  toolkit?: Toolkit
  /** Earlier messages (a previous result's `messages`) to continue from. */
  history?: Message[]
  /**
   * A system prompt for this run only, after the client's `system` (and before the toolkit's skills
   * block), a blank line apart: the AI SDK client sends it as the system message, the genai client as
   * `systemInstruction`. A resumed run takes it again (a suspended run's state keeps no system prompt).
   *
   * @example
   * await client.run('Hi', { toolkit, system: `The user's name is ${user.name}.` })
   */
  system?: string
  /** Aborts the model call and every running tool; the run rejects with an `AbortError`. */
  signal?: AbortSignal
  /**
   * The run's id (1 to 256 printable ASCII characters). Every tool call's `idempotencyKey` starts with
   * it. With a `durable` client it is the durable run's id: a second `run` with it resolves to the run's
   * recorded result (nothing runs again), and a worker resumes a run killed midway by calling `run` with
   * it. @default a random id
   *
   * @example
   * await client.run('Refund order 42', { toolkit, runId: 'order-42' })
   */
  runId?: string
}

/**
 * What `client.resume` takes besides the state: the answers, and the toolkit whose tools run (and whose
 * MCP servers are asked for the pending tasks' results).
 *
 * @example
 * await client.resume(result.state, { toolkit, approvals: [{ approvalId: result.pending[0].approvalId, approved: true }] })
 * await client.resume(result.state, { toolkit }) // a run waiting on tasks only
 */
export interface ResumeOptions<Message> extends Omit<RunOptions<Message>, 'history'> {
  /** Answers to some or all of the pending calls; calls left unanswered keep the run suspended. @default [] */
  approvals?: ApprovalResponse[]
}
