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
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses, so read after the last `)`.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (Number.isInteger(ppid)) parents.set(Number(entry), ppid)
    } catch {
      // The process exited while being read.
    }
  }
  return parents
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
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return true
  }
}
