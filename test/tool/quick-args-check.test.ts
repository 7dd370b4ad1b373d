import { Validator } from '@cfworker/json-schema'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compileQuickArgsCheck } from '../../src/tool/quick-args-check.js'
import type { JSONSchema } from '../../src/tool/types.js'
import { validateArgs } from '../../src/tool/validate-args.js'

const city: JSONSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    city: { type: 'string', description: 'The city.' },
    days: { type: 'integer' },
    unit: { type: 'string', enum: ['c', 'f'] },
    metric: { type: 'boolean', default: true },
  },
  required: ['city'],
  additionalProperties: false,
}

describe('compileQuickArgsCheck', () => {
  it('says yes to arguments that fit a simple schema, and leaves everything else to the full validator', () => {
    const check = compileQuickArgsCheck(city)
    expect(check).toBeTypeOf('function')
    expect(check?.({ city: 'Pune' })).toBe(true)
    expect(check?.({ city: 'Pune', days: 3, unit: 'c', metric: false })).toBe(true)
    expect(check?.({})).toBe(false)
    expect(check?.({ city: 7 })).toBe(false)
    expect(check?.({ city: 'Pune', days: 2.5 })).toBe(false)
    expect(check?.({ city: 'Pune', unit: 'k' })).toBe(false)
    expect(check?.({ city: 'Pune', extra: 1 })).toBe(false)
    expect(check?.(Object.assign(Object.create({ inherited: 1 }), { city: 'Pune' }))).toBe(false)
  })

  it('allows extra arguments unless additionalProperties is false', () => {
    const open = compileQuickArgsCheck({ type: 'object', properties: { a: { type: 'number' } } })
    expect(open?.({ a: 1, b: [1, 2] })).toBe(true)
    expect(open?.({ a: Number.POSITIVE_INFINITY })).toBe(false)
  })

  it.each([
    ['a nested object', { type: 'object', properties: { a: { type: 'object' } } }],
    ['an array', { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } } }],
    ['a string constraint', { type: 'object', properties: { a: { type: 'string', minLength: 2 } } }],
    ['a format', { type: 'object', properties: { a: { type: 'string', format: 'email' } } }],
    ['a nullable type', { type: 'object', properties: { a: { type: ['string', 'null'] } } }],
    ['an untyped property', { type: 'object', properties: { a: {} } }],
    ['an enum of objects', { type: 'object', properties: { a: { enum: [{ x: 1 }] } } }],
    [
      'a $ref',
      { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } },
    ],
    ['a schema of additional properties', { type: 'object', additionalProperties: { type: 'string' } }],
    ['a union at the root', { anyOf: [{ type: 'object' }] }],
  ])('declines %s', (_label, schema) => {
    expect(compileQuickArgsCheck(schema as JSONSchema)).toBeUndefined()
  })

  it('agrees with the full validator on generated simple schemas and arguments', () => {
    const scalar = fc.oneof(
      fc.string({ maxLength: 3 }),
      fc.integer({ min: -3, max: 3 }),
      fc.double({ min: -3, max: 3, noNaN: true }),
      fc.boolean(),
    )
    const property = fc.record(
      {
        type: fc.constantFrom('string', 'number', 'integer', 'boolean'),
        enum: fc.array(scalar, { minLength: 1, maxLength: 3 }),
        description: fc.string({ maxLength: 5 }),
      },
      { requiredKeys: [] },
    )
    const names = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor')
    const schema = fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(names, property, { maxKeys: 3 }),
        required: fc.array(names, { maxLength: 3 }),
        additionalProperties: fc.boolean(),
      },
      { requiredKeys: ['type'] },
    )
    const argsOf = fc.dictionary(names, fc.oneof(scalar, fc.constant(null), fc.constant([1])), { maxKeys: 4 })
    fc.assert(
      fc.property(schema, argsOf, (raw, rawArgs) => {
        // Through JSON, as arguments and schemas arrive: `__proto__` becomes an own key, as from a model.
        const target = JSON.parse(JSON.stringify(raw)) as JSONSchema
        const args = JSON.parse(JSON.stringify(rawArgs)) as Record<string, unknown>
        const check = compileQuickArgsCheck(target)
        if (check === undefined) return !Object.values(target.properties ?? {}).every(isTypedOrEnum)
        const full = new Validator(target as ConstructorParameters<typeof Validator>[0], '7', false)
        return check(args) === full.validate(args).valid
      }),
      { numRuns: 2000 },
    )
  })

  it('keeps validateArgs exact: the quick yes never hides a problem', () => {
    expect(validateArgs(city, { city: 'Pune', days: 3 })).toBeUndefined()
    expect(validateArgs(city, { city: 'Pune', days: 'three' })).toBe(
      'days: Instance type "string" is invalid. Expected "integer".',
    )
    expect(validateArgs(city, { city: 'Pune', x: 1 })).toBe('x: unknown argument (not in the schema)')
  })
})

function isTypedOrEnum(property: unknown): boolean {
  const value = property as { type?: unknown; enum?: unknown }
  return value.type !== undefined || value.enum !== undefined
}
