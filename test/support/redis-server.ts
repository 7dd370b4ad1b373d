// A real redis-server on a loopback port, started and stopped by the test that needs it: no
// persistence, its own temp dir, killed when the test process exits even if the test forgot.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findRedisServer } from './database-binaries.js'
import { freePort } from './free-port.js'

/** A running redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>` (with the password in it when one was set). */
  url: string
  port: number
  /** Stops the server (SIGKILL after a second) and removes its dir. Safe to call twice. */
  stop(): Promise<void>
}

/** What `startRedisServer` takes. */
export interface RedisServerOptions {
  /** A `requirepass` password, to check that it never shows in an error. */
  password?: string
  /** The port to listen on (to restart a server where its clients expect it). @default a free one */
  port?: number
}

const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Starts redis-server on a free 127.0.0.1 port and resolves once it accepts connections.
 *
 * @example
 * const redis = await startRedisServer()
 * try { ... createRedisStore({ url: redis.url }) ... } finally { await redis.stop() }
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const lookup = findRedisServer()
  if (!lookup.found) throw new Error(lookup.reason)
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(lookup.path, options.port ?? (await freePort()), options)
    } catch (error) {
      if (attempt === 3 || options.port !== undefined) throw error
    }
  }
}

async function startOnce(binary: string, port: number, options: RedisServerOptions): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'toolnexus-redis-'))
  const args = [
    ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir],
    ...['--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--loglevel', 'notice'],
    ...(options.password === undefined ? [] : ['--requirepass', options.password]),
  ]
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(child)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 1_000)
      await exited
      clearTimeout(timer)
    }
    running.delete(child)
    rmSync(dir, { recursive: true, force: true })
  }
  let output = ''
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000)
      const read = (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer)
          resolve()
        }
      }
      child.stdout?.on('data', read)
      child.stderr?.on('data', read)
      child.once('exit', (code) => {
        clearTimeout(timer)
        reject(new Error(`redis-server exited with ${String(code)}:\n${output}`))
      })
    })
  } catch (error) {
    await stop()
    throw error
  }
  // Past startup its output is not needed; keep the pipes drained.
  child.stdout?.resume()
  child.stderr?.resume()
  const auth = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}@`
  return { url: `redis://${auth}127.0.0.1:${port}`, port, stop }
}
