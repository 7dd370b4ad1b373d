// One run of the scenario, timed and checked: every bench figure counts only runs whose answer proves that
// both tool results reached the model intact.

import { performance } from 'node:perf_hooks'
import type { BenchInstance } from '../impls/types.js'
import { EXPECTED_ANSWER } from '../scenario.js'

/** One checked run's wall time in milliseconds: a wrong answer (a lost tool result) throws. */
export async function timedRun(instance: BenchInstance): Promise<number> {
  const start = performance.now()
  const text = await instance.run()
  const elapsed = performance.now() - start
  if (text !== EXPECTED_ANSWER) throw new Error(`wrong answer: ${JSON.stringify(text).slice(0, 300)}`)
  return elapsed
}
