import { lowerCached } from '../adapters/to-gemini.js'
import { strictCached } from '../adapters/to-openai.js'
import { isRecord } from '../shared/is-record.js'
import { geminiToolName } from '../tool/names.js'
import { PROPERTY_NAME_PATTERN } from '../tool/property-names.js'
import type { JSONSchema, Tool, ToolSource } from '../tool/types.js'

/**
 * The providers `doctor` checks: Gemini (lowered `parameters`), OpenAI (as sent by `toOpenAI`), OpenAI in
 * strict mode, and Anthropic.
 *
 * @example
 * const provider: DoctorProvider = 'openai-strict'
 */
export type DoctorProvider = 'gemini' | 'openai' | 'openai-strict' | 'anthropic'

/** Every provider `doctor` knows, in report order. */
export const DOCTOR_PROVIDERS: readonly DoctorProvider[] = ['gemini', 'openai', 'openai-strict', 'anthropic']

/**
 * What one provider makes of one tool: sent as it is; adapted to the provider's rules (`changes`: what was
 * rewritten without losing anything, `lost`: what the provider's form cannot say, often nothing); or
 * refused (and why).
 *
 * @example
 * const verdict: DoctorVerdict = {
 *   status: 'adapted',
 *   changes: ['every property listed as required, optional ones as nullable'],
 *   lost: ['minLength'],
 * }
 */
export type DoctorVerdict =
  | { status: 'as-is' }
  | { status: 'adapted'; changes: readonly string[]; lost: readonly string[] }
  | { status: 'refused'; reasons: readonly string[] }
  | DeprecatedLoweredVerdict

/**
 * @deprecated `doctor` reports an adapted tool as `{ status: 'adapted', changes, lost }`; this older form
 * is still part of the type so code written against it compiles, but is no longer produced.
 *
 * @example
 * const old: DeprecatedLoweredVerdict = { status: 'lowered', lost: ['pattern'] } // read it as 'adapted'
 */
export interface DeprecatedLoweredVerdict {
  status: 'lowered'
  lost: readonly string[]
}

/** One tool's verdict from each provider. */
export interface DoctorToolReport {
  name: string
  source: ToolSource
  providers: Record<DoctorProvider, DoctorVerdict>
}

/**
 * What `tk.doctor()` found: per tool and per provider, whether the tool goes as it is, lowered or not at all.
 *
 * @example
 * const report = tk.doctor()
 * report.tools.filter((tool) => tool.providers.gemini.status === 'refused')
 */
export interface DoctorReport {
  tools: DoctorToolReport[]
  /** How many (tool, provider) pairs are refused, per provider. */
  refused: Record<DoctorProvider, number>
}

/**
 * Checks each tool against each provider's schema rules, with the same conversions the adapters use: what
 * `toGemini`, `toOpenAI`, `toOpenAI(tools, { strict: true })` and `toAnthropic` would send, and whether the
 * provider would take it. Never throws.
 *
 * @example
 * const report = diagnoseTools(tk.tools())
 * report.refused.anthropic // 0
 */
export function diagnoseTools(tools: readonly Tool[]): DoctorReport {
  const refused: Record<DoctorProvider, number> = { gemini: 0, openai: 0, 'openai-strict': 0, anthropic: 0 }
  const reports = tools.map((tool): DoctorToolReport => {
    const providers: Record<DoctorProvider, DoctorVerdict> = {
      gemini: guard(() => geminiVerdict(tool.name, tool.inputSchema)),
      openai: guard(() => openAIVerdict(tool.inputSchema)),
      'openai-strict': guard(() => strictVerdict(tool.inputSchema)),
      anthropic: guard(() => anthropicVerdict(tool.inputSchema)),
    }
    for (const provider of DOCTOR_PROVIDERS)
      if (providers[provider].status === 'refused') refused[provider] += 1
    return { name: tool.name, source: tool.source, providers }
  })
  return { tools: reports, refused }
}

function guard(check: () => DoctorVerdict): DoctorVerdict {
  try {
    return check()
  } catch (error) {
    return { status: 'refused', reasons: [`the schema cannot be read (${String(error)})`] }
  }
}

// Gemini takes whatever toGemini sends (the lowering always lands inside its subset); the question is
// what the subset could not say.
function geminiVerdict(name: string, schema: JSONSchema): DoctorVerdict {
  const lowering = lowerCached(schema)
  const sentAs = geminiToolName(name)
  const changes = [
    ...(sentAs === name ? [] : [`tool renamed ${name} → ${sentAs}`]),
    ...lowering.renamed.map((rename) => `renamed ${rename}`),
  ]
  const lost = [
    ...lowering.dropped,
    ...(lowering.simplified > 0 ? [`${lowering.simplified} parts not expanded (too large or too deep)`] : []),
  ]
  return adapted(changes, lost)
}

function adapted(changes: readonly string[], lost: readonly string[]): DoctorVerdict {
  return changes.length === 0 && lost.length === 0
    ? { status: 'as-is' }
    : { status: 'adapted', changes, lost }
}

const OBJECT_ADDED = 'type "object" added to the root'

// OpenAI's function parameters must be an object schema; toOpenAI sends the schema unchanged.
function openAIVerdict(schema: JSONSchema): DoctorVerdict {
  if (!isRecord(schema) || (schema.type !== undefined && schema.type !== 'object')) {
    return { status: 'refused', reasons: ['the root is not type "object"'] }
  }
  return adapted(schema.type === undefined ? [OBJECT_ADDED] : [], [])
}

function strictVerdict(schema: JSONSchema): DoctorVerdict {
  const conversion = strictCached(schema)
  if (conversion.kind === 'refused') return { status: 'refused', reasons: conversion.reasons }
  // A free-form part goes as JSON text and is decoded back before `execute`: changed, not lost.
  const asText = conversion.lost.filter((entry) => entry.endsWith(' as JSON text'))
  const lost = conversion.lost.filter((entry) => !entry.endsWith(' as JSON text'))
  const rewritten = canonical(conversion.schema) !== canonical(schema)
  return adapted(
    [...(rewritten ? ['every property listed as required, optional ones as nullable'] : []), ...asText],
    lost,
  )
}

function anthropicVerdict(schema: JSONSchema): DoctorVerdict {
  if (!isRecord(schema) || (schema.type !== undefined && schema.type !== 'object')) {
    return { status: 'refused', reasons: ['the root is not type "object"'] }
  }
  const names = isRecord(schema.properties) ? Object.keys(schema.properties) : []
  const renamed = names.filter((name) => !PROPERTY_NAME_PATTERN.test(name))
  return adapted(
    [...(schema.type === undefined ? [OBJECT_ADDED] : []), ...renamed.map((name) => `renamed ${name}`)],
    [],
  )
}

// JSON text with keys sorted, so that two schemas saying the same compare equal.
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    isRecord(entry) ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1))) : entry,
  )
}
