// Run once around the whole suite (vitest `globalSetup`): every process the suite starts inherits a mark in
// its environment, and at the end no process may still carry it. A test that leaves a server, a worker or
// an MCP child running fails the run here, with the process named, and the process is ended.
import { readdirSync, readFileSync } from 'node:fs'

const MARK = 'TOOLNEXUS_TEST_RUN'
/** How long processes get to finish exiting after the last test (a SIGTERM-to-SIGKILL escalation, a worker's exit). */
const GRACE_MS = 15_000

export function setup(): () => Promise<void> {
  const run = `${process.pid}-${Date.now()}`
  process.env[MARK] = run
  return async () => {
    const deadline = Date.now() + GRACE_MS
    let left = markedProcesses(run)
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      left = markedProcesses(run)
    }
    if (left.length === 0) return
    for (const { pid } of left) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // Gone in the meantime.
      }
    }
    // Vitest reports an error thrown here but would still exit 0.
    process.exitCode = 1
    throw new Error(
      `The suite left ${left.length} process${left.length === 1 ? '' : 'es'} running (now killed):\n${left
        .map(({ pid, command }) => `  ${pid} ${command}`)
        .join('\n')}`,
    )
  }
}

/** The processes (other than this one) whose environment carries this run's mark. */
function markedProcesses(run: string): Array<{ pid: number; command: string }> {
  if (process.platform !== 'linux') return []
  const needle = `${MARK}=${run}\0`
  const found: Array<{ pid: number; command: string }> = []
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').includes(needle)) continue
      // A zombie has exited: only its parent's wait is missing, and it holds nothing.
      if (/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))) continue
      const command = readFileSync(`/proc/${pid}/cmdline`, 'latin1').replaceAll('\0', ' ').trim()
      found.push({ pid, command: command.length > 200 ? `${command.slice(0, 200)}…` : command })
    } catch {
      // Exited while being read, or not ours to read.
    }
  }
  return found
}
