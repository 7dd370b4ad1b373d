import type {
  ApprovalResponse,
  MessageFormat,
  ResumeOptions,
  RunEvent,
  RunOptions,
  RunResult,
  RunState,
} from '../contracts/run-types.js'
import type { Transport } from '../contracts/transport.js'
import { callStore } from '../conversation/call-store.js'
import { claimStoredRun } from '../conversation/claim-stored-run.js'
import { saveTurn } from '../conversation/save-turn.js'
import type { UserContentPart } from '../conversation/user-message.js'
import type { DurableRunner, DurableSteps } from '../durable/durable-runner.js'
import { ConfigError } from '../errors.js'
import type { LoopInput, LoopSettings } from '../loop/loop-input.js'
import { runLoop } from '../loop/run-loop.js'
import { runQuietly } from '../loop/run-quietly.js'
import { createRunStream, type RunStream } from '../loop/run-stream.js'
import { readSettings } from '../loop/settings.js'
import { isPromiseLike } from '../shared/is-promise-like.js'
import type { ConversationStore } from '../stores/conversation-store.js'
import type { Toolkit } from '../toolkit/create-toolkit.js'
import { checkRunOptions } from './check-run-options.js'
import type { Client } from './client.js'
import type { AskOptions, ClientOptions } from './client-options.js'
import {
  type DurableListener,
  type DurablePayload,
  readDurable,
  runDurably,
  workerName,
} from './durable-run.js'
import { readStore } from './read-store.js'
import { resumeRunId } from './resume-run-id.js'

// The history of a run given none: read, never written (the run's transcript is a new array).
const NO_MESSAGES: readonly never[] = Object.freeze([])

/**
 * The client both `createClient` forms return, over a transport: runs, streams, asks and resumes the loop.
 *
 * @example
 * const client = new LoopClient(transport, options, 'ai-sdk', toModelUserMessage)
 */
export class LoopClient<Message> implements Client<Message> {
  readonly store: ConversationStore<Message>
  readonly #transport: Transport<Message> | Promise<Transport<Message>>
  readonly #settings: LoopSettings<Message>
  // One ask at a time per conversation in this client, so that a turn sees the one before it. Across
  // processes the store's compare-and-set keeps every turn (see saveTurn).
  readonly #conversations = new Map<string, Promise<unknown>>()
  readonly #userMessage: (parts: readonly UserContentPart[]) => Promise<Message>
  readonly messageFormat: MessageFormat
  readonly #durable: DurableRunner | undefined
  // The callers of durable runs this process runs, by run id: they get the run's events.
  readonly #listeners = new Map<string, DurableListener<Message>>()

  constructor(
    transport: Transport<Message> | Promise<Transport<Message>>,
    options: ClientOptions<Message>,
    kind: MessageFormat,
    userMessage: (parts: readonly UserContentPart[]) => Promise<Message>,
  ) {
    this.#transport = transport
    this.#userMessage = userMessage
    this.messageFormat = kind
    const settings = readSettings(options, kind)
    this.#settings = settings
    this.store = readStore(options.store)
    this.#durable = readDurable(options.durable)
    // Once loaded, runs use it without awaiting.
    const telemetry = settings.telemetry
    if (isPromiseLike(telemetry)) {
      telemetry.then(
        (loaded) => {
          settings.telemetry = loaded
        },
        () => {},
      )
    }
  }

  userMessage(content: string | readonly UserContentPart[]): Promise<Message> {
    return this.#userMessage(typeof content === 'string' ? [{ type: 'text', text: content }] : content)
  }

  // Not `async`: the loop's own promise is handed back, with no frame of this method's around it.
  run(prompt: string | Message[], options: RunOptions<Message> = {}): Promise<RunResult<Message>> {
    if (this.#durable !== undefined) return this.#runToEnd(prompt, options)
    try {
      checkRunOptions(prompt, options)
    } catch (error) {
      return Promise.reject(error)
    }
    // The loop as one async function: no generator stands in between.
    return runQuietly(this.#loopInput(prompt, options, 'generate', undefined))
  }

  /** A durable run, its events left unread: its result. */
  async #runToEnd(prompt: string | Message[], options: RunOptions<Message>): Promise<RunResult<Message>> {
    const events = this.#start(prompt, options, 'generate', undefined)
    while (true) {
      const next = await events.next()
      if (next.done === true) return next.value
    }
  }

  stream(prompt: string | Message[], options: RunOptions<Message> = {}): RunStream<Message> {
    return createRunStream((stop) => this.#start(prompt, options, 'stream', stop))
  }

  async resume(state: RunState | string, options: ResumeOptions<Message>): Promise<RunResult<Message>> {
    const events = this.#resume(state, options, 'generate', undefined)
    while (true) {
      const next = await events.next()
      if (next.done === true) return next.value
    }
  }

  resumeStream(state: RunState | string, options: ResumeOptions<Message>): RunStream<Message> {
    return createRunStream((stop) => this.#resume(state, options, 'stream', stop))
  }

  #resume(
    state: RunState | string,
    options: ResumeOptions<Message>,
    mode: 'generate' | 'stream',
    stop: AbortSignal | undefined,
  ): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
    if (typeof options !== 'object' || options === null) {
      throw new ConfigError('resume needs options: client.resume(state, { toolkit, approvals: [...] }).')
    }
    checkRunOptions([], options)
    const durable = this.#durable === undefined ? undefined : resumeRunId(state, options.runId)
    if (durable !== undefined) {
      const payload: DurablePayload<Message> = {
        prompt: [],
        history: [],
        system: options.system,
        resume: { state: durable.state, approvals: options.approvals },
      }
      return this.#runDurably(payload, durable.runId, options, mode)
    }
    return runLoop({
      transport: this.#transport,
      settings: this.#settings,
      history: [],
      prompt: [],
      toolkit: options.toolkit,
      system: options.system,
      signal: options.signal,
      ...(stop === undefined ? {} : { stop }),
      mode,
      resume: { state, approvals: options.approvals },
    })
  }

  ask(prompt: string | undefined, options: AskOptions<Message>): Promise<RunResult<Message>> {
    if (typeof options?.id !== 'string' || options.id === '') {
      return Promise.reject(
        new ConfigError('ask needs a conversation id: client.ask(prompt, { id: "user-1", toolkit }).'),
      )
    }
    const { id, approvals, ...runOptions } = options
    if (prompt === undefined && approvals === undefined) {
      return Promise.reject(
        new ConfigError(
          'ask needs a prompt, or approvals to resume the waiting run: client.ask(undefined, { id, approvals }) (`approvals: []` for a run waiting on MCP tasks only).',
        ),
      )
    }
    const previous = this.#conversations.get(id) ?? Promise.resolve()
    const asked = previous.then(async (): Promise<RunResult<Message>> => {
      if (prompt === undefined) return this.#askResume(id, approvals, runOptions)
      const loaded = await callStore('load', id, () => this.store.load(id))
      // A waiting run's calls are answered "not run" in the stored transcript: a new prompt leaves them so.
      const history = loaded?.messages ?? []
      const result = await this.run(prompt, { ...runOptions, history })
      const turn = result.messages.slice(history.length)
      const messages = await saveTurn({ store: this.store, id, loaded, turn, result })
      return { ...result, messages }
    })
    const settled = asked.then(
      () => {},
      () => {},
    )
    this.#conversations.set(id, settled)
    settled.then(() => {
      if (this.#conversations.get(id) === settled) this.#conversations.delete(id)
    })
    return asked
  }

  /** Resumes the run kept suspended under `id`: claimed once across instances, saved back in place. */
  async #askResume(
    id: string,
    approvals: unknown,
    runOptions: Omit<AskOptions<Message>, 'id' | 'approvals'>,
  ): Promise<RunResult<Message>> {
    const claimed = await claimStoredRun({ store: this.store, id, keys: this.#settings.runState, approvals })
    const result = await this.resume(claimed.state, {
      ...runOptions,
      approvals: approvals as ApprovalResponse[],
    })
    const messages = await claimed.save(result)
    return { ...result, messages }
  }

  #start(
    prompt: string | Message[],
    options: RunOptions<Message>,
    mode: 'generate' | 'stream',
    stop: AbortSignal | undefined,
  ): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
    checkRunOptions(prompt, options)
    if (this.#durable !== undefined) {
      const runId = options.runId ?? crypto.randomUUID()
      const payload = { prompt, history: options.history ?? [], system: options.system, runId }
      return this.#runDurably(payload, runId, options, mode)
    }
    return runLoop(this.#loopInput(prompt, options, mode, stop))
  }

  #loopInput(
    prompt: string | Message[],
    options: RunOptions<Message>,
    mode: 'generate' | 'stream',
    stop: AbortSignal | undefined,
  ): LoopInput<Message> {
    const input: LoopInput<Message> = {
      transport: this.#transport,
      settings: this.#settings,
      history: options.history ?? NO_MESSAGES,
      prompt,
      toolkit: options.toolkit,
      system: options.system,
      signal: options.signal,
      mode,
      runId: options.runId,
    }
    if (stop !== undefined) input.stop = stop
    return input
  }

  /**
   * A run as a durable run: this client and the run's toolkit serve it; the engine runs it. A stream's
   * consumer that leaves early does not stop it (it finishes and is recorded); `signal` aborts it.
   */
  async *#runDurably(
    payload: DurablePayload<Message>,
    runId: string,
    options: RunOptions<Message>,
    mode: 'generate' | 'stream',
  ): AsyncGenerator<RunEvent<Message>, RunResult<Message>> {
    const runner = this.#durable as DurableRunner
    const transport = await this.#transport
    const { toolkit } = options
    const worker = workerName(this.messageFormat, transport.model.id, toolkit)
    runner.serve(worker, (input, steps) => this.#work(input.runId, input.payload, steps, toolkit))
    return yield* runDurably({
      runner,
      runId,
      worker,
      payload,
      listeners: this.#listeners,
      stream: mode === 'stream',
      signal: options.signal,
    })
  }

  /** The work of a durable run, in whichever process the engine runs it (its caller's, or another). */
  async #work(
    runId: string,
    given: unknown,
    steps: DurableSteps,
    toolkit: Toolkit | undefined,
  ): Promise<RunResult<Message>> {
    const payload = given as DurablePayload<Message>
    const listener = this.#listeners.get(runId)
    const stream = listener?.stream === true
    const input: LoopInput<Message> = {
      transport: this.#transport,
      settings: this.#settings,
      history: payload.history,
      prompt: payload.prompt,
      toolkit,
      system: payload.system,
      signal: listener?.signal,
      mode: stream ? 'stream' : 'generate',
      runId: payload.runId,
      durable: { steps, emit: stream ? listener?.push : undefined },
      ...(payload.resume === undefined ? {} : { resume: payload.resume }),
    }
    if (!stream) return await runQuietly(input)
    const events = runLoop(input)
    while (true) {
      const next = await events.next()
      if (next.done === true) return next.value
      listener?.push(next.value)
    }
  }
}
