import { type OutputUnit, Validator } from '@cfworker/json-schema'
import { compileQuickArgsCheck, type QuickArgsCheck } from './quick-args-check.js'
import type { JSONSchema } from './types.js'

interface CompiledSchema {
  /** The fast yes for simple schemas, when the schema is simple. */
  quick: QuickArgsCheck | undefined
  /** The full validator, made the first time it is needed. */
  full: Validator | undefined
}

// Compiled once per schema object; tools keep their schema for life, so a WeakMap never goes stale.
const compiled = new WeakMap<JSONSchema, CompiledSchema>()

// Errors that only say "a child failed"; the child's own error says more.
const wrapperKeywords = new Set([
  'properties',
  'items',
  'prefixItems',
  'false',
  '$ref',
  'allOf',
  'additionalItems',
])

/**
 * Checks tool-call arguments against a tool's JSON Schema without generating code, so it also runs on
 * edge runtimes. Returns `undefined` when they fit, else one line per problem naming the argument.
 *
 * @example
 * validateArgs({ type: 'object', required: ['city'] }, {}) // 'city: required argument is missing'
 */
export function validateArgs(schema: JSONSchema, args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return `arguments must be a JSON object, got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : typeof args}`
  }
  let entry = compiled.get(schema)
  if (entry === undefined) {
    entry = { quick: compileQuickArgsCheck(schema), full: undefined }
    compiled.set(schema, entry)
  }
  if (entry.quick?.(args as Record<string, unknown>) === true) return undefined
  entry.full ??= new Validator(schema as ConstructorParameters<typeof Validator>[0], draftOf(schema), false)
  const { valid, errors } = entry.full.validate(args)
  if (valid) return undefined
  const lines = [...new Set(errors.flatMap(describe))]
  return lines.length > 0 ? lines.join('; ') : 'arguments do not match the schema'
}

function describe(unit: OutputUnit): string[] {
  const path = unit.instanceLocation.replace(/^#\/?/, '').replaceAll('/', '.')
  const at = (name: string): string => (path ? `${path}.${name}` : name)
  switch (unit.keyword) {
    case 'required': {
      const missing = /property "(.*)"/.exec(unit.error)?.[1] ?? '?'
      return [`${at(missing)}: required argument is missing`]
    }
    case 'additionalProperties': {
      const extra = /Property "(.*)" does not match/.exec(unit.error)?.[1] ?? '?'
      return [`${at(extra)}: unknown argument (not in the schema)`]
    }
    default:
      if (wrapperKeywords.has(unit.keyword)) return []
      return [`${path || '(arguments)'}: ${unit.error}`]
  }
}

// Schemas from zod and most MCP servers declare draft-07, where `items` arrays mean tuples.
function draftOf(schema: JSONSchema): '4' | '7' | '2019-09' | '2020-12' {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (declared.includes('draft-04')) return '4'
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7'
  if (declared.includes('2019-09')) return '2019-09'
  return '2020-12'
}
