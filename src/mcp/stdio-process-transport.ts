import { type ChildProcess, spawn } from 'node:child_process'
import { type JSONRPCMessage, serializeMessage, type Transport } from '@modelcontextprotocol/client'
import { BoundedLineReader, tooLargeMessage } from './bounded-line-reader.js'
import { descendantsOf, groupRunning, processAlive } from './process-tree.js'

/**
 * How to start a local MCP server.
 *
 * @example
 * const options: StdioProcessOptions = { command: 'node', args: ['server.mjs'], env: { PATH: '/usr/bin' } }
 */
export interface StdioProcessOptions {
  command: string
  args: readonly string[]
  /** The whole environment of the process (the caller merges the process environment in). */
  env: Record<string, string>
  cwd?: string | undefined
}

/**
 * How a started process ended, once it has.
 *
 * @example
 * const crashed: ProcessExit = { code: 1, signal: null }
 */
export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
}

const STDERR_TAIL_CHARS = 4000
const GRACE_AFTER_STDIN_MS = 300
const GRACE_AFTER_SIGTERM_MS = 2000
const GRACE_AFTER_SIGKILL_MS = 1000
const POLL_MS = 25
// On POSIX the server leads its own process group, so closing it also ends what it started (npx → node).
const OWN_PROCESS_GROUP = process.platform !== 'win32'

/**
 * An MCP stdio client transport that owns its process: the server runs in its own process group so that
 * `close()` ends the server and everything it spawned (stdin closed, then SIGTERM, then SIGKILL), its
 * stderr is kept as a bounded tail (never poured into the host's stderr) to explain a failure, and how it
 * exited is remembered.
 *
 * @example
 * const transport = new StdioProcessTransport({ command: 'node', args: ['server.mjs'], env: { ...process.env } })
 * await client.connect(transport)
 * await client.close() // the server and its children are gone
 */
export class StdioProcessTransport implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined

  readonly #options: StdioProcessOptions
  readonly #reader = new BoundedLineReader()
  // Requests sent and not yet answered, to tell a too-large answer's request when its id cannot be read.
  readonly #pending = new Set<string | number>()
  #child: ChildProcess | undefined
  #stderrTail = ''
  #stderrTotal = 0
  #exit: ProcessExit | undefined
  #closing: Promise<void> | undefined
  #drained = false
  readonly #drainWaiters: Array<() => void> = []

  constructor(options: StdioProcessOptions) {
    this.#options = options
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.#child?.pid
  }

  /** How the process ended, when it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit
  }

  /**
   * The server's stderr stream once started. Its presence with `pid` also tells the MCP client that this
   * is a stdio transport, so it asks the era in place: a server that does not answer `server/discover`
   * in time is taken for a 2025 one on the same process.
   */
  get stderr(): NodeJS.ReadableStream | null {
    return this.#child?.stderr ?? null
  }

  /** The last few thousand characters the server wrote to stderr. */
  get stderrTail(): string {
    return this.#stderrTail
  }

  /** How many characters the server has written to stderr so far; a mark for `stderrSince`. */
  get stderrLength(): number {
    return this.#stderrTotal
  }

  /** What of the kept tail the server wrote to stderr after `mark` (a past `stderrLength`). */
  stderrSince(mark: number): string {
    const tailStart = this.#stderrTotal - this.#stderrTail.length
    return this.#stderrTail.slice(Math.max(0, mark - tailStart))
  }

  /**
   * Resolves once the process has exited and its pipes are drained (so `stderrTail` is complete), or after
   * `waitMs`, whichever is first.
   */
  drained(waitMs: number): Promise<void> {
    if (this.#drained) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs)
      this.#drainWaiters.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  #markDrained(): void {
    this.#drained = true
    for (const wake of this.#drainWaiters.splice(0)) wake()
  }

  start(): Promise<void> {
    if (this.#child !== undefined)
      return Promise.reject(new Error('The MCP server process was already started.'))
    const { command, args, env, cwd } = this.#options
    return new Promise<void>((resolve, reject) => {
      const child = spawn(command, [...args], {
        env,
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: OWN_PROCESS_GROUP,
        windowsHide: true,
      })
      this.#child = child
      child.once('spawn', () => {
        trackTransport(this)
        resolve()
      })
      child.once('error', (error) => {
        // Spawning failed (no such command, no permission): there is no process to wait for.
        if (child.pid === undefined) {
          this.#exit = { code: null, signal: null }
          this.#markDrained()
          reject(error)
          return
        }
        this.onerror?.(error)
      })
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal }
        untrackTransport(this)
        // A server that died may leave children holding its pipes open; they are orphans now.
        const pid = child.pid
        if (pid !== undefined && this.#closing === undefined) signalTree(child, pid, 'SIGTERM')
      })
      // 'close' comes after the pipes drain, so a reply written just before exiting is still delivered.
      child.once('close', (code, signal) => {
        this.#exit ??= { code, signal }
        this.#markDrained()
        this.onclose?.()
      })
      child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk))
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (chunk: string) => {
        this.#stderrTotal += chunk.length
        this.#stderrTail = (this.#stderrTail + chunk).slice(-STDERR_TAIL_CHARS)
      })
      // A pipe that breaks because the server died is reported by 'close'; these only keep it from throwing.
      child.stdin?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('error', (error) => this.onerror?.(error))
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin
    if (stdin === undefined || stdin === null || this.#exit !== undefined || !stdin.writable) {
      return Promise.reject(new Error('The MCP server process is not running.'))
    }
    if ('method' in message && 'id' in message) this.#pending.add(message.id)
    return new Promise<void>((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve()
      else stdin.once('drain', () => resolve())
    })
  }

  /** Ends the server: stdin closed, then SIGTERM, then SIGKILL to its whole process group. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#stop()
    return this.#closing
  }

  async #stop(): Promise<void> {
    const child = this.#child
    if (child?.pid === undefined) return
    const pid = child.pid
    const exited = new Promise<void>((resolve) => {
      if (this.#exit !== undefined) resolve()
      else child.once('exit', () => resolve())
    })
    // Found while the server still runs: a process it started in a session of its own (`setsid`) is not
    // in its group, and once the server exits it is init's child, no longer the server's.
    const started = OWN_PROCESS_GROUP && this.#exit === undefined ? descendantsOf(pid) : []
    child.stdin?.end()
    await Promise.race([exited, delay(GRACE_AFTER_STDIN_MS)])
    // Signal the group even when the leader has gone: what it started may still run.
    if (!(await this.#ended(pid, started, exited, 0))) {
      signalTree(child, pid, 'SIGTERM', started)
      if (!(await this.#ended(pid, started, exited, GRACE_AFTER_SIGTERM_MS))) {
        signalTree(child, pid, 'SIGKILL', started)
        await this.#ended(pid, started, exited, GRACE_AFTER_SIGKILL_MS)
      }
    }
    this.#pending.clear()
    child.stdout?.removeAllListeners('data')
    child.stderr?.removeAllListeners('data')
    untrackTransport(this)
  }

  /**
   * True once the leader has exited and (on POSIX) nothing is left in its process group or of what it
   * had started, within `waitMs`.
   */
  async #ended(
    pid: number,
    started: readonly number[],
    exited: Promise<void>,
    waitMs: number,
  ): Promise<boolean> {
    const deadline = Date.now() + waitMs
    for (;;) {
      const leaderDone = this.#exit !== undefined
      if (leaderDone && !groupAlive(pid) && !started.some(processAlive)) return true
      if (Date.now() >= deadline) return false
      await Promise.race([exited, delay(POLL_MS)])
    }
  }

  #read(chunk: Buffer): void {
    for (const line of this.#reader.push(chunk)) {
      switch (line.kind) {
        case 'message':
          if ('id' in line.message && !('method' in line.message) && line.message.id !== undefined) {
            this.#pending.delete(line.message.id)
          }
          this.onmessage?.(line.message)
          break
        case 'invalid':
          // A line that is not JSON-RPC (a stray console.log) is reported and skipped, not fatal.
          this.onerror?.(line.error)
          break
        case 'too-large':
          this.#answerTooLarge(line.bytes, line.id)
          break
        default:
          line satisfies never
      }
    }
  }

  // A message over the limit was skipped, not kept: its request is answered with an error naming the
  // limit, and the server goes on serving (no restart, which would only fail the same way again).
  #answerTooLarge(bytes: number, readId: string | number | undefined): void {
    const id = readId ?? (this.#pending.size === 1 ? [...this.#pending][0] : undefined)
    const message = tooLargeMessage(bytes)
    if (id === undefined || !this.#pending.has(id)) {
      this.onerror?.(new Error(`${message}; it was dropped`))
      return
    }
    this.#pending.delete(id)
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: -32603, message } })
  }

  /** Sends SIGKILL to the process group right away; for when the host process is exiting. */
  killNow(): void {
    const child = this.#child
    if (child?.pid === undefined) return
    const started = OWN_PROCESS_GROUP && this.#exit === undefined ? descendantsOf(child.pid) : []
    signalTree(child, child.pid, 'SIGKILL', started)
  }
}

/** Signals the server's process group, and each process it had started (`started`) on its own. */
function signalTree(
  child: ChildProcess,
  pid: number,
  signal: NodeJS.Signals,
  started: readonly number[] = [],
): void {
  // kill(-0) would signal the host's own process group.
  if (!(pid > 0)) return
  try {
    if (OWN_PROCESS_GROUP) process.kill(-pid, signal)
    else child.kill(signal)
  } catch {
    // ESRCH: everything has already exited.
  }
  for (const each of started) {
    try {
      process.kill(each, signal)
    } catch {
      // Already gone.
    }
  }
}

function groupAlive(pid: number): boolean {
  return OWN_PROCESS_GROUP && groupRunning(pid)
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

// Servers run in their own process group, so they would outlive a host that exits without `close()`;
// on exit, whatever is still running is killed. A terminating signal (Ctrl-C, a supervisor's SIGTERM)
// ends the host without an 'exit' event, and Ctrl-C never reaches another process group, so while servers
// run a signal listener kills them too.
const liveTransports = new Set<StdioProcessTransport>()
const TERMINATING_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
let watchingSignals = false

function killLiveTransports(): void {
  for (const transport of liveTransports) transport.killNow()
}

function onTerminatingSignal(signal: NodeJS.Signals): void {
  // Another listener means the host handles the signal itself (say, a graceful shutdown that calls
  // close(), or a process.exit() that the 'exit' hook covers): leave the decision to it.
  if (process.listenerCount(signal) > 1) return
  killLiveTransports()
  // Only this listener kept the default action (ending the process) from happening: restore it.
  stopWatchingSignals()
  process.kill(process.pid, signal)
}

function trackTransport(transport: StdioProcessTransport): void {
  liveTransports.add(transport)
  // Listening only while servers run keeps a host without any from gaining signal listeners.
  if (OWN_PROCESS_GROUP && !watchingSignals) {
    watchingSignals = true
    for (const signal of TERMINATING_SIGNALS) process.on(signal, onTerminatingSignal)
  }
}

function untrackTransport(transport: StdioProcessTransport): void {
  liveTransports.delete(transport)
  if (liveTransports.size === 0) stopWatchingSignals()
}

function stopWatchingSignals(): void {
  if (!watchingSignals) return
  watchingSignals = false
  for (const signal of TERMINATING_SIGNALS) process.off(signal, onTerminatingSignal)
}

process.once('exit', killLiveTransports)
