/**
 * The id of the durable run that resumes a suspended state: the run's own id (or the given one) and the
 * state's seal, so that resuming one suspension twice, from any process, is one run — the first answer's.
 * `undefined` for what is not a sealed state (the resume then refuses it as usual).
 *
 * @example
 * const durable = resumeRunId(state, options.runId) // { runId: 'run-1:resume:…', state }
 */
export function resumeRunId(
  state: unknown,
  given: string | undefined,
): { runId: string; state: unknown } | undefined {
  let parsed = state
  if (typeof state === 'string') {
    try {
      parsed = JSON.parse(state)
    } catch {
      return undefined
    }
  }
  const { runId, seal } = (parsed ?? {}) as { runId?: unknown; seal?: unknown }
  if (typeof runId !== 'string' || typeof seal !== 'string') return undefined
  const id = `${given ?? runId}:resume:${seal.slice(-22)}`
  return /^[\x21-\x7e]{1,300}$/.test(id) ? { runId: id, state: parsed } : undefined
}
