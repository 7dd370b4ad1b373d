// Child processes driven over IPC: one request at a time, each answered by exactly one reply or a timeout.

import { type ChildProcess, fork } from 'node:child_process'
import { createWriteStream, type WriteStream } from 'node:fs'

export interface ChildOptions {
  /** Arguments after the script path. */
  args: string[]
  /** Flags for node itself (`--cpu-prof`). */
  execArgv?: string[]
  /** Where the child's stdout and stderr go, so library logs never mix into the table. */
  logFile: string
}

export interface IpcChild<Reply> {
  readonly process: ChildProcess
  /** The child's first message. */
  first(timeoutMs: number): Promise<Reply>
  request(message: unknown, timeoutMs: number): Promise<Reply>
  /** Waits for the child to exit, killing it (by its own pid) after `graceMs`. */
  stop(graceMs: number): Promise<void>
}

export function startChild<Reply>(script: string, options: ChildOptions): IpcChild<Reply> {
  const log: WriteStream = createWriteStream(options.logFile, { flags: 'a' })
  const child = fork(script, options.args, {
    execArgv: options.execArgv ?? [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  child.stdout?.pipe(log, { end: false })
  child.stderr?.pipe(log, { end: false })
  const queue: Reply[] = []
  let waiting: ((reply: Reply) => void) | undefined
  let exited: Error | undefined
  let rejectWaiting: ((error: Error) => void) | undefined
  child.on('message', (message: Reply) => {
    if (waiting === undefined) queue.push(message)
    else {
      const resolve = waiting
      waiting = undefined
      resolve(message)
    }
  })
  const exitPromise = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = new Error(`child exited (code ${code}, signal ${signal}); see ${options.logFile}`)
      rejectWaiting?.(exited)
      resolve()
    })
  })

  function next(timeoutMs: number): Promise<Reply> {
    const queued = queue.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    if (exited !== undefined) return Promise.reject(exited)
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting = undefined
        reject(new Error(`no reply within ${timeoutMs} ms; see ${options.logFile}`))
      }, timeoutMs)
      waiting = (reply) => {
        clearTimeout(timer)
        resolve(reply)
      }
      rejectWaiting = (error) => {
        clearTimeout(timer)
        reject(error)
      }
    })
  }

  return {
    process: child,
    first: next,
    request(message, timeoutMs) {
      if (exited !== undefined) return Promise.reject(exited)
      child.send(message as object)
      return next(timeoutMs)
    },
    async stop(graceMs) {
      if (exited === undefined) {
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
        if (child.connected) child.disconnect()
        await exitPromise
        clearTimeout(timer)
      }
      log.end()
    },
  }
}
