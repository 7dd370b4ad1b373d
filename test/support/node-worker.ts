// A TypeScript file run as its own Node process (through tsx), read line by line: for tests where
// several processes must share one database. Killed when the test process exits.
import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/** A running worker process. */
export interface NodeWorker {
  child: ChildProcess
  /** Resolves the next line the worker prints (rejects if it exits first, with its stderr). */
  nextLine(): Promise<string>
  /** Writes a line to the worker's stdin. */
  send(line: string): void
  /** Resolves the exit code once it has exited. */
  exited: Promise<number | null>
  kill(): void
}

const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Starts `node --import tsx <file>` with extra environment variables.
 *
 * @example
 * const worker = startNodeWorker(new URL('./fixtures/ask-worker.ts', import.meta.url), { ID: 'c1' })
 * await worker.nextLine() // 'ready'
 */
export function startNodeWorker(file: URL, env: Record<string, string>): NodeWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', file.pathname], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  running.add(child)
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child)
      resolve(code)
    }),
  )
  const lines: string[] = []
  const waiting: Array<{ resolve(line: string): void; reject(error: Error): void }> = []
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const waiter = waiting.shift()
    if (waiter === undefined) lines.push(line)
    else waiter.resolve(line)
  })
  void exited.then((code) => {
    for (const waiter of waiting.splice(0)) {
      waiter.reject(new Error(`worker ${file.pathname} exited with ${String(code)}:\n${stderr}`))
    }
  })
  return {
    child,
    nextLine: () => {
      const line = lines.shift()
      if (line !== undefined) return Promise.resolve(line)
      if (child.exitCode !== null) {
        return Promise.reject(new Error(`worker exited with ${String(child.exitCode)}:\n${stderr}`))
      }
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }))
    },
    send: (line) => {
      child.stdin?.write(`${line}\n`)
    },
    exited,
    kill: () => {
      child.kill('SIGKILL')
    },
  }
}
