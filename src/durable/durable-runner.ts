// The seam between the loop and a durable-execution engine. The loop only ever sees `DurableSteps`; an
// engine adapter (`toolnexus/dbos`) implements `DurableRunner`. Nothing here imports an engine.

/**
 * What a durable run records. `step` runs `work` once and records what it returned (or threw); when the
 * run is replayed — in another process, after a crash — a recorded step returns its record and `work`
 * does not run. Steps must start in the same order on every replay: the loop starts them in call order.
 *
 * @example
 * const turn = await steps.step('model', () => transport.generate(request))
 */
export interface DurableSteps {
  step<Value>(name: string, work: () => Promise<Value>): Promise<Value>
}

/**
 * One durable run as the engine sees it: its id (the workflow's id), which live worker does it (a
 * client and a toolkit, registered in every process that can run it), and its input as JSON data.
 */
export interface DurableRunInput {
  runId: string
  worker: string
  payload: unknown
}

/** The work of a run, done in a process where its worker is live, with the steps the engine records. */
export type DurableWork = (input: DurableRunInput, steps: DurableSteps) => Promise<unknown>

/**
 * A durable-execution engine for `createClient({ durable })`: runs a run as one of its workflows, each
 * model call and each tool call a recorded step, so a run killed midway finishes on the next worker with
 * every completed step taken from the record. `createDbosRunner` from `toolnexus/dbos` is one; another
 * engine can implement this.
 *
 * @example
 * import { createDbosRunner } from 'toolnexus/dbos'
 * const durable: DurableRunner = await createDbosRunner({ connectionString, appVersion: '1' })
 * const client = createClient({ model, durable })
 */
export interface DurableRunner {
  /**
   * Makes `work` the live worker named `worker` in this process; a run of that worker the engine
   * recovers here waits until it is served. Serving the same name again replaces the work.
   */
  serve(worker: string, work: DurableWork): void
  /**
   * Runs the run `input.runId`: starts it, joins it while another execution has it, or resolves to its
   * recorded result when it has finished.
   */
  run(input: DurableRunInput): Promise<unknown>
  /** Stops the engine in this process; runs still going are left for recovery. */
  close(): Promise<void>
}

/**
 * The live workers of one process, by name, for an engine adapter: a recovered run asks for its worker
 * and waits until the process serves it (its first `client.run` with that client and toolkit).
 *
 * @example
 * const workers = new LiveWorkers()
 * workers.serve('ai-sdk:gpt-5-mini:2:lookup,refund', work)
 * const found = await workers.get('ai-sdk:gpt-5-mini:2:lookup,refund')
 */
export class LiveWorkers {
  readonly #served = new Map<string, DurableWork>()
  readonly #waiting = new Map<string, Array<(work: DurableWork) => void>>()
  #closed = false

  serve(worker: string, work: DurableWork): void {
    if (this.#closed) return
    this.#served.set(worker, work)
    const waiting = this.#waiting.get(worker)
    if (waiting === undefined) return
    this.#waiting.delete(worker)
    for (const resolve of waiting) resolve(work)
  }

  /** The worker's work, once it is served. */
  get(worker: string): Promise<DurableWork> {
    const work = this.#served.get(worker)
    if (work !== undefined) return Promise.resolve(work)
    return new Promise((resolve) => {
      if (this.#closed) return
      const waiting = this.#waiting.get(worker) ?? []
      waiting.push(resolve)
      this.#waiting.set(worker, waiting)
    })
  }

  /**
   * Serves nothing more. A run still waiting for its worker is left waiting, never failed: the engine
   * keeps it pending, and the next process to launch with this executor id takes it up.
   */
  close(): void {
    this.#closed = true
    this.#served.clear()
    this.#waiting.clear()
  }
}
