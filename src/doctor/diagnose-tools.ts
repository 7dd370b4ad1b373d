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
 * What one provider makes of one tool: sent as it is, lowered (and what was lost on the way), or refused
 * (and why).
 *
 * @example
 * const verdict: DoctorVerdict = { status: 'lowered', lost: ['additionalProperties'] }
 */
export type DoctorVerdict =
  | { status: 'as-is' }
  | { status: 'lowered'; lost: readonly string[] }
  | { status: 'refused'; reasons: readonly string[] }

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
  const lost = [
    ...(sentAs === name ? [] : [`tool renamed ${name} → ${sentAs}`]),
    ...lowering.dropped,
    ...lowering.renamed.map((rename) => `renamed ${rename}`),
    ...(lowering.simplified > 0 ? [`${lowering.simplified} parts not expanded (too large or too deep)`] : []),
  ]
  return lost.length === 0 ? { status: 'as-is' } : { status: 'lowered', lost }
}

// OpenAI's function parameters must be an object schema; toOpenAI sends the schema unchanged.
function openAIVerdict(schema: JSONSchema): DoctorVerdict {
  if (!isRecord(schema) || (schema.type !== undefined && schema.type !== 'object')) {
    return { status: 'refused', reasons: ['the root is not type "object"'] }
  }
  return schema.type === undefined
    ? { status: 'lowered', lost: ['nothing lost: type "object" added to the root'] }
    : { status: 'as-is' }
}

function strictVerdict(schema: JSONSchema): DoctorVerdict {
  const conversion = strictCached(schema)
  if (conversion.kind === 'refused') return { status: 'refused', reasons: conversion.reasons }
  if (conversion.lost.length === 0 && canonical(conversion.schema) === canonical(schema))
    return { status: 'as-is' }
  // Rewritten, not lost: every property required (optional ones nullable), additionalProperties false.
  return {
    status: 'lowered',
    lost:
      conversion.lost.length > 0
        ? conversion.lost
        : ['nothing lost: every property listed as required, optional ones as nullable'],
  }
}

function anthropicVerdict(schema: JSONSchema): DoctorVerdict {
  if (!isRecord(schema) || (schema.type !== undefined && schema.type !== 'object')) {
    return { status: 'refused', reasons: ['the root is not type "object"'] }
  }
  const names = isRecord(schema.properties) ? Object.keys(schema.properties) : []
  const renamed = names.filter((name) => !PROPERTY_NAME_PATTERN.test(name))
  const lost = [
    ...(schema.type === undefined ? ['nothing lost: type "object" added to the root'] : []),
    ...renamed.map((name) => `renamed ${name}`),
  ]
  return lost.length === 0 ? { status: 'as-is' } : { status: 'lowered', lost }
}

// JSON text with keys sorted, so that two schemas saying the same compare equal.
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    isRecord(entry) ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1))) : entry,
  )
}
