// Limits: one tool cannot flood the context (output cap with a visible marker), and no MCP server process
// outlives its toolkit — on close(), and when the host ends without close() (exit, crash, SIGTERM, SIGINT).
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { provider } from '../loop/support.js'
import { isAlive, processesWithMarker, recordingLogger, stdioServer, waitFor } from '../mcp/mcp-fixtures.js'
import { startScriptedServer } from '../support/scripted-server.js'
import { failOnUnhandledRejections } from './support.js'

const EXIT_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'reliability', 'exit-without-close.mts')
const MARKER_PATTERN = /…\[output truncated: (\d+) more characters\]$/

failOnUnhandledRejections()

/** Ends every process whose command line carries `marker` (the fixture servers and their children). */
function killMarked(marker: string): void {
  for (const pid of processesWithMarker(marker)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // Gone in the meantime.
    }
  }
}

const flood = defineTool({
  name: 'flood',
  description: 'Returns as many characters as asked.',
  inputSchema: { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'] },
  execute: ({ size }) => 'x'.repeat(Number(size)),
})

describe('a tool output over the cap', () => {
  it('is cut at maxOutputChars with a visible marker that says how much was dropped', async () => {
    const toolkit = await createToolkit({ tools: [flood], maxOutputChars: 1000 })
    const result = await toolkit.execute('flood', { size: 1_000_000 })
    expect(result.isError).toBe(false)
    expect(result.output.startsWith('x'.repeat(1000))).toBe(true)
    expect(result.output.match(MARKER_PATTERN)?.[1]).toBe('999000')
    expect(result.output.length).toBeLessThan(1100)
    expect(result.metadata).toStrictEqual({ truncated: true, originalLength: 1_000_000 })
    // At the cap exactly: nothing is cut.
    expect(await toolkit.execute('flood', { size: 1000 })).toStrictEqual({
      output: 'x'.repeat(1000),
      isError: false,
    })
  })

  it('defaults to 100,000 characters', async () => {
    const toolkit = await createToolkit({ tools: [flood] })
    const result = await toolkit.execute('flood', { size: 250_000 })
    expect(result.output.slice(0, 100_000)).toBe('x'.repeat(100_000))
    expect(result.output.match(MARKER_PATTERN)?.[1]).toBe('150000')
  })

  it('applies to MCP tools too, and only the cut output reaches the model', async () => {
    await using toolkit = await createToolkit({
      tools: [flood],
      mcpConfig: { mcpServers: { fx: stdioServer() } },
      logger: recordingLogger().logger,
      maxOutputChars: 2000,
    })
    const endpoint = await startScriptedServer({
      protocol: provider('openai-chat').protocol,
      script: [
        {
          type: 'reply',
          toolCalls: [
            { id: 'm', name: 'fx_echo', arguments: JSON.stringify({ text: 'y'.repeat(50_000) }) },
            { id: 'n', name: 'flood', arguments: '{"size":3000000}' },
          ],
        },
        { type: 'reply', text: 'read the cut outputs' },
      ],
    })
    try {
      const result = await createClient({ model: provider('openai-chat').model(endpoint.url) }).run('go', {
        toolkit,
      })
      expect(result.toolCalls.map((call) => call.output.match(MARKER_PATTERN)?.[1])).toStrictEqual([
        '48000',
        '2998000',
      ])
      const sent: Array<{ role: string; content: string }> = endpoint.requests[1]?.body.messages
      const toolMessages = sent.filter((message) => message.role === 'tool')
      expect(toolMessages.map((message) => message.content.length <= 2100)).toStrictEqual([true, true])
      expect(toolMessages.map((message) => MARKER_PATTERN.test(message.content))).toStrictEqual([true, true])
      // The request holds the model's own 50,000-character arguments, but not the 3 MB the tool returned.
      expect(JSON.stringify(endpoint.requests[1]?.body).length).toBeLessThan(60_000)
    } finally {
      await endpoint.close()
    }
  })
})

describe('every MCP child process is reaped', () => {
  it('on close(): servers, grandchildren, and one that ignores SIGTERM', async () => {
    const marker = `reliability-close-${process.pid}`
    const toolkit = await createToolkit({
      mcpConfig: {
        mcpServers: {
          plain: stdioServer('--marker', marker),
          parent: stdioServer('--spawn-grandchild', '--marker', marker),
          stubborn: stdioServer('--ignore-sigterm', '--marker', marker),
        },
      },
      logger: recordingLogger().logger,
    })
    try {
      const pids: number[] = []
      for (const name of ['plain', 'parent', 'stubborn']) {
        const { pid, grandchild } = JSON.parse((await toolkit.execute(`${name}_pids`, {})).output)
        pids.push(pid, ...(grandchild === null ? [] : [grandchild]))
      }
      expect(pids).toHaveLength(4)
      expect(processesWithMarker(marker).sort()).toStrictEqual([...pids].sort())
      await toolkit.close()
      await waitFor(() => pids.every((pid) => !isAlive(pid)), 15_000)
      expect(processesWithMarker(marker)).toStrictEqual([])
    } finally {
      await toolkit.close()
      killMarked(marker)
    }
  }, 60_000)

  // Every host this describe starts, from the moment it is spawned: a host that fails to start is ended too.
  const hostsStarted = new Set<ChildProcess>()
  const markers = new Set<string>()
  afterEach(() => {
    for (const child of hostsStarted)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    hostsStarted.clear()
    for (const marker of markers) killMarked(marker)
    markers.clear()
  })

  /** Starts the exit fixture; resolves with its server pids once it has printed them. */
  async function startHost(mode: 'exit' | 'throw' | 'wait', marker: string) {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', EXIT_FIXTURE, mode, marker], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    hostsStarted.add(child)
    markers.add(marker)
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8')
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    )
    // Four hosts, each with tsx and three servers, start side by side: on a loaded machine that is slow.
    await waitFor(() => stdout.includes('\n') || child.exitCode !== null, 120_000)
    const line = stdout.split('\n')[0] ?? ''
    if (!line.startsWith('{')) throw new Error(`the host printed no pids; stderr: ${stderr}`)
    const { pids } = JSON.parse(line) as { pids: number[] }
    return { child, pids, ended, stderr: () => stderr }
  }

  const endings = [
    { label: 'process.exit() without close()', mode: 'exit', expected: { code: 0, signal: null } },
    { label: 'an uncaught exception', mode: 'throw', expected: { code: 1, signal: null } },
    { label: 'SIGTERM', mode: 'wait', signal: 'SIGTERM', expected: { code: null, signal: 'SIGTERM' } },
    { label: 'SIGINT (Ctrl-C)', mode: 'wait', signal: 'SIGINT', expected: { code: null, signal: 'SIGINT' } },
  ] as const

  it(`when the host ends without close(): ${endings.map((ending) => ending.label).join(', ')}`, async () => {
    // The four hosts run side by side: each takes seconds to start, and they share nothing.
    const started = await Promise.allSettled(
      endings.map(async (ending) => {
        const signal = 'signal' in ending ? ending.signal : undefined
        const marker = `reliability-exit-${ending.mode}-${signal ?? 'none'}-${process.pid}`
        return { ending, signal, marker, host: await startHost(ending.mode, marker) }
      }),
    )
    const hosts = started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))
    try {
      for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason
      await Promise.all(
        hosts.map(async ({ ending, signal, marker, host }) => {
          expect([ending.label, host.pids.length]).toStrictEqual([ending.label, 4])
          if (signal !== undefined) host.child.kill(signal)
          // The host ends as it would have without toolnexus: the same exit code, or killed by the signal.
          expect([ending.label, await host.ended]).toStrictEqual([ending.label, ending.expected])
          await waitFor(() => host.pids.every((pid) => !isAlive(pid)), 15_000)
          expect([ending.label, processesWithMarker(marker)]).toStrictEqual([ending.label, []])
        }),
      )
    } finally {
      // A failed run must not leave the fixture's processes behind for the next test.
      for (const { host } of hosts) {
        for (const pid of [host.child.pid, ...host.pids]) {
          if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGKILL')
        }
      }
    }
  }, 240_000)
})
