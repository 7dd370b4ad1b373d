// A durable run (DBOS on a real Postgres, in this process) whose MCP call runs as a task past its
// server's `taskWaitMs`: a step records a result as JSON, so the run does not suspend on the task — the
// call's step asks the server again until the task settles, and the model reads the task's real result.
// The recorded run, asked for again by its id, gives back that result without asking the server again.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createDbosRunner, type DbosRunner } from '../../src/dbos/create-dbos-runner.js'
import { call, clientFor, startApprovalModel } from '../approvals/support.js'
import { type Closers, startTaskServer, toolkitFor } from '../approvals/task-server.js'
import { findPostgresBin, requireBinary } from '../support/database-binaries.js'
import { type PostgresServer, startPostgresServer } from '../support/postgres-server.js'

const havePostgres = requireBinary(findPostgresBin(), 'the durable task test')

let postgres: PostgresServer | undefined
let durable: DbosRunner | undefined
const closers: Closers = []

beforeAll(async () => {
  if (!havePostgres) return
  postgres = await startPostgresServer()
  durable = await createDbosRunner({
    connectionString: postgres.connectionString,
    appVersion: 'task-test',
    executorId: 'task-test',
  })
}, 120_000)

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

afterAll(async () => {
  await durable?.close()
  await postgres?.stop()
})

/** The task server, a model that calls its tool once, a toolkit over it, and a durable client. */
async function durableTaskRun(toolkitOptions?: Parameters<typeof toolkitFor>[2]) {
  const mcp = await startTaskServer(closers)
  const model = await startApprovalModel([call('c1', 'srv_build', { month: 'July' })])
  closers.push(() => model.close())
  const toolkit = await toolkitFor(closers, mcp.url, toolkitOptions)
  const client = clientFor(model, { durable })
  const count = (method: string) => mcp.methods.filter((each) => each === method).length
  return { mcp, model, toolkit, client, count }
}

describe('a durable run whose MCP call runs as a task past taskWaitMs', () => {
  it.runIf(havePostgres)(
    'waits for the task inside the call’s step; the run’s record gives its result back without asking again',
    async () => {
      const { mcp, model, toolkit, client, count } = await durableTaskRun()
      const running = client.run('Build the July report', { toolkit, runId: 'task-run-1' })
      let ended = false
      void running.then(
        () => (ended = true),
        () => (ended = true),
      )
      // Settled once the call has been asked again past its `taskWaitMs` (or the run ended without it).
      while (count('tasks/get') < 3 && !ended) await new Promise((resolve) => setTimeout(resolve, 50))
      mcp.gate.complete()
      const done = await running
      expect(done.status).toBe('done')
      expect(done.text).toBe('got Report for July.')
      expect(model.toolMessages(1)).toStrictEqual([{ id: 'c1', content: 'Report for July.' }])
      const fetched = count('tasks/get')
      const recorded = await client.run('Build the July report', { toolkit, runId: 'task-run-1' })
      expect(recorded.text).toBe('got Report for July.')
      expect(count('tasks/get')).toBe(fetched)
      expect(count('tools/call')).toBe(1)
      expect(model.requests).toHaveLength(2)
    },
    120_000,
  )

  it.runIf(havePostgres)(
    'gives up on a task that never settles at the tool timeout: the model reads why, the server is asked to cancel',
    async () => {
      const { model, toolkit, client, count } = await durableTaskRun({ toolTimeoutMs: 1500 })
      const started = Date.now()
      const done = await client.run('Build the July report', { toolkit, runId: 'task-run-never' })
      expect(Date.now() - started).toBeLessThan(30_000)
      expect(done.status).toBe('done')
      const [message] = model.toolMessages(1)
      expect(message?.id).toBe('c1')
      expect(message?.content).toMatch(
        /^Task "[^"]+" on MCP server "srv" did not finish within 1500 ms, .*may still be running\.$/,
      )
      for (let waited = 0; count('tasks/cancel') === 0 && waited < 10_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(count('tasks/cancel')).toBe(1)
      // The error is the step's record: the run asked for again takes it without asking the server.
      const fetched = count('tasks/get')
      const recorded = await client.run('Build the July report', { toolkit, runId: 'task-run-never' })
      expect(recorded.text).toBe(done.text)
      expect(count('tasks/get')).toBe(fetched)
      expect(count('tools/call')).toBe(1)
      expect(model.requests).toHaveLength(2)
    },
    60_000,
  )
})
