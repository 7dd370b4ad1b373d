// What an MCP connection costs through a toolkit against the v2 SDK's own client, side by side in one
// process, taking turns (the order alternates every round), over stdio servers on the v2 SDK
// (bench/mcp-connect-server.mjs):
//
//   connect   N servers (10 and 20) through createToolkit's mcpConfig (connect, negotiate, tools/list)
//             against N SDK `Client`s with the stdio transport started with Promise.all (connect,
//             listTools): with the SDK's default (the 2025 handshake) and pinned to 2026-07-28 (then the
//             SDK asks server/discover on a second process of each server it starts and ends first),
//             and the default given the whole environment, as the toolkit gives it to each server;
//             servers on the v2 SDK (both eras) and on the v1 SDK (2025 only, most servers today)
//   call      one tools/call through toolkit.execute against client.callTool, per call, on a server of
//             both eras and on a 2025-only one (there also the v1 SDK's client)
//   ttl       the tools/list requests a connected toolkit sends inside the list's ttlMs (60 s): must be 0
//
// Medians of per-round ratios (toolkit ÷ SDK); the machine's load average is printed before and after.
// Run from the repository root:
//
//   npx tsx bench/mcp-connect-cost.ts [--only connect|call|ttl] [--rounds 7] [--calls 500]

import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StdioProcessTransport } from '../src/mcp/stdio-process-transport.js'
import { benchOption } from './side-by-side.js'

const SERVER = fileURLToPath(new URL('./mcp-connect-server.mjs', import.meta.url))
const only = benchOption('only', 'all')
const rounds = Number(benchOption('rounds', '7'))
const calls = Number(benchOption('calls', '500'))
const library = await import('../src/index.js')
const quiet = { warn: () => undefined }

type Toolkit = Awaited<ReturnType<typeof library.createToolkit>>

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')

type ServerKind = 'both eras' | '2025 only'
const serverArgs = (kind: ServerKind) => (kind === '2025 only' ? [SERVER, '--2025'] : [SERVER])

async function toolkitOf(count: number, kind: ServerKind = 'both eras'): Promise<Toolkit> {
  const args = serverArgs(kind)
  const mcpServers = Object.fromEntries(
    Array.from({ length: count }, (_, index) => [`s${index}`, { command: process.execPath, args }]),
  )
  const toolkit = await library.createToolkit({ logger: quiet, mcpConfig: { mcpServers } })
  const failed = Object.entries(toolkit.mcpStatus()).filter(([, status]) => status !== 'connected')
  if (failed.length > 0 || toolkit.tools().length !== 2 * count) {
    throw new Error(`toolkit: ${failed.length} servers not connected, ${toolkit.tools().length} tools`)
  }
  return toolkit
}

/**
 * One SDK client on its own server: `pinned` is told the era the server speaks (2026-07-28, as the toolkit
 * negotiates it), `default` takes the SDK's default (the 2025 handshake), both over the SDK's stdio
 * transport; `same transport` negotiates as the toolkit does (`auto`) over the toolkit's own stdio
 * transport, which starts each server in a session of its own. `host environment` is `default` given the
 * whole environment, as the toolkit gives each server (the SDK passes six variables unless told): a
 * variable such as NODE_EXTRA_CA_CERTS, read by every Node process as it starts, costs each server start
 * the same then. The SDK's `auto` mode over its own transport is not a contender: it starts a second
 * process of each server to ask the era.
 */
type SdkMode = 'pinned' | 'default' | 'host environment' | 'same transport'
async function sdkClient(mode: SdkMode = 'pinned', kind: ServerKind = 'both eras'): Promise<Client> {
  const negotiation =
    mode === 'pinned'
      ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } }
      : mode === 'same transport'
        ? { versionNegotiation: { mode: 'auto' as const } }
        : {}
  const client = new Client({ name: 'bench', version: '1.0.0' }, negotiation)
  const args = serverArgs(kind)
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
  const transport =
    mode === 'same transport'
      ? new StdioProcessTransport({ command: process.execPath, args, env, cwd: undefined })
      : new StdioClientTransport({
          command: process.execPath,
          args,
          stderr: 'pipe',
          ...(mode === 'host environment' && { env }),
        })
  try {
    await client.connect(transport)
  } catch (error) {
    // A 2025-only server may exit on the era probe: like the toolkit, start it again the 2025 way.
    if (mode !== 'same transport' || (error as { code?: unknown }).code !== 'ERA_NEGOTIATION_FAILED')
      throw error
    await client.close().catch(() => undefined)
    const legacy = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } })
    await legacy.connect(new StdioProcessTransport({ command: process.execPath, args, env, cwd: undefined }))
    if ((await legacy.listTools()).tools.length !== 2) throw new Error('sdk: expected 2 tools')
    return legacy
  }
  if ((await client.listTools()).tools.length !== 2) throw new Error('sdk: expected 2 tools')
  return client
}

async function timed(run: () => Promise<() => Promise<unknown>>): Promise<number> {
  const start = performance.now()
  const close = await run()
  const ms = performance.now() - start
  await close()
  return ms
}

const connectToolkit = (count: number, kind: ServerKind) =>
  timed(async () => {
    const toolkit = await toolkitOf(count, kind)
    return () => toolkit.close()
  })
const connectSdk = (count: number, mode: SdkMode, kind: ServerKind) =>
  timed(async () => {
    const clients = await Promise.all(Array.from({ length: count }, () => sdkClient(mode, kind)))
    return () => Promise.all(clients.map((client) => client.close()))
  })

type Connect = (count: number, kind: ServerKind) => Promise<number>

async function connectRows(): Promise<void> {
  const contenders: Array<[string, Connect]> = [
    ['toolkit', connectToolkit],
    ['SDK over the same transport', (count, kind) => connectSdk(count, 'same transport', kind)],
    ['SDK, 2025 handshake', (count, kind) => connectSdk(count, 'default', kind)],
    ['SDK, 2025, host env', (count, kind) => connectSdk(count, 'host environment', kind)],
    ['SDK, 2026-07-28', (count, kind) => connectSdk(count, 'pinned', kind)],
  ]
  // Module loading and the first process start are paid once, outside the figures.
  for (const [, connect] of contenders) await connect(1, 'both eras')
  process.stdout.write(
    `connect: ms, median of ${rounds} rounds (the order rotating); ratio = toolkit ÷ SDK per round\n`,
  )
  const rows: Array<[number, ServerKind]> = [
    [10, 'both eras'],
    [20, 'both eras'],
    [10, '2025 only'],
    [20, '2025 only'],
  ]
  for (const [count, kind] of rows) {
    // A 2025-only server cannot be pinned to 2026-07-28.
    const present = contenders.filter(([name]) => kind === 'both eras' || name !== 'SDK, 2026-07-28')
    const times = present.map(() => [] as number[])
    for (let round = 0; round < rounds; round++) {
      for (let step = 0; step < present.length; step++) {
        const index = (round + step) % present.length
        const connect = (present[index] as [string, Connect])[1]
        times[index]?.push(await connect(count, kind))
      }
    }
    const toolkit = times[0] as number[]
    const cells = present.map(([name], index) => {
      const own = times[index] as number[]
      const ms = `${name} ${median(own).toFixed(0)}`
      if (index === 0) return ms
      return `${ms} (${median(toolkit.map((value, round) => value / (own[round] as number))).toFixed(2)}×)`
    })
    process.stdout.write(
      `  ${String(count).padStart(2)} stdio servers, ${kind.padEnd(9)}  ${cells.join('   ')}\n`,
    )
  }
  process.stdout.write("  target: toolkit ≤ 1.10× the SDK's own clients started with Promise.all\n")
}

/** A v1 SDK `Client` (`@modelcontextprotocol/sdk`, 2025 only) over its own stdio transport. */
async function v1Client(kind: ServerKind): Promise<V1Client> {
  const client = new V1Client({ name: 'bench', version: '1.0.0' })
  await client.connect(new V1StdioClientTransport({ command: process.execPath, args: serverArgs(kind) }))
  return client
}

async function callRows(): Promise<void> {
  const toolkit = await toolkitOf(1)
  const toolkit2025 = await toolkitOf(1, '2025 only')
  const own = await sdkClient('pinned')
  const same = await sdkClient('same transport')
  const v2on2025 = await sdkClient('default', '2025 only')
  const v1on2025 = await v1Client('2025 only')
  const checked = (text: unknown, who: string) => {
    if (text !== 'hi') throw new Error(`${who}: wrong answer ${String(text)}`)
  }
  const callSdk = (client: Client | V1Client) => async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } })
    checked((result.content as Array<{ text?: string }>)[0]?.text, 'sdk')
  }
  const callToolkit = (on: Toolkit) => async () =>
    checked((await on.execute('s0_echo', { text: 'hi' })).output, 'toolkit')
  // Each SDK row is set against the toolkit on the same server: its `against` row.
  const contenders: Array<{ name: string; run: () => Promise<void>; against: number }> = [
    { name: 'toolkit.execute', run: callToolkit(toolkit), against: 0 },
    { name: 'client.callTool over the same transport', run: callSdk(same), against: 0 },
    { name: "client.callTool over the SDK's transport", run: callSdk(own), against: 0 },
    { name: 'toolkit.execute, 2025-only server', run: callToolkit(toolkit2025), against: 3 },
    { name: 'client.callTool, 2025-only server', run: callSdk(v2on2025), against: 3 },
    { name: 'v1 SDK client.callTool, 2025-only', run: callSdk(v1on2025), against: 3 },
  ]
  // Wall and this process's CPU per call, in µs: on a loaded machine the wall time moves with the load,
  // the CPU time much less.
  const batch = async (run: () => Promise<void>) => {
    const cpu = process.cpuUsage()
    const start = performance.now()
    for (let index = 0; index < calls; index++) await run()
    const used = process.cpuUsage(cpu)
    return { wall: ((performance.now() - start) * 1000) / calls, cpu: (used.user + used.system) / calls }
  }
  // Every path is compiled hot before the figures: a cold one costs several times a warm one.
  for (let warm = 0; warm < 10; warm++) for (const { run } of contenders) await batch(run)
  const samples = contenders.map(() => [] as Array<{ wall: number; cpu: number }>)
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < contenders.length; step++) {
      const index = (round + step) % contenders.length
      samples[index]?.push(await batch((contenders[index] as (typeof contenders)[number]).run))
    }
  }
  process.stdout.write(
    `call: µs per tools/call, median of ${rounds} rounds × ${calls} calls (the order rotating); ` +
      'each SDK row against the toolkit on the same server\n',
  )
  for (const [index, { name, against }] of contenders.entries()) {
    const theirs = samples[index] as Array<{ wall: number; cpu: number }>
    const mine = samples[against] as Array<{ wall: number; cpu: number }>
    const cell = (metric: 'wall' | 'cpu') => {
      const value = median(theirs.map((sample) => sample[metric])).toFixed(0)
      if (index === against) return `${metric} ${value}`
      const ratio = median(
        mine.map((sample, round) => sample[metric] / (theirs[round] as typeof sample)[metric]),
      )
      return `${metric} ${value} (toolkit ${ratio.toFixed(2)}×)`
    }
    process.stdout.write(`  ${name.padEnd(40)} ${cell('wall')}   ${cell('cpu')}\n`)
  }
  for (const closing of [toolkit, toolkit2025, own, same, v2on2025, v1on2025]) await closing.close()
}

async function ttlRow(): Promise<void> {
  const toolkit = await toolkitOf(1)
  for (let index = 0; index < 50; index++) {
    await toolkit.execute('s0_echo', { text: 'hi' })
    toolkit.tools()
  }
  // The connect's own listing is the one; everything after it, inside the minute, must come from the cache.
  const listed = Number((await toolkit.execute('s0_lists', {})).output)
  const after = listed - 1
  process.stdout.write(
    `ttl\n  tools/list requests inside ttlMs after connecting (50 calls): ${after} ${after === 0 ? '(ok)' : '(must be 0)'}\n`,
  )
  if (after !== 0) process.exitCode = 1
  await toolkit.close()
}

process.stdout.write(`MCP connection cost; load average ${load()}\n`)
if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
  // Node reads the bundle as it starts: every server the toolkit starts pays for it, the SDK's default not.
  process.stdout.write('NODE_EXTRA_CA_CERTS is set: each Node server given it reads it as it starts\n')
}
if (only === 'all' || only === 'connect') await connectRows()
if (only === 'all' || only === 'call') await callRows()
if (only === 'all' || only === 'ttl') await ttlRow()
process.stdout.write(`load average ${load()}\n`)
