// The loop's settings, read from a client's options (and `withToolkit`'s) and checked: a wrong value fails
// where it was given, with what to change.
import { createApprovalGuard, processSecret, readApprovalTtl } from '../approvals/approval-guard.js'
import { readClaimStore } from '../approvals/claim-store.js'
import type { LoopTelemetry } from '../contracts/run-telemetry.js'
import type { Hooks, MessageFormat } from '../contracts/run-types.js'
import { ConfigError } from '../errors.js'
import type { ClaimStore } from '../shared/claim-store.js'
import type { TelemetryOptions } from '../telemetry/telemetry-options.js'
import type { LoopSettings } from './loop-input.js'
import { DEFAULT_RETRY_POLICY, type RetryOptions, type RetryPolicy } from './retry.js'

const DEFAULT_MAX_TURNS = 10
const DEFAULT_TOOL_CONCURRENCY = 10

/**
 * What the loop takes from a client's options (and `withToolkit`'s): its prompt, bounds, hooks, retries,
 * telemetry and how suspended runs are sealed and claimed.
 *
 * @example
 * const options: LoopOptions<ModelMessage> = { system: 'Be brief.', maxTurns: 4, retries: 3 }
 */
export interface LoopOptions<Message> {
  /** The system prompt; the toolkit's skills block is appended after a blank line. */
  system?: string
  /** Model calls per run before it stops with `status: 'max-turns'`. @default 10 */
  maxTurns?: number
  /** Hooks around every model call and every tool call. */
  hooks?: Hooks<Message>
  /**
   * Retries of a transient model error (429, 408, 409, 5xx, network), with exponential backoff and
   * jitter, honouring the provider's `Retry-After`. A number is the retry count. @default 2
   */
  retries?: number | RetryOptions
  /** Milliseconds a whole run may take; then it rejects with an `AbortError`. @default no limit */
  timeoutMs?: number
  /** Tool calls of one turn run at once, at most. @default 10 */
  toolConcurrency?: number
  /**
   * Milliseconds a run that cannot suspend (`withToolkit`, a durable run) waits for a call its MCP server
   * runs as a task past `taskWaitMs`, from the call's start; then the task is cancelled and the model is
   * told it did not finish. Runs that suspend on a task (`createClient`'s, the chat handler's) ignore it.
   * @default the toolkit's `toolTimeoutMs` (one minute)
   */
  maxTaskWaitMs?: number
  /**
   * OpenTelemetry spans and metrics for every run, model call and tool call, by the GenAI semantic
   * conventions. Needs `@opentelemetry/api` installed; nothing of it loads without this option.
   *
   * @example
   * createClient({ model, telemetry: {} }) // the global tracer and meter
   */
  telemetry?: TelemetryOptions
  /**
   * Signs the state of a suspended run (HMAC-SHA-256) and resumes only states signed with it, so a state
   * that passed through other hands cannot be forged. Give every instance the same secret, and `claims`:
   * a shared secret without them is a `ConfigError` at the first suspension.
   * @default a random key made once per process: its states resume in this process only
   */
  secret?: string | undefined
  /**
   * Where an answered run is claimed before anything of it runs, so that it runs at most once across
   * every instance that shares the `secret` (and across restarts): a store all of them share.
   *
   * @default one guard for the whole process (enough for one instance)
   * @example
   * createClient({ model, secret: process.env.APPROVAL_SECRET, claims: createRedisStore({ url }) })
   */
  claims?: ClaimStore | undefined
  /** Seconds a suspended run's state may wait for its answer; then it is refused (`expired-approval`). @default 900 */
  approvalTtlSeconds?: number
  /**
   * Also resume states sealed by a plain SHA-256 (made by older versions without a `secret`). Anyone who
   * holds such a state can change it and recompute the seal: only for states that never left your servers.
   * @default false
   */
  unsafeAcceptHashSealedStates?: boolean
}

/**
 * The loop's settings from a client's options, checked: a wrong value fails here, with what to change.
 *
 * @example
 * const settings = readSettings({ maxTurns: 4, system: 'Be brief.' }, 'ai-sdk')
 */
export function readSettings<Message>(
  options: LoopOptions<Message>,
  kind: MessageFormat = 'ai-sdk',
  where = 'createClient',
): LoopSettings<Message> {
  const {
    system,
    maxTurns = DEFAULT_MAX_TURNS,
    hooks = {},
    timeoutMs,
    toolConcurrency = DEFAULT_TOOL_CONCURRENCY,
    maxTaskWaitMs,
  } = options
  if (system !== undefined && typeof system !== 'string') {
    throw new ConfigError('`system` must be a string (the system prompt).', { field: 'system' })
  }
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new ConfigError(`\`maxTurns\` must be a whole number of at least 1; got ${String(maxTurns)}.`, {
      field: 'maxTurns',
    })
  }
  checkMilliseconds('timeoutMs', timeoutMs)
  checkMilliseconds('maxTaskWaitMs', maxTaskWaitMs)
  if (
    !(
      toolConcurrency === Number.POSITIVE_INFINITY ||
      (Number.isInteger(toolConcurrency) && toolConcurrency >= 1)
    )
  ) {
    throw new ConfigError(
      `\`toolConcurrency\` must be a whole number of at least 1 (or Infinity); got ${String(toolConcurrency)}.`,
      { field: 'toolConcurrency' },
    )
  }
  if (typeof hooks !== 'object' || hooks === null) {
    throw new ConfigError(
      '`hooks` must be an object of functions: { beforeModel, afterModel, beforeTool, afterTool }.',
      { field: 'hooks' },
    )
  }
  for (const name of ['beforeModel', 'afterModel', 'beforeTool', 'afterTool'] as const) {
    if (hooks[name] !== undefined && typeof hooks[name] !== 'function') {
      throw new ConfigError(`\`hooks.${name}\` must be a function.`)
    }
  }
  const { secret, unsafeAcceptHashSealedStates } = options
  if (secret !== undefined && (typeof secret !== 'string' || secret.length < 16)) {
    throw new ConfigError(
      '`secret` must be a string of at least 16 characters (32 random bytes in base64 is a good one), the same on every instance.',
      { field: 'secret' },
    )
  }
  if (unsafeAcceptHashSealedStates !== undefined && typeof unsafeAcceptHashSealedStates !== 'boolean') {
    throw new ConfigError('`unsafeAcceptHashSealedStates` must be true or false.', {
      field: 'unsafeAcceptHashSealedStates',
    })
  }
  const ttlSeconds = readApprovalTtl(options.approvalTtlSeconds, where)
  const approvalGuard = createApprovalGuard({
    claims: readClaimStore(options.claims, where),
    sharedSecret: secret !== undefined,
    ttlSeconds,
    where,
  })
  return {
    system,
    maxTurns,
    hooks,
    retry: readRetry(options.retries),
    timeoutMs,
    toolConcurrency,
    maxTaskWaitMs,
    telemetry: readTelemetry(options.telemetry),
    runState: {
      transport: kind,
      secret: secret ?? processSecret(),
      ttlSeconds,
      ...(unsafeAcceptHashSealedStates === true && { acceptHashSealed: true }),
    },
    approvalGuard,
  }
}

function readTelemetry(telemetry: TelemetryOptions | undefined): Promise<LoopTelemetry> | undefined {
  if (telemetry === undefined) return undefined
  if (typeof telemetry !== 'object' || telemetry === null) {
    throw new ConfigError('`telemetry` must be an object: { tracer?, meter?, recordContent? }.', {
      field: 'telemetry',
    })
  }
  const { tracer, meter, recordContent } = telemetry
  if (tracer !== undefined && typeof tracer?.startSpan !== 'function') {
    throw new ConfigError(
      '`telemetry.tracer` must be an OpenTelemetry Tracer, like trace.getTracer("my-app").',
      { field: 'telemetry.tracer' },
    )
  }
  if (meter !== undefined && typeof meter?.createHistogram !== 'function') {
    throw new ConfigError(
      '`telemetry.meter` must be an OpenTelemetry Meter, like metrics.getMeter("my-app").',
      { field: 'telemetry.meter' },
    )
  }
  if (recordContent !== undefined && typeof recordContent !== 'boolean') {
    throw new ConfigError('`telemetry.recordContent` must be true or false.', {
      field: 'telemetry.recordContent',
    })
  }
  // Loaded on demand: @opentelemetry/api is an optional peer, and a client without telemetry pays nothing.
  const loaded = import('../telemetry/create-open-telemetry.js').then(
    (module) => module.createOpenTelemetry(telemetry),
    (error: unknown) => {
      throw new ConfigError(
        '`telemetry` needs the @opentelemetry/api package: npm install @opentelemetry/api.',
        { cause: error },
      )
    },
  )
  // Surfaced on the first run; here it would be an unhandled rejection.
  loaded.catch(() => {})
  return loaded
}

function readRetry(retries: number | RetryOptions | undefined): RetryPolicy {
  if (retries === undefined) return DEFAULT_RETRY_POLICY
  const given = typeof retries === 'number' ? { maxRetries: retries } : retries
  if (typeof given !== 'object' || given === null) {
    throw new ConfigError(
      '`retries` must be a number of retries or { maxRetries, initialDelayMs, maxDelayMs }.',
      { field: 'retries' },
    )
  }
  const policy = { ...DEFAULT_RETRY_POLICY, ...stripUndefined(given) }
  if (!Number.isInteger(policy.maxRetries) || policy.maxRetries < 0) {
    throw new ConfigError(
      `\`retries\` must be a whole number of 0 or more; got ${String(policy.maxRetries)}.`,
      { field: 'retries' },
    )
  }
  for (const key of ['initialDelayMs', 'maxDelayMs'] as const) {
    if (!(typeof policy[key] === 'number' && policy[key] >= 0 && Number.isFinite(policy[key]))) {
      throw new ConfigError(
        `\`retries.${key}\` must be a number of milliseconds, 0 or more; got ${String(policy[key])}.`,
      )
    }
  }
  return policy
}

function stripUndefined(options: RetryOptions): Partial<RetryPolicy> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
}

/** An optional duration option: unset, or a positive, finite number of milliseconds. */
function checkMilliseconds(field: 'timeoutMs' | 'maxTaskWaitMs', value: unknown): void {
  if (value === undefined || (typeof value === 'number' && value > 0 && Number.isFinite(value))) return
  throw new ConfigError(`\`${field}\` must be a positive number of milliseconds; got ${String(value)}.`, {
    field,
  })
}
