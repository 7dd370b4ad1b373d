// What every entry point (client, chat handler, provider form) does around a suspended run: refuse to
// hand one out that could be replayed, and claim it once before anything of it runs.
import { ConfigError } from '../errors.js'
import type { ClaimStore } from '../shared/claim-store.js'
import { claimOnce } from './claim-store.js'
import { processClaims } from './process-claims.js'

/** How long a signed run or state may wait for its answer: `approvalTtlSeconds`. */
const DEFAULT_APPROVAL_TTL_SECONDS = 900

/** Kept past a run's expiry: a claim outlives the run even on an instance whose clock runs late. */
const CLAIM_SLACK_SECONDS = 60

/** What the guard needs of a sealed run: its seal names it, and when it expires. */
interface GuardedRun {
  seal: string
  /** `Date.now()` at which the run stops being answerable. */
  expiresAt: number
}

/**
 * Guards the runs one entry point hands out and takes back.
 *
 * @example
 * const guard = createApprovalGuard({ claims, sharedSecret: true, ttlSeconds: 900, where: 'createClient' })
 * guard.suspend(state)     // before the state leaves
 * await guard.claim(state) // before any held call runs
 */
export interface ApprovalGuard {
  /** Throws when the run must not be handed out: a shared secret without `claims`, or a full guard. */
  suspend(run: GuardedRun): void
  /** Claims the run (in `claims`, else the process's guard); a lost claim is a 'replayed-approval'. */
  claim(run: GuardedRun): Promise<void>
  readonly ttlSeconds: number
}

/**
 * Makes the guard of an entry point from its options.
 *
 * @example
 * const guard = createApprovalGuard({ claims: undefined, sharedSecret: false, ttlSeconds: 900, where: 'withToolkit' })
 */
export function createApprovalGuard(options: {
  claims: ClaimStore | undefined
  /** True when the caller gave a `secret`: other instances accept its runs. */
  sharedSecret: boolean
  ttlSeconds: number
  where: string
}): ApprovalGuard {
  const { claims, sharedSecret, ttlSeconds, where } = options
  const ttlOf = (run: GuardedRun): number =>
    Math.min(Math.max(Math.ceil((run.expiresAt - Date.now()) / 1000), 1), ttlSeconds) + CLAIM_SLACK_SECONDS
  return {
    ttlSeconds,
    suspend(run) {
      if (claims !== undefined) return
      if (sharedSecret) {
        throw new ConfigError(
          `${where}: a run waits for approval, and \`secret\` is set without \`claims\`: every instance (and every restart) that shares the secret would accept its answer, and run it again. Pass claims, a store they share: { secret, claims: createRedisStore({ url }) } (or createPostgresStore). One instance needs neither.`,
          { field: 'claims' },
        )
      }
      processClaims.reserve(claimKeyOf(run), ttlOf(run))
    },
    claim: (run) => claimOnce(claims ?? processClaims, claimKeyOf(run), ttlOf(run)),
  }
}

/** The key a run is claimed under: its seal, which no other run has. */
function claimKeyOf(run: GuardedRun): string {
  return `approval:${run.seal}`
}

/**
 * Reads `approvalTtlSeconds`.
 *
 * @example
 * readApprovalTtl(undefined, 'createClient') // 900
 */
export function readApprovalTtl(value: unknown, where: string): number {
  if (value === undefined) return DEFAULT_APPROVAL_TTL_SECONDS
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= 1)) {
    throw new ConfigError(
      `${where}: \`approvalTtlSeconds\` must be a whole number of seconds, at least 1; got ${String(value)}.`,
      { field: 'approvalTtlSeconds' },
    )
  }
  return value
}

let randomSecret: string | undefined

/**
 * The signing key of a process given no `secret`: random, made once, never leaving the process. A run
 * it signs is refused by any other process and after a restart.
 *
 * @example
 * const secret = options.secret ?? processSecret()
 */
export function processSecret(): string {
  if (randomSecret === undefined) {
    let text = ''
    for (const byte of crypto.getRandomValues(new Uint8Array(32))) text += byte.toString(16).padStart(2, '0')
    randomSecret = text
  }
  return randomSecret
}

// States a caller has checked and claimed itself (a store's compare-and-set, a chat handler's signature and
// claim): the resume that takes one skips its own seal check and claim. By object identity, once.
const vouched = new WeakSet<object>()

/**
 * Marks a state as checked and claimed by the caller, for the one resume it is passed to.
 *
 * @example
 * vouchFor(state)
 * client.resumeStream(state, { toolkit, approvals })
 */
export function vouchFor(state: object): void {
  vouched.add(state)
}

/** Whether `state` was vouched for; the mark is used up. */
export function takeVouched(state: unknown): boolean {
  if (typeof state !== 'object' || state === null) return false
  return vouched.delete(state)
}
