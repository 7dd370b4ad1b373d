// Reads a V8 .cpuprofile and prints where the time went: self time by function, and inclusive time by
// source file (so a library's own files stand out from its dependencies').
//
//   node dist/harness/summarize-profile.js <file.cpuprofile> [top=25] [filter=substring of a URL]

import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
  children?: number[]
}

interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

const [file, topArgument = '25', filter = ''] = process.argv.slice(2)
if (file === undefined) throw new Error('usage: summarize-profile <file.cpuprofile> [top] [url filter]')
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const top = Number(topArgument)
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)

const short = (url: string): string => url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '~/')
const selfTime = new Map<string, number>()
const inclusiveByFile = new Map<string, number>()
let total = 0
profile.samples.forEach((sample, index) => {
  const delta = (profile.timeDeltas[index] ?? 0) / 1000
  total += delta
  const node = byId.get(sample)
  if (node === undefined) return
  const frame = node.callFrame
  const key = `${frame.functionName || '(anonymous)'}  ${short(frame.url)}:${frame.lineNumber + 1}`
  selfTime.set(key, (selfTime.get(key) ?? 0) + delta)
  const seen = new Set<string>()
  for (let current: number | undefined = sample; current !== undefined; current = parent.get(current)) {
    const url = byId.get(current)?.callFrame.url ?? ''
    if (url === '' || seen.has(url)) continue
    seen.add(url)
    inclusiveByFile.set(url, (inclusiveByFile.get(url) ?? 0) + delta)
  }
})

const print = (title: string, entries: Map<string, number>, keep: (key: string) => boolean): void => {
  process.stdout.write(`\n${title}\n`)
  for (const [key, ms] of [...entries]
    .filter(([key]) => keep(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    process.stdout.write(
      `${ms.toFixed(0).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${short(key)}\n`,
    )
  }
}
process.stdout.write(`total sampled: ${total.toFixed(0)} ms\n`)
print('self time by function', selfTime, (key) => key.includes(filter))
print('inclusive time by file', inclusiveByFile, (key) => key.includes(filter))
