// What claiming an answered approval costs, measured side by side in one process with the in-process
// model (no network but Redis's, so the loop's own work is all there is to see). Each run is 2 model
// calls and 2 tool calls:
//
//   no approval                 nothing needs approval: the floor
//   no approval, Redis claims   the same with `claims` on Redis configured: a run that never waits pays nothing
//   approval, process guard     `add` needs approval: run → suspended → resume approved (claimed in memory)
//   approval, Redis claims      the same, claimed in a redis-server on loopback (one SET NX EX per answer)
//
// The figure that matters is the last two's difference: what a shared claim adds per answered approval.
// Needs redis-server on the PATH (apt-get install -y redis-server); without it the Redis rows are left
// out. Run from the repository root:
//
//   npm run bench:approvals -- [--rounds 30] [--batch 30]

import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { benchOption, benchToolkit, type Contender, runSideBySide, scriptedModel } from './side-by-side.js'

const rounds = Number(benchOption('rounds', '30'))
const batchSize = Number(benchOption('batch', '30'))

const library = await import('../src/index.js')
const { createRedisStore } = await import('../src/redis/index.js')
const toolkit = await benchToolkit(library)
const held = await library.createToolkit({
  tools: toolkit.tools().map((tool) => tool),
  approval: { tools: ['add'] },
})
const secret = 'a bench secret of at least thirty-two characters'

type Client = ReturnType<typeof library.createClient>

/** One answered approval: the run suspends on `add`, and is resumed with it approved. */
async function answered(client: Client): Promise<void> {
  const first = await client.run('Add and echo.', { toolkit: held })
  if (first.status !== 'suspended') throw new Error(`expected a suspended run, got ${first.status}`)
  const approvals = first.pending.map(({ approvalId }) => ({ approvalId, approved: true as const }))
  const next = await client.resume(first.state, { toolkit: held, approvals })
  if (next.status !== 'done') throw new Error(`expected a finished run, got ${next.status}`)
}

const plain = library.createClient({ model: scriptedModel() as never })
const contenders: Contender[] = [
  { name: 'no approval', run: () => plain.run('Add and echo.', { toolkit }) },
  { name: 'approval, process guard', run: () => answered(plain) },
]

const redis = await startRedis()
const store = redis === undefined ? undefined : createRedisStore({ url: redis.url })
if (store !== undefined) {
  const claimed = library.createClient({ model: scriptedModel() as never, secret, claims: store })
  contenders.splice(1, 0, {
    name: 'no approval, Redis claims',
    run: () => claimed.run('Add and echo.', { toolkit }),
  })
  contenders.push({ name: 'approval, Redis claims', run: () => answered(claimed) })
} else {
  process.stdout.write('redis-server not found: the Redis rows are left out\n')
}

try {
  const results = await runSideBySide({ title: 'approval claim overhead', contenders, rounds, batchSize })
  const wall = (name: string) => results.find((result) => result.name === name)?.wall
  const [floor, guard, shared, idle] = [
    wall('no approval'),
    wall('approval, process guard'),
    wall('approval, Redis claims'),
    wall('no approval, Redis claims'),
  ]
  const ms = (value: number) => `${(value / 1000).toFixed(3)} ms`
  if (floor !== undefined && guard !== undefined) {
    process.stdout.write(`  an answered approval (suspend + resume) over none: +${ms(guard - floor)} wall\n`)
  }
  if (guard !== undefined && shared !== undefined) {
    process.stdout.write(
      `  a claim in Redis over the process guard, per answered approval: ${shared - guard >= 0 ? '+' : ''}${ms(shared - guard)} wall (target ≤ 1 ms)\n`,
    )
  }
  if (floor !== undefined && idle !== undefined) {
    process.stdout.write(
      `  a run with no approval, with Redis claims configured: ${(idle / floor).toFixed(2)}× the floor\n`,
    )
  }
} finally {
  await store?.close()
  await redis?.stop()
  await toolkit.close()
  await held.close()
}
process.exit(0)

/** redis-server on a free loopback port, no persistence. */
async function startRedis(): Promise<{ url: string; stop(): Promise<void> } | undefined> {
  const binary = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((path) => existsSync(path))
  if (binary === undefined) return undefined
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  await new Promise<void>((resolve, reject) => {
    let output = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes('Ready to accept connections')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)))
  })
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}
