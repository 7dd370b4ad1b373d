import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkArgs } from '../../src/tool/check-args.js'
import { fillRequiredDefaults } from '../../src/tool/fill-required-defaults.js'
import type { JSONSchema } from '../../src/tool/types.js'

// Playwright MCP's `browser_take_screenshot`, as the server lists it: `scale` is required and has a default.
const playwright: Array<{ name: string; inputSchema: JSONSchema }> = JSON.parse(
  readFileSync(new URL('../fixtures/third-party-schemas/playwright-mcp.json', import.meta.url), 'utf8'),
)
const screenshot = playwright.find((tool) => tool.name === 'browser_take_screenshot')?.inputSchema ?? {}

const schema: JSONSchema = {
  type: 'object',
  properties: {
    scale: { type: 'string', enum: ['css', 'device'], default: 'css' },
    size: { $ref: '#/$defs/Size' },
    tags: { type: 'array', items: { $ref: '#/$defs/Tag' } },
    note: { type: 'string', default: 'none' },
  },
  required: ['scale'],
  $defs: {
    Size: {
      type: 'object',
      properties: { width: { type: 'integer', default: 800 } },
      required: ['width'],
    },
    Tag: { type: 'object', properties: { label: { type: 'string', default: 'x' } }, required: ['label'] },
  },
}

describe('fillRequiredDefaults', () => {
  it.each([
    { case: 'a required property left out gets its default', args: {}, expected: { scale: 'css' } },
    { case: 'a value given is kept', args: { scale: 'device' }, expected: { scale: 'device' } },
    {
      case: 'an optional property with a default stays absent',
      args: { scale: 'css' },
      expected: { scale: 'css' },
    },
    {
      case: 'nested objects, through $ref and items',
      args: { scale: 'css', size: {}, tags: [{}, { label: 'y' }] },
      expected: { scale: 'css', size: { width: 800 }, tags: [{ label: 'x' }, { label: 'y' }] },
    },
  ])('$case', ({ args, expected }) => {
    expect(fillRequiredDefaults(schema, args)).toStrictEqual(expected)
  })

  it('returns the same object when nothing is missing, and never mutates', () => {
    const args = { scale: 'css' }
    expect(fillRequiredDefaults(schema, args)).toBe(args)
    const empty = {}
    fillRequiredDefaults(schema, empty)
    expect(empty).toStrictEqual({})
  })
})

describe('checkArgs with a required property that has a default', () => {
  it("accepts Playwright's screenshot call without scale, as the server does, and sends the default", () => {
    expect(checkArgs(screenshot, { type: 'png' })).toStrictEqual({ type: 'png', scale: 'css' })
  })

  it('still refuses a required property without a default', () => {
    expect(checkArgs(schema, { scale: 'css', size: { width: 'wide' } })).toMatch(/size\.width/)
    const noDefault: JSONSchema = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    }
    expect(checkArgs(noDefault, {})).toBe('city: required argument is missing')
  })
})
