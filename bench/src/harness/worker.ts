// One implementation in one process: its import time, init time, memory and request timings are its own.
// The coordinator drives it over IPC; only one worker runs at a time, so workers never share the CPU. For
// the target ratios a worker hosts two implementations, which then take turns in the one process.

import { performance } from 'node:perf_hooks'
import type { BenchInstance, CreateImplementation } from '../impls/types.js'
import type { WorkerCommand, WorkerConfig, WorkerReply } from './protocol.js'
import { timedRun } from './timed-run.js'

function reply(message: WorkerReply): void {
  process.send?.(message)
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''
  return `${error.name}: ${error.message}${cause}`
}

async function handle(instances: BenchInstance[], command: WorkerCommand): Promise<WorkerReply> {
  const first = instances[0]!
  switch (command.type) {
    case 'batch': {
      const instance = instances[command.slot ?? 0]
      if (instance === undefined) throw new Error(`no implementation at slot ${command.slot}`)
      const durations: number[] = []
      // CPU time of this process (all threads, GC included): the client's own work, which other processes
      // on a busy machine disturb far less than they disturb wall time.
      const cpuStart = process.cpuUsage()
      for (let index = 0; index < command.count; index++) durations.push(await timedRun(instance))
      const cpu = process.cpuUsage(cpuStart)
      return { type: 'batch', durations, cpuMsPerRun: (cpu.user + cpu.system) / 1000 / command.count }
    }
    case 'concurrent': {
      const start = performance.now()
      await Promise.all(Array.from({ length: command.count }, () => timedRun(first)))
      return { type: 'concurrent', wallMs: performance.now() - start }
    }
    case 'memory':
      return {
        type: 'memory',
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
        rssBytes: process.memoryUsage().rss,
      }
    case 'close': {
      const start = performance.now()
      for (const instance of instances) await instance.close()
      return {
        type: 'closed',
        closeMs: performance.now() - start,
        maxRssBytes: process.resourceUsage().maxRSS * 1024,
      }
    }
    default: {
      const unknown: never = command
      throw new Error(`unknown command ${JSON.stringify(unknown)}`)
    }
  }
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig
  let phase = 'import'
  try {
    // Import, init and first run are timed for the first implementation, the row this process stands for.
    const timings: Array<{ importMs: number; initMs: number; firstRunMs: number }> = []
    const instances: BenchInstance[] = []
    for (const id of config.implementations) {
      phase = 'import'
      const importStart = performance.now()
      const module = (await import(`../impls/${id}.js`)) as { create: CreateImplementation }
      const importMs = performance.now() - importStart
      phase = 'init'
      const initStart = performance.now()
      const instance = await module.create({
        variant: config.variant,
        openaiBaseUrl: config.openaiBaseUrl,
        geminiBaseUrl: config.geminiBaseUrl,
        mcpServer: config.mcpServer,
      })
      const initMs = performance.now() - initStart
      instances.push(instance)
      phase = 'first run'
      timings.push({ importMs, initMs, firstRunMs: await timedRun(instance) })
    }
    reply({ type: 'ready', ...timings[0]!, rssBytes: process.memoryUsage().rss })
    process.on('message', (command: WorkerCommand) => {
      handle(instances, command).then(
        (message) => {
          reply(message)
          if (message.type === 'closed') process.disconnect()
        },
        (error: unknown) => reply({ type: 'error', phase: command.type, message: describe(error) }),
      )
    })
  } catch (error) {
    reply({ type: 'error', phase, message: describe(error) })
    process.disconnect()
  }
}

await main()
