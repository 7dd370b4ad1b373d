// Starting durable-run worker processes and talking to them, for the durable-run tests.
import { readFileSync } from 'node:fs'
import { type NodeWorker, startNodeWorker } from '../support/node-worker.js'

const WORKER = new URL('./fixtures/durable-worker.ts', import.meta.url)

/** What a worker prints for one run. */
export interface RunLine {
  runId: string
  status?: string
  text?: string
  calls?: string[]
  state?: unknown
  error?: string
}

/** A worker process with its run results by run id. */
export interface DurableWorker {
  worker: NodeWorker
  /** Sends one run; `result` resolves once the worker printed it. */
  run(line: {
    runId: string
    prompt?: string
    resume?: { state: unknown; approve: boolean }
  }): Promise<RunLine>
  kill(): Promise<void>
}

/**
 * Starts a worker and waits until DBOS has launched in it.
 *
 * @example
 * const worker = await startDurableWorker({ DATABASE_URL, MODEL_URL, EXECUTOR_ID: 'a', SIDE_EFFECTS })
 */
export async function startDurableWorker(env: Record<string, string>): Promise<DurableWorker> {
  const worker = startNodeWorker(WORKER, env)
  await worker.nextLine()
  const waiting = new Map<string, (line: RunLine) => void>()
  const early = new Map<string, RunLine>()
  void (async () => {
    while (true) {
      let text: string
      try {
        text = await worker.nextLine()
      } catch {
        return
      }
      const line = JSON.parse(text) as RunLine
      const resolve = waiting.get(line.runId)
      if (resolve === undefined) early.set(line.runId, line)
      else {
        waiting.delete(line.runId)
        resolve(line)
      }
    }
  })()
  return {
    worker,
    run: (line) => {
      worker.send(JSON.stringify(line))
      const done = early.get(line.runId)
      if (done !== undefined) return Promise.resolve(done)
      return new Promise((resolve) => waiting.set(line.runId, resolve))
    },
    kill: async () => {
      worker.kill()
      await worker.exited
    },
  }
}

/** The side-effect lines the `refund` tool wrote: `<phase> <idempotencyKey> <order>`. */
export function sideEffects(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean)
  } catch {
    return []
  }
}

/** Waits until `ready()` holds, checking every 50 ms, for at most `timeoutMs`. */
export async function waitFor(ready: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
