/** How the fields weigh against each other, and how a query term may match. */
export interface RankingWeights {
  name: number
  description: number
  params: number
  source: number
  /** BM25's term-frequency saturation and length normalization. */
  k: number
  b: number
  /** A query keeps at most this many of its terms, the rarest: each costs a pass over its postings. */
  maxQueryTerms: number
  /**
   * How many tools a query's terms may reach together, counted over each term's tools: the rarest terms
   * are kept until the next would pass it (the rarest is always kept). It bounds a query's work on a
   * large index: over a few hundred tools a query seldom reaches it; over 10,000, a long request is
   * searched by its rarest terms.
   */
  maxPostings: number
  /**
   * With word vectors: how much the cosine of the query's and a tool's meaning adds to the full-text
   * score (which is scaled so that the best match scores 1).
   */
  meaning: number
  /** With word vectors: how many full-text matches are mixed with the meaning of every tool. */
  fullTextDepth: number
  /** How much a query term said more than once gains: its weight is multiplied by 1 + this × ln(times said). */
  repeated: number
  /** With word vectors: how many tools, nearest in meaning over all tools, are mixed with the full-text matches. */
  meaningDepth: number
  /**
   * How much a server whose tools matched together lifts each of them (`withServerCoherence`): times the
   * sum of its best `coherenceMembers` scores, each scaled so the best match scores 1. 0 turns it off.
   */
  coherence: number
  coherenceMembers: number
  /** How many matches the server coherence re-ranks (at least the search's limit). */
  coherenceDepth: number
}

export const DEFAULT_WEIGHTS: RankingWeights = {
  name: 3,
  description: 1.5,
  params: 0.5,
  source: 1,
  k: 1.2,
  b: 0.5,
  maxQueryTerms: 32,
  maxPostings: 1_000,
  meaning: 2,
  fullTextDepth: 50,
  repeated: 1,
  meaningDepth: 50,
  coherence: 0.3,
  coherenceMembers: 2,
  coherenceDepth: 50,
}
