import { describe, expect, it } from 'vitest'
import { checkArgs } from '../../src/tool/check-args.js'
import { dropOptionalNulls } from '../../src/tool/drop-optional-nulls.js'

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    days: { type: 'integer' },
    note: { type: ['string', 'null'] },
    filter: { $ref: '#/$defs/Filter' },
  },
  required: ['city'],
  $defs: { Filter: { type: 'object', properties: { tag: { type: 'string' } } } },
}

describe('dropOptionalNulls', () => {
  it.each([
    {
      case: 'null for an optional property becomes absent',
      args: { city: 'x', days: null },
      expected: { city: 'x' },
    },
    {
      case: 'a null the schema allows is kept',
      args: { city: 'x', note: null },
      expected: { city: 'x', note: null },
    },
    {
      case: 'a required property keeps its null (and fails validation)',
      args: { city: null },
      expected: { city: null },
    },
    {
      case: 'nested objects, through a $ref',
      args: { city: 'x', filter: { tag: null } },
      expected: { city: 'x', filter: {} },
    },
  ])('$case', ({ args, expected }) => {
    expect(dropOptionalNulls(schema, args)).toStrictEqual(expected)
  })

  it('returns the same object when nothing changes', () => {
    const args = { city: 'x', days: 2 }
    expect(dropOptionalNulls(schema, args)).toBe(args)
  })
})

describe('checkArgs with a strict-mode answer', () => {
  it('runs with null read as absent', () => {
    expect(checkArgs(schema, { city: 'x', days: null, filter: null })).toStrictEqual({ city: 'x' })
  })

  it('still refuses a null for a required argument', () => {
    expect(typeof checkArgs(schema, { city: null })).toBe('string')
  })
})
