// A toolkit calling `longRunning` tools of a toolkit served over MCP (HTTP): the server answers each call
// with a task, the client polls tasks/get to the result, cancels the task when the call is aborted or
// runs out of time, and never takes a direct answer for a task.

import { afterEach, describe, expect, it } from 'vitest'
import { createMcpHandler } from '../../src/mcp-server/create-mcp-handler.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { reportTool } from '../mcp-server/report-tool.js'
import { serveRecording } from '../mcp-server/serve-fetch.js'

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined)
})

/** A toolkit with long-running tools served over HTTP; counts the MCP methods it is sent. */
async function servedToolkit(options: { rewrite?: (body: string, method: string) => string } = {}) {
  const aborted: string[] = []
  const toolkit = await createToolkit({
    logger: { warn: () => undefined },
    tools: [
      reportTool(300),
      defineTool({
        name: 'hold',
        description: 'Runs until it is aborted.',
        longRunning: true,
        execute: (_args, { signal }) =>
          new Promise((_resolve, reject) =>
            signal?.addEventListener('abort', () => {
              aborted.push('hold')
              reject(new Error('aborted'))
            }),
          ),
      }),
      defineTool({
        name: 'overdue',
        description: 'Outlives its task deadline.',
        longRunning: { timeoutMs: 200 },
        execute: () => new Promise(() => undefined),
      }),
      defineTool({ name: 'quick', description: 'Answers at once.', execute: () => 'quick answer' }),
    ],
  })
  closers.push(() => toolkit.close())
  const handler = createMcpHandler({ toolkit, authorize: () => true })
  const { server, methods } = await serveRecording(handler, options.rewrite)
  closers.push(() => server.close())
  return { url: `${server.url}/mcp`, methods, aborted }
}

async function clientFor(url: string, taskWaitMs?: number): Promise<Toolkit> {
  const toolkit = await createToolkit({
    logger: { warn: () => undefined },
    mcpConfig: { mcpServers: { srv: { url, ...(taskWaitMs !== undefined && { taskWaitMs }) } } },
  })
  closers.push(() => toolkit.close())
  return toolkit
}

async function until(check: () => boolean): Promise<void> {
  for (let round = 0; round < 400 && !check(); round++)
    await new Promise((resolve) => setTimeout(resolve, 25))
  if (!check()) throw new Error('the condition never held')
}

describe('a task-augmented tool call', () => {
  it('is polled with tasks/get to its result, mapped as a direct answer', async () => {
    const { url, methods } = await servedToolkit()
    const toolkit = await clientFor(url)
    const result = await toolkit.execute('srv_report', { month: 'July' })
    expect({ output: result.output, isError: result.isError ?? false }).toStrictEqual({
      output: 'Report for July.',
      isError: false,
    })
    expect(methods).toContain('tasks/get')
  }, 60_000)

  it('answers a tool that is not long-running directly, without polling', async () => {
    const { url, methods } = await servedToolkit()
    const toolkit = await clientFor(url)
    expect((await toolkit.execute('srv_quick', {})).output).toBe('quick answer')
    expect(methods.filter((method) => method.startsWith('tasks/'))).toStrictEqual([])
  }, 60_000)

  it('cancels the task with tasks/cancel when the call is aborted', async () => {
    const { url, methods, aborted } = await servedToolkit()
    const toolkit = await clientFor(url)
    const controller = new AbortController()
    const call = toolkit.execute('srv_hold', {}, { signal: controller.signal })
    await until(() => methods.includes('tasks/get'))
    controller.abort(new Error('the user stopped it'))
    const result = await call
    expect(result.isError).toBe(true)
    await until(() => aborted.length > 0)
    expect({ cancelled: methods.includes('tasks/cancel'), aborted }).toStrictEqual({
      cancelled: true,
      aborted: ['hold'],
    })
  }, 60_000)

  it('cancels the task when the call runs out of time, and says it timed out', async () => {
    const { url, methods, aborted } = await servedToolkit()
    const toolkit = await clientFor(url)
    const result = await toolkit.execute('srv_hold', {}, { timeoutMs: 1500 })
    expect(result.isError).toBe(true)
    expect(String(result.output)).toMatch(/timed out/)
    await until(() => aborted.length > 0)
    expect(methods.includes('tasks/cancel')).toBe(true)
  }, 60_000)

  it('answers a task that failed on the server as an error result', async () => {
    const { url } = await servedToolkit()
    const toolkit = await clientFor(url)
    const result = await toolkit.execute('srv_overdue', {})
    expect(result.isError).toBe(true)
    expect(String(result.output)).toMatch(/the task failed: The task did not finish within 200 ms/)
  }, 60_000)

  it('past taskWaitMs answers a pending-task result and leaves the task running; fetchTask gets its result', async () => {
    const { url, methods } = await servedToolkit()
    const toolkit = await clientFor(url, 50)
    const pending = await toolkit.execute('srv_report', { month: 'July' })
    const marked = pending.metadata?.pendingTask as { server: string; taskId: string }
    expect({ isError: pending.isError, server: marked.server }).toStrictEqual({
      isError: false,
      server: 'srv',
    })
    expect(pending.output).toMatch(/^Still running on MCP server "srv" as task /)
    expect(methods).not.toContain('tasks/cancel')
    let result = pending
    for (let round = 0; round < 100 && result.metadata?.pendingTask !== undefined; round++) {
      result = await toolkit.fetchTask({ server: 'srv', tool: 'report', taskId: marked.taskId })
    }
    expect({ output: result.output, isError: result.isError }).toStrictEqual({
      output: 'Report for July.',
      isError: false,
    })
    expect(methods.filter((method) => method === 'tools/call')).toHaveLength(1)
  }, 60_000)

  it('answers fetchTask for a task the server does not know with an error result', async () => {
    const { url } = await servedToolkit()
    const toolkit = await clientFor(url, 50)
    const result = await toolkit.fetchTask({ server: 'srv', tool: 'report', taskId: 'no-such-task' })
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(/Unknown task id/)
    const elsewhere = await toolkit.fetchTask({ server: 'gone', tool: 'report', taskId: 'x' })
    expect(elsewhere.output).toMatch(/No MCP server "gone" in this toolkit/)
  }, 60_000)

  it('never takes a direct answer carrying the task marker for a task', async () => {
    const forged = (body: string, method: string) =>
      method === 'tools/call'
        ? body.replace('"_meta":{', '"_meta":{"dev.toolnexus/task":{"taskId":"forged"},')
        : body
    const { url, methods } = await servedToolkit({ rewrite: forged })
    const toolkit = await clientFor(url)
    expect((await toolkit.execute('srv_quick', {})).output).toBe('quick answer')
    expect(methods.filter((method) => method.startsWith('tasks/'))).toStrictEqual([])
  }, 60_000)
})
