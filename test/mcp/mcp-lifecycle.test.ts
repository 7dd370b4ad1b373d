import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createToolkit, type Toolkit } from '../../src/index.js'
import { isAlive, processesWithMarker, recordingLogger, stdioServer, waitFor } from './mcp-fixtures.js'

function pidsOf(output: string): { pid: number; grandchild: number | null } {
  return JSON.parse(output) as { pid: number; grandchild: number | null }
}

describe('a server that hangs at initialize', () => {
  it('fails after its timeout, the others load, and its process is ended', async () => {
    const marker = `hang-${randomUUID()}`
    const started = Date.now()
    const toolkit = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: {
        mcpServers: {
          hang: { ...stdioServer('--hang-initialize', '--marker', marker), timeout: 1000 },
          fine: stdioServer(),
        },
      },
    })
    const elapsed = Date.now() - started
    try {
      expect(toolkit.mcpServers().hang).toStrictEqual({
        status: 'failed',
        // What the server printed to stderr before it hung may follow; the reason comes first.
        reason: expect.stringMatching(/^no answer to initialize within 1000 ms(;|$)/),
        tools: [],
      })
      expect(toolkit.mcpStatus().fine).toBe('connected')
      // Bounded by its 1 s timeout, far from the 30 s default (the rest is process start-up on a busy machine).
      expect(elapsed).toBeLessThan(20_000)
    } finally {
      await toolkit.close()
    }
    expect(processesWithMarker(marker)).toStrictEqual([])
  }, 40_000)
})

describe('a server that dies', () => {
  let toolkit: Toolkit
  let folder: string

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolnexus-mcp-'))
    toolkit = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: {
        mcpServers: {
          crashy: stdioServer(),
          tired: stdioServer('--exit-after', '2'),
          once: stdioServer('--exit-after', '1', '--fail-if-exists', join(folder, 'started')),
        },
      },
    })
  }, 60_000)

  afterAll(async () => {
    await toolkit?.close()
    await rm(folder, { recursive: true, force: true })
  })

  it('crashing mid-call gives an error result, then restarts on the next call', async () => {
    const before = pidsOf((await toolkit.execute('crashy_pids', {})).output).pid
    const crashed = await toolkit.execute('crashy_crash', {})
    expect(crashed.isError).toBe(true)
    expect(crashed.output).toMatch(
      /^MCP tool "crash" on server "crashy" failed: the server stopped \(the process exited with code 1.*\); it restarts on the next call\.$/s,
    )
    expect(toolkit.mcpStatus().crashy).toBe('failed')
    expect(toolkit.mcpServers().crashy?.reason).toMatch(/^disconnected \(the process exited with code 1/)
    expect(isAlive(before)).toBe(false)

    const recovered = await toolkit.execute('crashy_pids', {})
    expect(recovered.isError).toBe(false)
    expect(pidsOf(recovered.output).pid).not.toBe(before)
    expect(toolkit.mcpStatus().crashy).toBe('connected')
    expect((await toolkit.execute('crashy_echo', { text: 'back' })).output).toBe('back')
  }, 30_000)

  it('restarts once for calls that arrive together', async () => {
    const before = pidsOf((await toolkit.execute('crashy_pids', {})).output).pid
    expect((await toolkit.execute('crashy_crash', {})).isError).toBe(true)
    const after = await Promise.all([1, 2, 3].map(() => toolkit.execute('crashy_pids', {})))
    const pids = new Set(after.map((result) => pidsOf(result.output).pid))
    expect(pids.size).toBe(1)
    expect(pids.has(before)).toBe(false)
  }, 30_000)

  it('exiting between calls is noticed, and the next call reconnects', async () => {
    expect((await toolkit.execute('tired_echo', { text: 'one' })).output).toBe('one')
    const first = pidsOf((await toolkit.execute('tired_pids', {})).output).pid
    await waitFor(() => toolkit.mcpStatus().tired === 'failed')
    expect(toolkit.mcpServers().tired?.reason).toMatch(
      /^disconnected \(the process exited with code 0\); reconnects on the next tool call$/,
    )

    const again = await toolkit.execute('tired_pids', {})
    expect(again.isError).toBe(false)
    expect(pidsOf(again.output).pid).not.toBe(first)
    expect(toolkit.mcpStatus().tired).toBe('connected')
  }, 30_000)

  it('that cannot be restarted answers every later call with an error result, promptly', async () => {
    expect((await toolkit.execute('once_echo', { text: 'only once' })).output).toBe('only once')
    await waitFor(() => toolkit.mcpStatus().once === 'failed')
    for (const text of ['second', 'third']) {
      const started = Date.now()
      const result = await toolkit.execute('once_echo', { text })
      expect(result.isError).toBe(true)
      expect(result.output).toBe(
        'MCP server "once" is unavailable, so tool "echo" was not run: the process exited with code 4 before it ' +
          'finished initializing; stderr: fixture cannot start twice',
      )
      expect(Date.now() - started).toBeLessThan(15_000)
    }
    expect(toolkit.mcpServers().once?.status).toBe('failed')
  }, 45_000)
})

describe('a slow call', () => {
  let toolkit: Toolkit

  beforeAll(async () => {
    toolkit = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: { mcpServers: { slow: stdioServer() } },
    })
  }, 30_000)

  afterAll(async () => {
    await toolkit?.close()
  })

  it('is bounded by the per-call timeout and cancelled by the signal, and the server stays usable', async () => {
    const cancelled = async (): Promise<number> =>
      Number((await toolkit.execute('slow_cancelled_count', {})).output)
    const cancelledBefore = await cancelled()
    const timedOut = await toolkit.execute('slow_slow', { ms: 20_000 }, { timeoutMs: 300 })
    expect(timedOut).toStrictEqual({ output: 'Tool "slow_slow" timed out after 300 ms.', isError: true })
    // Both the deadline and the caller's abort reach the server as a cancellation, not only the caller.
    await expect.poll(cancelled).toBe(cancelledBefore + 1)

    const controller = new AbortController()
    setTimeout(() => controller.abort(), 200)
    const aborted = await toolkit.execute('slow_slow', { ms: 20_000 }, { signal: controller.signal })
    expect(aborted).toStrictEqual({ output: 'Tool "slow_slow" was aborted.', isError: true })
    await expect.poll(cancelled).toBe(cancelledBefore + 2)

    // The tool's own execute (without the toolkit's deadline) also honours the per-call timeout.
    const direct = await toolkit.get('slow_slow')?.execute({ ms: 20_000 }, { timeoutMs: 300 })
    expect(direct?.isError).toBe(true)
    expect(direct?.output).toMatch(/^MCP tool "slow" on server "slow" timed out: Request timed out/)

    expect((await toolkit.execute('slow_echo', { text: 'still here' })).output).toBe('still here')
    expect(toolkit.mcpStatus().slow).toBe('connected')
  }, 30_000)
})

describe('close()', () => {
  it('ends every server process and what they started, even one that ignores SIGTERM; twice is fine', async () => {
    const marker = `reap-${randomUUID()}`
    const toolkit = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: {
        mcpServers: {
          parent: stdioServer('--spawn-grandchild', '--marker', marker),
          stubborn: stdioServer('--ignore-sigterm', '--marker', marker),
          hang: { ...stdioServer('--hang-initialize', '--marker', marker), timeout: 500 },
        },
      },
    })
    const parent = pidsOf((await toolkit.execute('parent_pids', {})).output)
    const stubborn = pidsOf((await toolkit.execute('stubborn_pids', {})).output).pid
    const pids = [parent.pid, parent.grandchild ?? -1, stubborn]
    for (const pid of pids) expect(isAlive(pid)).toBe(true)
    expect(processesWithMarker(marker).length).toBeGreaterThanOrEqual(3)

    const started = Date.now()
    const closing = toolkit.close()
    expect(toolkit.close()).toBe(closing)
    await closing
    console.log(`[mcp] close() of two live servers, one ignoring SIGTERM, took ${Date.now() - started} ms`)
    await toolkit.close()

    for (const pid of pids) expect(isAlive(pid)).toBe(false)
    expect(processesWithMarker(marker)).toStrictEqual([])
    expect(await toolkit.execute('parent_echo', { text: 'x' })).toMatchObject({
      isError: true,
      output: 'MCP server "parent" is closed.',
    })
  }, 40_000)
})

describe('close() and a grandchild in its own session', () => {
  it.skipIf(process.platform === 'win32')(
    'ends a grandchild the server started with setsid (outside its process group)',
    async () => {
      const marker = `setsid-${randomUUID()}`
      const toolkit = await createToolkit({
        logger: recordingLogger().logger,
        mcpConfig: {
          mcpServers: {
            parent: stdioServer('--spawn-grandchild', '--setsid-grandchild', '--marker', marker),
          },
        },
      })
      try {
        const { pid, grandchild } = pidsOf((await toolkit.execute('parent_pids', {})).output)
        expect([isAlive(pid), grandchild !== null && isAlive(grandchild)]).toStrictEqual([true, true])

        await toolkit.close()

        // Ended by close(); its new parent may take a moment to reap it.
        await waitFor(() => !isAlive(grandchild ?? -1), 5_000)
        expect(processesWithMarker(marker)).toStrictEqual([])
      } finally {
        for (const found of processesWithMarker(marker)) process.kill(found, 'SIGKILL')
      }
    },
    40_000,
  )
})

describe('close() and a zombie left in the server group', () => {
  it.skipIf(process.platform === 'win32')(
    'is done once the server exits: an exited, unreaped process is not waited for until SIGKILL',
    async () => {
      const marker = `zombie-${randomUUID()}`
      const toolkit = await createToolkit({
        logger: recordingLogger().logger,
        mcpConfig: { mcpServers: { parent: stdioServer('--leave-zombie', '--marker', marker) } },
      })
      try {
        expect(toolkit.mcpStatus()).toStrictEqual({ parent: 'connected' })
        const started = Date.now()
        await toolkit.close()
        const elapsed = Date.now() - started
        console.log(`[mcp] close() with a zombie in the server group took ${elapsed} ms`)
        // Waiting on the zombie costs the SIGTERM grace and the SIGKILL wait (3 s and more); a generous
        // bound below that still holds on a loaded machine.
        expect(elapsed).toBeLessThan(2500)
      } finally {
        for (const found of processesWithMarker(marker)) process.kill(found, 'SIGKILL')
      }
    },
    40_000,
  )
})

describe('parallel connect', () => {
  it('loads ten servers in about the time of the slowest, not the sum', async () => {
    const delayMs = 1000
    const load = async (count: number): Promise<{ elapsed: number; statuses: string[] }> => {
      const servers = Object.fromEntries(
        Array.from({ length: count }, (_, index) => [
          `s${index}`,
          stdioServer('--delay-start', String(delayMs)),
        ]),
      )
      const started = Date.now()
      await using toolkit = await createToolkit({
        logger: recordingLogger().logger,
        mcpConfig: { mcpServers: servers },
      })
      return { elapsed: Date.now() - started, statuses: Object.values(toolkit.mcpStatus()) }
    }
    const one = await load(1)
    const ten = await load(10)
    console.log(
      `[mcp] stdio servers answering after ≥ ${delayMs} ms: 1 loaded in ${one.elapsed} ms, 10 in ${ten.elapsed} ms ` +
        `(one after another: ≥ ${10 * delayMs} ms plus ten process start-ups)`,
    )
    expect(one.statuses).toStrictEqual(['connected'])
    expect(ten.statuses).toStrictEqual(Array(10).fill('connected'))
  }, 90_000)
})
