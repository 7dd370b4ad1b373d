// Where a request moves on to its next step: the end of a sentence, a semicolon or colon, a line break,
// and a comma or word that joins clauses (", and", "then", "and then", "after that", "finally", "also").
const STEP_BREAK =
  /[.!?;:\n]+(?=\s|$)|,?\s+(?:and\s+)?then\s+|,\s*(?:and|also|finally|after\s+that|afterwards|next)\s+|\s+(?:and\s+)?(?:after\s+that|afterwards|finally)\s*,?\s+|,\s+/i

/**
 * The steps of a request that asks for several things ("Read the sales data, plot it as a bar chart and
 * then save it"): its sentences and clauses, in order, each with at least `minWords` words (a shorter
 * piece joins the step before it, or the first step the one after). A request of one step gives `[]`.
 *
 * @example
 * queryParts('Read /root/a.xlsx, plot it as a bar chart and then save it as a PNG', 2)
 * // ['Read /root/a.xlsx', 'plot it as a bar chart', 'save it as a PNG']
 */
export function queryParts(query: string, minWords: number): string[] {
  const parts: string[] = []
  let carry = ''
  for (const piece of query.split(new RegExp(STEP_BREAK.source, 'gi'))) {
    const text = `${carry} ${piece ?? ''}`.trim()
    if (text === '') continue
    if (wordCount(text) < minWords) {
      carry = text
      continue
    }
    parts.push(text)
    carry = ''
  }
  if (carry !== '') {
    if (parts.length === 0) parts.push(carry)
    else parts[parts.length - 1] = `${parts[parts.length - 1]} ${carry}`
  }
  return parts.length > 1 ? parts : []
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /\p{L}|\p{N}/u.test(word)).length
}

/**
 * One ranking of a request of several steps: the whole request's first `wholeFirst` tools, then the rest
 * of its ranking and each step's ranking taken in turn, rank by rank, each tool once, at most `limit`.
 *
 * @example
 * mergeStepRankings([a, b, c], [[d, a], [e]], 1, 4) // [a, d, e, b]
 */
export function mergeStepRankings<T extends { name: string }>(
  whole: readonly T[],
  steps: ReadonlyArray<readonly T[]>,
  wholeFirst: number,
  limit: number,
): T[] {
  const merged = whole.slice(0, Math.min(wholeFirst, limit))
  const seen = new Set(merged.map((match) => match.name))
  const rankings = [whole, ...steps]
  const deepest = Math.max(...rankings.map((ranking) => ranking.length))
  for (let rank = 0; rank < deepest && merged.length < limit; rank++) {
    for (const ranking of rankings) {
      const match = ranking[rank]
      if (match === undefined || seen.has(match.name) || merged.length >= limit) continue
      seen.add(match.name)
      merged.push(match)
    }
  }
  return merged
}
