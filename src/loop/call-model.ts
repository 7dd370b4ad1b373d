import type { RunEvent } from '../contracts/run-types.js'
import type { ModelTurn, Transport, TransportRequest } from '../contracts/transport.js'
import type { DurableSteps } from '../durable/durable-runner.js'
import { AbortError, ModelCallError, ToolnexusError } from '../errors.js'
import { errorMessage } from '../tool/tool-result.js'
import { type RetryPolicy, retryDelay, sleep } from './retry.js'
import type { RunScope } from './run-scope.js'

/** What one model call of a turn needs besides the request. */
export interface ModelCallOptions<Message> {
  transport: Transport<Message>
  retry: RetryPolicy
  scope: RunScope
  /** Streamed (its text yielded as it comes) or one non-streaming call. */
  streaming: boolean
  /** In a durable run the call is a recorded step, its streamed text handed to `emit`. */
  durable: { steps: DurableSteps; emit?: ((event: RunEvent<Message>) => void) | undefined } | undefined
}

/**
 * One model call of a turn, retried by the policy: streamed, its text yielded as `text-delta` events, or
 * not; in a durable run a recorded step (its text goes to `emit`, nothing is yielded), so a replay gets
 * the turn the first run got.
 *
 * @example
 * const turn = yield* callModel(request, { transport, retry, scope, streaming: true, durable: undefined })
 */
export async function* callModel<Message>(
  request: TransportRequest<Message>,
  options: ModelCallOptions<Message>,
): AsyncGenerator<RunEvent<Message>, ModelTurn<Message>> {
  const { transport, retry, scope, streaming, durable } = options
  if (!streaming) return await modelTurn(request, options)
  if (durable !== undefined) {
    return await scope.race(
      durable.steps.step('model', async () =>
        recordable(await collectTurn(streamTurn(transport, request, retry, scope), durable.emit)),
      ),
    )
  }
  return yield* streamTurn(transport, request, retry, scope)
}

/**
 * One non-streaming model call of a turn, retried by the policy; in a durable run a recorded step. No
 * generator: a run that streams nothing awaits it directly.
 *
 * @example
 * const turn = await modelTurn(request, { transport, retry, scope, streaming: false, durable: undefined })
 */
export function modelTurn<Message>(
  request: TransportRequest<Message>,
  options: ModelCallOptions<Message>,
): Promise<ModelTurn<Message>> {
  const { transport, retry, scope, durable } = options
  if (durable === undefined) return generateTurn(transport, request, retry, scope)
  return scope.race(
    durable.steps.step('model', async () => recordable(await generateTurn(transport, request, retry, scope))),
  )
}

/** One non-streaming model call, retried by the policy. */
async function generateTurn<Message>(
  transport: Transport<Message>,
  request: TransportRequest<Message>,
  policy: RetryPolicy,
  scope: RunScope,
  firstAttempt = 0,
): Promise<ModelTurn<Message>> {
  for (let attempt = firstAttempt; ; attempt++) {
    try {
      return await scope.race(transport.generate(request))
    } catch (error) {
      await afterFailure({ error, attempt, transport, policy, scope, partial: false })
    }
  }
}

/**
 * A non-streaming model call whose first attempt failed with `error`, taken on as {@link modelTurn} would
 * have: rethrown when it must not be retried, else tried again after the backoff. For a caller that makes
 * the first attempt in its own frame (`await scope.race(transport.generate(request))`).
 *
 * @example
 * try { turn = await scope.race(transport.generate(request)) }
 * catch (error) { turn = await retryTurn(error, transport, request, retry, scope) }
 */
export async function retryTurn<Message>(
  error: unknown,
  transport: Transport<Message>,
  request: TransportRequest<Message>,
  policy: RetryPolicy,
  scope: RunScope,
): Promise<ModelTurn<Message>> {
  await afterFailure({ error, attempt: 0, transport, policy, scope, partial: false })
  return await generateTurn(transport, request, policy, scope, 1)
}

async function* streamTurn<Message>(
  transport: Transport<Message>,
  request: TransportRequest<Message>,
  policy: RetryPolicy,
  scope: RunScope,
): AsyncGenerator<RunEvent<Message>, ModelTurn<Message>> {
  for (let attempt = 0; ; attempt++) {
    let emitted = false
    let iterator: AsyncIterator<unknown> | undefined
    try {
      const parts = transport.stream(request)[Symbol.asyncIterator]()
      iterator = parts
      while (true) {
        const next = await scope.race(parts.next())
        if (next.done === true) throw new ModelCallError('The model stream ended without finishing its turn.')
        const part = next.value
        if (part.type === 'turn') return part.turn
        emitted = true
        yield { type: 'text-delta', text: part.text }
      }
    } catch (error) {
      // Once text has reached the caller a retry would repeat it: only a stream that failed before its
      // first part is tried again.
      await afterFailure({ error, attempt, transport, policy, scope, partial: emitted })
    } finally {
      // Not awaited: a transport stuck on its network read must not hold the run.
      iterator?.return?.()?.then(undefined, () => {})
    }
  }
}

/** A streamed model turn, its text handed to `emit` as it comes: one step of a durable run. */
async function collectTurn<Message>(
  parts: AsyncGenerator<RunEvent<Message>, ModelTurn<Message>>,
  emit: ((event: RunEvent<Message>) => void) | undefined,
): Promise<ModelTurn<Message>> {
  while (true) {
    const next = await parts.next()
    if (next.done === true) return next.value
    emit?.(next.value)
  }
}

/**
 * A model turn as a durable step records it: the provider's raw response (for `afterModel`) kept as
 * plain JSON data, or left out when it is not JSON (a replay then hands the hook `undefined`).
 */
function recordable<Message>(turn: ModelTurn<Message>): ModelTurn<Message> {
  let response: unknown
  try {
    response = turn.response === undefined ? undefined : JSON.parse(JSON.stringify(turn.response))
  } catch {
    response = undefined
  }
  return { ...turn, response }
}

/** After a failed model call: rethrows what must not be retried, else waits out the backoff. */
async function afterFailure<Message>(options: {
  error: unknown
  attempt: number
  transport: Transport<Message>
  policy: RetryPolicy
  scope: RunScope
  partial: boolean
}): Promise<void> {
  const { error, attempt, transport, policy, scope, partial } = options
  scope.check()
  if (AbortError.isInstance(error)) throw error
  if (ToolnexusError.isInstance(error) && !ModelCallError.isInstance(error)) throw error
  let advice: ReturnType<Transport<Message>['classifyError']>
  try {
    advice = transport.classifyError(error)
  } catch {
    advice = { retryable: false }
  }
  if (partial || !advice.retryable || attempt >= policy.maxRetries) {
    const attempts = attempt + 1
    const { statusCode } = advice
    if (ModelCallError.isInstance(error)) {
      if (error.attempts === attempts) throw error
      throw new ModelCallError(error.message, { cause: error.cause, attempts, ...statusOf(error.statusCode) })
    }
    throw new ModelCallError(
      `The model call failed${attempts > 1 ? ` after ${attempts} attempts` : ''}: ${errorMessage(error)}`,
      { cause: error, attempts, ...statusOf(statusCode) },
    )
  }
  await sleep(retryDelay({ attempt, policy, retryAfterMs: advice.retryAfterMs }), scope.signal, () =>
    scope.abortError(),
  )
}

function statusOf(statusCode: number | undefined): { statusCode?: number } {
  return statusCode === undefined ? {} : { statusCode }
}
