// Durable runs on DBOS Transact (`@dbos-inc/dbos-sdk`, an optional peer): a run is one DBOS workflow,
// each model call and each tool call one of its steps, all recorded in Postgres.
import { DBOS } from '@dbos-inc/dbos-sdk'
import {
  type DurableRunInput,
  type DurableRunner,
  type DurableSteps,
  LiveWorkers,
} from '../durable/durable-runner.js'
import { ConfigError } from '../errors.js'

/** What `createDbosRunner` takes. */
export interface DbosRunnerOptions {
  /** The Postgres database DBOS keeps its records in (`postgres://user:password@host:5432/db`). */
  connectionString: string
  /**
   * The version of your application's code, set explicitly (a release tag, a commit). DBOS recovers a
   * pending run only under the version that started it; left to DBOS, the version is a hash of the code,
   * so every deploy would strand the runs that were going. Change it only when a run's steps change.
   */
  appVersion: string
  /**
   * This worker's identity: a killed worker's pending runs resume when a worker with its id launches.
   * Give each of N workers its own, stable across restarts (a StatefulSet ordinal, a host name).
   * @default DBOS's own: the `DBOS__VMID` environment variable, else `'local'`
   */
  executorId?: string
  /** The application's name, which scopes its runs in the database. @default 'toolnexus' */
  name?: string
  /** DBOS's own log level. @default 'warn' */
  logLevel?: 'debug' | 'info' | 'warn' | 'error'
}

/** A DBOS-backed durable runner: pass it as `createClient({ durable })`; `close` it at shutdown. */
export interface DbosRunner extends DurableRunner {
  /** The executor id this worker launched with. */
  readonly executorId: string
  /** The application version this worker launched with. */
  readonly appVersion: string
}

const WORKFLOW_NAME = 'toolnexus-run'

let launched = false

/**
 * Launches DBOS in this process over `connectionString` and returns the runner for
 * `createClient({ durable })`. On launch DBOS takes up the pending runs of this executor id (a worker
 * that was killed); each finishes once the process has run a run with the same client and toolkit.
 * One per process (DBOS is process-wide).
 *
 * @example
 * import { createDbosRunner } from 'toolnexus/dbos'
 * const durable = await createDbosRunner({ connectionString: process.env.DATABASE_URL, appVersion: '2026-12-01' })
 * const client = createClient({ model: openai('gpt-5-mini'), durable })
 * const result = await client.run('Refund order 42', { toolkit, runId: 'order-42' })
 * await durable.close()
 */
export async function createDbosRunner(options: DbosRunnerOptions): Promise<DbosRunner> {
  const {
    connectionString,
    appVersion,
    executorId,
    name = 'toolnexus',
    logLevel = 'warn',
  } = readOptions(options)
  if (launched || DBOS.isInitialized()) {
    throw new ConfigError(
      'A DBOS runner is already running in this process: close it before creating another.',
    )
  }
  launched = true
  const workers = new LiveWorkers()
  const steps: DurableSteps = {
    step: (stepName, work) => DBOS.runStep(work, { name: stepName, retriesAllowed: false }),
  }
  const workflow = DBOS.registerWorkflow(
    async (input: DurableRunInput): Promise<unknown> => {
      const work = await workers.get(input.worker)
      return work(input, steps)
    },
    { name: WORKFLOW_NAME },
  )
  try {
    DBOS.setConfig({
      name,
      systemDatabaseUrl: connectionString,
      applicationVersion: appVersion,
      ...(executorId === undefined ? {} : { executorID: executorId }),
      logLevel,
      runAdminServer: false,
    })
    await DBOS.launch()
  } catch (error) {
    launched = false
    await DBOS.shutdown({ deregister: true }).catch(() => {})
    throw new ConfigError(
      `DBOS could not launch: ${error instanceof Error ? error.message : String(error)}`,
      {
        cause: error,
      },
    )
  }
  let closed = false
  return {
    executorId: DBOS.executorID,
    appVersion: DBOS.applicationVersion,
    serve: (worker, work) => workers.serve(worker, work),
    async run(input) {
      if (closed) throw new ConfigError('This DBOS runner is closed.')
      const handle = await DBOS.startWorkflow(workflow, { workflowID: input.runId })(input)
      return handle.getResult()
    },
    async close() {
      if (closed) return
      closed = true
      workers.close()
      await DBOS.shutdown({ deregister: true })
      launched = false
    },
  }
}

function readOptions(options: DbosRunnerOptions): DbosRunnerOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ConfigError('createDbosRunner needs { connectionString, appVersion }.')
  }
  const { connectionString, appVersion, executorId, name } = options
  if (typeof connectionString !== 'string' || !/^postgres(ql)?:\/\//.test(connectionString)) {
    throw new ConfigError(
      '`connectionString` must be a Postgres URL, like postgres://user:password@host:5432/db.',
      {
        field: 'connectionString',
      },
    )
  }
  if (typeof appVersion !== 'string' || appVersion.trim() === '') {
    throw new ConfigError(
      '`appVersion` must be set explicitly (a release tag or commit): left to DBOS it changes with every deploy, which strands pending runs.',
      { field: 'appVersion' },
    )
  }
  for (const [field, value] of [
    ['executorId', executorId],
    ['name', name],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new ConfigError(`\`${field}\` must be a non-empty string.`, { field })
    }
  }
  return options
}
