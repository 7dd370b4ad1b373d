import { RE2JS } from 're2js'

/** A schema `pattern` compiled for a linear-time engine: `test` searches the text, as JSON Schema asks. */
export interface LinearTimePattern {
  test(text: string): boolean
}

/** The longest `pattern` accepted; longer ones are refused rather than compiled. */
const MAX_PATTERN_LENGTH = 10_000

// Compiled patterns, shared by every schema that uses the same source; bounded, oldest dropped first.
const CACHE_LIMIT = 1_000
const cache = new Map<string, LinearTimePattern | string>()

/**
 * Compiles a JSON Schema `pattern` (ECMA-262 syntax) for RE2JS, a pure-JavaScript port of RE2: matching
 * takes time linear in the text whatever the pattern (`^(a+)+$` against `'a'×30 + '!'` does not
 * backtrack), it needs no code generation, so it runs on edge runtimes too. Returns the compiled
 * pattern, or the reason it cannot be evaluated in linear time (a lookaround, a backreference, a
 * repetition count over 1,000, a pattern longer than {@link MAX_PATTERN_LENGTH}).
 *
 * @example
 * const pattern = compileLinearTimePattern('^[a-z]+$')
 * typeof pattern !== 'string' && pattern.test('abc') // true
 * compileLinearTimePattern('(a)\\1') // 'uses a feature a linear-time engine cannot evaluate (…)'
 */
export function compileLinearTimePattern(source: string): LinearTimePattern | string {
  const cached = cache.get(source)
  if (cached !== undefined) return cached
  const compiled = compile(source)
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(source, compiled)
  return compiled
}

function compile(source: string): LinearTimePattern | string {
  if (source.length > MAX_PATTERN_LENGTH) {
    return `is ${source.length} characters long (the limit is ${MAX_PATTERN_LENGTH})`
  }
  try {
    const re2 = RE2JS.compile(RE2JS.translateRegExp(source))
    return { test: (text) => re2.test(text) }
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : ''
    return `uses a feature a linear-time engine cannot evaluate (${detail || 'unsupported syntax'}); lookarounds and backreferences are not supported`
  }
}
