import { type OutputUnit, Validator } from '@cfworker/json-schema'
import {
  collectPropertyNames,
  PATTERN_FORMAT_PREFIX,
  toValidationSchema,
  withLiteralPatternProperties,
} from './linear-time-schema.js'
import { compileQuickArgsCheck, type QuickArgsCheck } from './quick-args-check.js'
import type { JSONSchema } from './types.js'

type Draft = '4' | '7' | '2019-09' | '2020-12'

interface CompiledSchema {
  /** The fast yes for simple schemas, when the schema is simple. */
  quick: QuickArgsCheck | undefined
  /** The full validator, made the first time it is needed. */
  full: FullValidator | undefined
}

// Compiled once per schema object; tools keep their schema for life, so a WeakMap never goes stale.
const compiled = new WeakMap<JSONSchema, CompiledSchema>()

// Errors that only say "a child failed"; the child's own error says more.
const wrapperKeywords = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'false',
  '$ref',
  'allOf',
  'additionalItems',
])

/** Problems listed in one answer; the rest are counted. */
const MAX_PROBLEMS = 20
/** Characters of one problem's text (an enum listing can be a million). */
const MAX_PROBLEM_CHARS = 300
/** Characters of an argument's path within it. */
const MAX_PATH_CHARS = 100

/**
 * Checks tool-call arguments against a tool's JSON Schema without generating code, so it also runs on
 * edge runtimes; `pattern` and `patternProperties` are matched by a linear-time engine. Returns
 * `undefined` when they fit, else one line per problem naming the argument (at most 20 problems, each
 * cut at 300 characters). Internal: tools and the toolkit check arguments through `checkArgs`.
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
  entry.full ??= fullValidator(schema)
  const validator = entry.full.hasPatternProperties
    ? new Validator(
        withLiteralPatternProperties(entry.full.schema, collectPropertyNames(args)) as ValidatorSchema,
        entry.full.draft,
        false,
      )
    : entry.full.validator
  const { valid, errors } = validator.validate(args)
  if (valid) return undefined
  const lines = [...new Set(errors.flatMap(describe))]
  if (lines.length === 0) return 'arguments do not match the schema'
  const shown = lines.slice(0, MAX_PROBLEMS).join('; ')
  return lines.length > MAX_PROBLEMS ? `${shown}; … and ${lines.length - MAX_PROBLEMS} more problems` : shown
}

type ValidatorSchema = ConstructorParameters<typeof Validator>[0]

interface FullValidator {
  validator: Validator
  schema: JSONSchema
  draft: Draft
  hasPatternProperties: boolean
}

function fullValidator(schema: JSONSchema): FullValidator {
  const draft = draftOf(schema)
  const prepared = toValidationSchema(schema)
  return {
    validator: new Validator(prepared.schema as ValidatorSchema, draft, false),
    schema: prepared.schema,
    draft,
    hasPatternProperties: prepared.hasPatternProperties,
  }
}

function describe(unit: OutputUnit): string[] {
  const path = shorten(unit.instanceLocation.replace(/^#\/?/, '').replaceAll('/', '.'))
  const at = (name: string): string => shorten(path ? `${path}.${name}` : name)
  switch (unit.keyword) {
    case 'required': {
      const missing = /property "(.*)"/.exec(unit.error)?.[1] ?? '?'
      return [clip(`${at(missing)}: required argument is missing`)]
    }
    case 'additionalProperties': {
      const extra = /Property "(.*)" does not match/.exec(unit.error)?.[1] ?? '?'
      return [clip(`${at(extra)}: unknown argument (not in the schema)`)]
    }
    case 'format': {
      const named = /^String does not match format "(.*)"\.$/s.exec(unit.error)?.[1]
      if (named?.startsWith(PATTERN_FORMAT_PREFIX)) {
        const pattern = named.slice(PATTERN_FORMAT_PREFIX.length)
        return [clip(`${path || '(arguments)'}: must match the pattern ${JSON.stringify(pattern)}`)]
      }
      return [clip(`${path || '(arguments)'}: ${unit.error}`)]
    }
    default:
      if (wrapperKeywords.has(unit.keyword)) return []
      return [clip(`${path || '(arguments)'}: ${unit.error}`)]
  }
}

// An argument's path, cut so that a hostile 5,000-character name still leaves room for the reason.
function shorten(path: string): string {
  return path.length <= MAX_PATH_CHARS ? path : `${path.slice(0, MAX_PATH_CHARS)}…`
}

function clip(line: string): string {
  return line.length <= MAX_PROBLEM_CHARS
    ? line
    : `${line.slice(0, MAX_PROBLEM_CHARS)}… (${line.length - MAX_PROBLEM_CHARS} more characters)`
}

// Schemas from zod and most MCP servers declare draft-07, where `items` arrays mean tuples.
function draftOf(schema: JSONSchema): Draft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (declared.includes('draft-04')) return '4'
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7'
  if (declared.includes('2019-09')) return '2019-09'
  return '2020-12'
}
