import type { GeminiSchema } from './gemini-schema.js'
import type { LowerState } from './lower-state.js'

export function lowerBounds(
  node: Record<string, unknown>,
  type: 'number' | 'integer',
  result: GeminiSchema,
): void {
  const step = type === 'integer' ? 1 : 0
  copyNumber(node, 'minimum', result)
  copyNumber(node, 'maximum', result)
  // Draft 6+ exclusive bounds are numbers; draft 4's are booleans beside minimum/maximum. For integers the
  // bound is exact (x > 0 is x ≥ 1); for numbers the closed bound is the nearest the subset can say.
  const exclusiveMinimum = node.exclusiveMinimum
  if (isFiniteNumber(exclusiveMinimum)) {
    const bound = nextInteger(exclusiveMinimum, step, 1)
    if (result.minimum === undefined || bound > result.minimum) result.minimum = bound
  } else if (exclusiveMinimum === true && result.minimum !== undefined) {
    result.minimum = nextInteger(result.minimum, step, 1)
  }
  const exclusiveMaximum = node.exclusiveMaximum
  if (isFiniteNumber(exclusiveMaximum)) {
    const bound = nextInteger(exclusiveMaximum, step, -1)
    if (result.maximum === undefined || bound < result.maximum) result.maximum = bound
  } else if (exclusiveMaximum === true && result.maximum !== undefined) {
    result.maximum = nextInteger(result.maximum, step, -1)
  }
}

// `-0` (written as such, or `Math.ceil(-0.5)`) is one value JSON cannot tell from 0, so every bound leaves as 0.
function nextInteger(bound: number, step: number, direction: 1 | -1): number {
  if (step === 0) return bound === 0 ? 0 : bound
  const next = Number.isInteger(bound)
    ? bound + direction
    : direction === 1
      ? Math.ceil(bound)
      : Math.floor(bound)
  return next === 0 ? 0 : next
}

export function copyString(
  node: Record<string, unknown>,
  key: 'title' | 'pattern',
  result: GeminiSchema,
): void {
  const value = node[key]
  if (typeof value === 'string') result[key] = value
}

function copyNumber(node: Record<string, unknown>, key: 'minimum' | 'maximum', result: GeminiSchema): void {
  const value = node[key]
  if (isFiniteNumber(value)) result[key] = value === 0 ? 0 : value
}

export function copyInteger(
  node: Record<string, unknown>,
  key: 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minProperties' | 'maxProperties',
  result: GeminiSchema,
): void {
  const value = node[key]
  if (isFiniteNumber(value) && Number.isSafeInteger(value) && value >= 0) result[key] = value
}

export function copyJson(
  node: Record<string, unknown>,
  key: 'default',
  result: GeminiSchema,
  state: LowerState,
): void {
  if (!Object.hasOwn(node, key)) return
  const copy = cloneJson(node[key], state)
  if (copy !== undefined) result[key] = copy
}

// The output must share nothing with the input (SDKs rewrite request objects in place), and hold only JSON.
export function cloneJson(value: unknown, state: LowerState): unknown {
  if (value === undefined) return undefined
  try {
    const text = JSON.stringify(value)
    if (text === undefined) return undefined
    // A large default costs in proportion to its text, like any other part of the schema.
    state.budget -= text.length >> 6
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export function ownValue(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, writable: true, configurable: true }
}

// The schema's own description, then our notes, each ending as a sentence so they read apart.
export function joinSentences(parts: (string | undefined)[]): string {
  const present = parts.filter((part): part is string => part !== undefined && part.trim() !== '')
  return present
    .map((part, index) =>
      index < present.length - 1 && !/[.!?:]$/.test(part.trim()) ? `${part.trim()}.` : part,
    )
    .join(' ')
}

export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value)
}
