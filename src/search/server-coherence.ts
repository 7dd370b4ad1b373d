import { BestScores } from './best-scores.js'

/** A candidate of a ranking: its name, its score, and the server it belongs to (none for a native tool). */
export interface Candidate {
  name: string
  score: number
  server: string | undefined
}

/**
 * Re-ranks `candidates` (best first) so that a server several of whose tools matched lifts all of them:
 * each tool's score, scaled so the best candidate scores 1, gains `weight` times the sum of its server's
 * `members` best scaled scores among the candidates. A request that needs a server's tools together
 * (open a page, fill a field, read the page) finds them together, where each alone matched only part
 * of it. A native tool, or the one match of a server, is only scaled.
 *
 * @example
 * withServerCoherence(
 *   [
 *     { name: 'browser_open', score: 2, server: 'browser' },
 *     { name: 'price_lookup', score: 1.9, server: 'prices' },
 *     { name: 'browser_read', score: 1.8, server: 'browser' },
 *   ],
 *   { weight: 0.3, members: 2, limit: 2 },
 * ) // browser_open, then browser_read
 */
export function withServerCoherence(
  candidates: readonly Candidate[],
  options: { weight: number; members: number; limit: number },
): Array<{ name: string; score: number }> {
  const { weight, members, limit } = options
  const best = candidates[0]?.score ?? 0
  if (weight === 0 || best <= 0) return candidates.slice(0, limit).map(({ name, score }) => ({ name, score }))
  // Candidates come best first, so each server's first `members` are its best.
  const servers = new Map<string, { sum: number; counted: number }>()
  for (const { server, score } of candidates) {
    if (server === undefined) continue
    const known = servers.get(server) ?? { sum: 0, counted: 0 }
    if (known.counted < members) {
      known.sum += score / best
      known.counted++
    }
    servers.set(server, known)
  }
  const ranked = new BestScores(limit)
  for (const { name, score, server } of candidates) {
    const known = server === undefined ? undefined : servers.get(server)
    // One match is no sign that the server's tools go together: it ranks as a native tool would.
    const together = known === undefined || known.counted < 2 ? 0 : known.sum
    ranked.offer(name, score / best + weight * together)
  }
  return [...ranked.list()]
}
