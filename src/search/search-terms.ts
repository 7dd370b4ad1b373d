import { stemmer } from '@orama/stemmers/english'
import { stopwords } from '@orama/stopwords/english'

// Words that say a request wants something done, not what: they appear in nearly every request and in
// many tool descriptions, so they only add noise to the ranking.
const REQUEST_WORDS = [
  'can',
  'could',
  'would',
  'please',
  'help',
  'want',
  'need',
  'like',
  'tell',
  'give',
  'let',
  'know',
  'also',
  'use',
  'using',
  'tool',
  'tools',
  'via',
  'etc',
  'some',
  'any',
  'me',
]
const STOP_WORDS = new Set([...stopwords, ...REQUEST_WORDS])

const NON_ASCII = /[^\p{ASCII}]/u
// A word, split at camel-case humps: `getHTTPResponse` → get, HTTP, Response.
const WORD = /\p{Lu}+(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{Lo}\p{Lm}\p{Lt}\p{M}]+|\p{N}+/gu
// The same over text that is all ASCII (most tool text): the same words, found faster.
const ASCII_WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g
// Scripts written without spaces between words: only their runs go through the (slower) segmenter.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
// Stems already computed: a tool set's vocabulary is small and stemming is the costly step.
const MAX_CACHED_STEMS = 50_000
const stems = new Map<string, string>()

let segmenter: Intl.Segmenter | undefined

/**
 * Splits text into lower-case words: identifiers at `_`, `-`, `.` and camel-case humps, text in scripts
 * written without spaces (Chinese, Japanese, Thai, …) by `Intl.Segmenter` into its words.
 */
function splitWords(text: string): string[] {
  if (!NON_ASCII.test(text)) {
    const words = text.match(ASCII_WORD) ?? []
    for (let at = 0; at < words.length; at++) words[at] = (words[at] as string).toLowerCase()
    return words
  }
  const words: string[] = []
  for (const match of text.matchAll(WORD)) {
    const run = match[0]
    if (!NON_ASCII.test(run) || !UNSPACED.test(run)) {
      words.push(run.toLowerCase())
      continue
    }
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' })
    for (const part of segmenter.segment(run)) {
      if (part.isWordLike === true) words.push(part.segment.toLowerCase())
    }
  }
  return words
}

/**
 * The index terms of a text: its words without stop words, English words stemmed; words of other
 * scripts kept as the segmenter found them.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = []
  const ascii = !NON_ASCII.test(text)
  for (const word of splitWords(text)) {
    if (STOP_WORDS.has(word)) continue
    if (!ascii && NON_ASCII.test(word)) {
      terms.push(word)
      continue
    }
    if (word.length === 1) continue
    terms.push(stem(word))
  }
  return terms
}

/**
 * The words of a text as they are written (lower case, not stemmed), without stop words: what word
 * vectors are looked up by.
 */
export function searchWords(text: string): string[] {
  return splitWords(text).filter((word) => word.length > 1 && !STOP_WORDS.has(word))
}

function stem(word: string): string {
  let stemmed = stems.get(word)
  if (stemmed !== undefined) return stemmed
  stemmed = stemmer(word)
  if (stems.size >= MAX_CACHED_STEMS) stems.clear()
  stems.set(word, stemmed)
  return stemmed
}
