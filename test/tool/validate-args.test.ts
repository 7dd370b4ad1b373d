import { describe, expect, it } from 'vitest'
import type { JSONSchema } from '../../src/tool/types.js'
import { validateArgs } from '../../src/tool/validate-args.js'

const schema: JSONSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2 },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    unit: { enum: ['c', 'f'] },
    filter: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['city'],
  additionalProperties: false,
}

describe('validateArgs: each problem names the argument and says why', () => {
  it.each([
    { label: 'arguments that fit', args: { city: 'Chennai', days: 3 }, expected: undefined },
    { label: 'a missing required argument', args: {}, expected: 'city: required argument is missing' },
    {
      label: 'a wrong type',
      args: { city: 'Chennai', days: 'three' },
      expected: 'days: Instance type "string" is invalid. Expected "integer".',
    },
    {
      label: 'a number out of range',
      args: { city: 'Chennai', days: 9 },
      expected: 'days: 9 is greater than 7.',
    },
    {
      label: 'a value outside the enum',
      args: { city: 'Chennai', unit: 'k' },
      expected: 'unit: Instance does not match any of ["c","f"].',
    },
    {
      label: 'an unknown argument',
      args: { city: 'Chennai', colour: 'red' },
      expected: 'colour: unknown argument (not in the schema)',
    },
    {
      label: 'a nested missing argument gets its path',
      args: { city: 'Chennai', filter: {} },
      expected: 'filter.tag: required argument is missing',
    },
    {
      label: 'an array item gets its index',
      args: { city: 'Chennai', tags: ['a', 2] },
      expected: 'tags.1: Instance type "number" is invalid. Expected "string".',
    },
    {
      label: 'several problems, one per line joined',
      args: { days: 0 },
      expected: 'city: required argument is missing; days: 0 is less than 1.',
    },
  ])('$label', ({ args, expected }) => {
    expect(validateArgs(schema, args)).toBe(expected)
  })

  it.each([
    { args: null, expected: 'arguments must be a JSON object, got null' },
    { args: [], expected: 'arguments must be a JSON object, got an array' },
    { args: 'text', expected: 'arguments must be a JSON object, got string' },
  ])('non-object arguments: $expected', ({ args, expected }) => {
    expect(validateArgs(schema, args)).toBe(expected)
  })
})
