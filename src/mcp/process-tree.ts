// Node only. The processes a server started, found by their parent ids, so that one that left the
// server's process group (`setsid`, a daemonizing child) is ended with the server all the same.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

/**
 * Every live descendant of `pid` (children, their children, …), found now: from `/proc` on Linux, else
 * from `ps`. Empty where neither can be read. Call it while the parent still runs: a process whose
 * parent exited belongs to init, and no longer to the tree.
 *
 * @example
 * const started = descendantsOf(child.pid) // [4121, 4130]
 */
export function descendantsOf(pid: number): number[] {
  const parents = parentIds()
  const children = new Map<number, number[]>()
  for (const [child, parent] of parents) {
    const siblings = children.get(parent)
    if (siblings === undefined) children.set(parent, [child])
    else siblings.push(child)
  }
  const found: number[] = []
  const queue = [pid]
  const seen = new Set(queue)
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      if (seen.has(child)) continue
      seen.add(child)
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

/** Each process id with its parent's. */
function parentIds(): Map<number, number> {
  const parents = new Map<number, number>()
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return fromPs()
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const ppid = procStat(Number(entry))?.ppid
    if (ppid !== undefined) parents.set(Number(entry), ppid)
  }
  return parents
}

/** `state ppid pgrp` of a process from `/proc/<pid>/stat`; undefined when it cannot be read. */
function procStat(pid: number): { state: string; ppid: number; pgrp: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so read after the last `)`.
    const [state = '', ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ids = [Number(ppid), Number(pgrp)]
    return ids.every(Number.isInteger) ? { state, ppid: ids[0] as number, pgrp: ids[1] as number } : undefined
  } catch {
    // The process exited while being read.
    return undefined
  }
}

/**
 * Whether a process group still has a member that runs. A zombie (exited, not yet reaped by its parent
 * or by init, which may be slow to do so in a container) counts as ended, as it does in `processAlive`:
 * nothing is left to signal, and waiting for the reaper would hold up `close()` and the host's exit.
 *
 * @example
 * groupRunning(child.pid) // false once the server and what it started have exited
 */
export function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return true
  }
  return entries.some((entry) => {
    if (!/^\d+$/.test(entry)) return false
    const stat = procStat(Number(entry))
    return stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X'
  })
}

function fromPs(): Map<number, number> {
  const parents = new Map<number, number>()
  try {
    const output = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 2000 })
    for (const line of output.split('\n')) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number)
      if (Number.isInteger(pid) && Number.isInteger(ppid)) parents.set(pid as number, ppid as number)
    }
  } catch {
    // No `ps`: only the process group is signalled.
  }
  return parents
}

/**
 * Whether `pid` still runs: it exists and, where `/proc` tells, is not a zombie (killed, waiting for a
 * parent that may never reap it).
 *
 * @example
 * processAlive(process.pid) // true
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  const state = procStat(pid)?.state
  return state !== 'Z' && state !== 'X'
}
