// Recall of a ranking on the two benchmarks: MetaTool's share of requests whose tool is in the top k, and
// LiveMCPBench's task recall (the share of a task's annotated tools in the top k, over all tasks).

import type { ToolMatch } from '../../src/search/tool-index.js'
import type { Part, SearchDataSet } from './search-data.js'

export type Ranker = (query: string, limit: number) => ToolMatch[] | Promise<ToolMatch[]>

/** Recall at each k, over the requests of one part. */
export async function recallAt(options: {
  data: SearchDataSet
  rank: Ranker
  part: Part
  ks: readonly number[]
}): Promise<Record<number, number>> {
  const { data, rank, part, ks } = options
  const deepest = Math.max(...ks)
  const found = Object.fromEntries(ks.map((k) => [k, 0])) as Record<number, number>
  let wanted = 0
  for (const query of data.queries) {
    if (query.part !== part) continue
    const names = (await rank(query.query, deepest)).map((match) => data.answerName(match.name))
    wanted += query.expected.length
    for (const k of ks) {
      const top = new Set(names.slice(0, k))
      found[k] = (found[k] ?? 0) + query.expected.filter((name) => top.has(name)).length
    }
  }
  return Object.fromEntries(ks.map((k) => [k, wanted === 0 ? 0 : (found[k] ?? 0) / wanted])) as Record<
    number,
    number
  >
}
