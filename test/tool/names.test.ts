import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { joinToolName, sanitizeToolName, TOOL_NAME_PATTERN } from '../../src/tool/names.js'

describe('sanitizeToolName', () => {
  it.each([
    { input: 'get_weather', expected: 'get_weather' },
    { input: 'files/read file', expected: 'files_read_file' },
    { input: 'github.create-issue', expected: 'github_create-issue' },
    { input: 'ünïcode✓', expected: '_n_code_' },
    { input: '', expected: '_' },
    { input: 'x'.repeat(64), expected: 'x'.repeat(64) },
  ])('$input → $expected', ({ input, expected }) => {
    expect(sanitizeToolName(input)).toBe(expected)
  })

  it('cuts a name over 64 characters and adds a stable hash of the whole original', () => {
    const long = `server_${'a'.repeat(80)}`
    const name = sanitizeToolName(long)
    expect(name).toHaveLength(64)
    expect(name).toMatch(/^server_a{48}_[0-9a-f]{8}$/)
    expect(sanitizeToolName(long)).toBe(name)
  })

  it('two long names sharing a 64-character prefix never collide', () => {
    const prefix = 'p'.repeat(70)
    expect(sanitizeToolName(`${prefix}_one`)).not.toBe(sanitizeToolName(`${prefix}_two`))
  })

  it('always yields a name every provider accepts, and is idempotent on accepted names', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (input) => {
        const name = sanitizeToolName(input)
        expect(name).toMatch(TOOL_NAME_PATTERN)
        expect(sanitizeToolName(name)).toBe(name)
      }),
      { numRuns: 300 },
    )
  })

  it('distinct long names get distinct exposed names (no collisions across 5 000)', () => {
    const names = Array.from({ length: 5000 }, (_, index) =>
      sanitizeToolName(`${'tool_'.repeat(14)}${index}`),
    )
    expect(new Set(names).size).toBe(5000)
  })
})

describe('joinToolName', () => {
  it.each([
    { parts: ['github', 'create_issue'], expected: 'github_create_issue' },
    { parts: ['my server', 'read.file'], expected: 'my_server_read_file' },
    { parts: ['s', 'x'.repeat(100)], expected: /^s_x{53}_[0-9a-f]{8}$/ },
  ])('$parts', ({ parts, expected }) => {
    const name = joinToolName(parts)
    if (typeof expected === 'string') expect(name).toBe(expected)
    else expect(name).toMatch(expected)
    expect(name).toMatch(TOOL_NAME_PATTERN)
  })
})
