// Argument validation is bounded: schema patterns run on a linear-time engine, cyclic and too-deep schemas
// are refused when the tool is defined (or left out, with a warning, when they come from elsewhere), and
// every text the toolkit writes itself respects `maxOutputChars`.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ToolDefinitionError } from '../../src/errors.js'
import { checkArgs } from '../../src/tool/check-args.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { Tool } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  CATASTROPHIC_PATTERNS,
  cyclicObjectSchema,
  deepSchema,
  evilText,
  hostileArgs,
  hostileSchema,
  hugeEnumSchema,
  patternSchema,
  sizeOf,
} from './hostile-schemas.js'

const quiet = { warn() {} }

/** A tool from elsewhere (an MCP server, a custom Tool): its schema is taken as it is. */
function foreignTool(name: string, inputSchema: Record<string, unknown>): Tool {
  return {
    name,
    description: '',
    inputSchema,
    source: 'custom',
    execute: async () => ({ output: 'ran', isError: false }),
  }
}

/**
 * This process's CPU time, in ms. The bounds below are on CPU time: a backtracking engine burns it by the
 * minute, while a busy machine stretches the wall clock but not this.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1_000
}

function elapsed<T>(work: () => T): { value: T; ms: number } {
  const started = cpuMs()
  const value = work()
  return { value, ms: cpuMs() - started }
}

describe('schema patterns run on a linear-time engine', () => {
  // A backtracking engine takes minutes of CPU on each of these.
  it.each(CATASTROPHIC_PATTERNS)(
    'the pattern %s against its evil text is answered in milliseconds',
    (pattern) => {
      const schema = { type: 'object', properties: { text: { type: 'string', pattern } } }
      const { value, ms } = elapsed(() => checkArgs(schema, { text: evilText(5_000) }))
      expect(value).toBe(`text: must match the pattern ${JSON.stringify(pattern)}`)
      expect(ms).toBeLessThan(1_000)
    },
  )

  it('the reported case, ^(a+)+$ against "a"×30 + "!", fails fast through tk.execute and a defined tool', async () => {
    const tool = defineTool({
      name: 'check',
      description: '',
      inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } } },
      execute: () => 'ran',
    })
    await using tk = await createToolkit({ tools: [tool], logger: quiet })
    const started = cpuMs()
    const viaToolkit = await tk.execute('check', { text: evilText(30) })
    const direct = await tool.execute({ text: evilText(30) })
    expect(cpuMs() - started).toBeLessThan(1_000)
    expect(viaToolkit).toStrictEqual({
      output: 'Invalid arguments for tool "check": text: must match the pattern "^(a+)+$"',
      isError: true,
    })
    expect(direct).toStrictEqual(viaToolkit)
    expect(await tk.execute('check', { text: 'aaaa' })).toStrictEqual({ output: 'ran', isError: false })
  })

  it('patternProperties keys are matched by the linear-time engine against hostile property names', () => {
    const schema = {
      type: 'object',
      patternProperties: { '^(a+)+$': { type: 'integer' } },
      additionalProperties: false,
    }
    const { value, ms } = elapsed(() => checkArgs(schema, { [evilText(5_000)]: 1 }))
    expect(value).toBe(`${'a'.repeat(100)}…: unknown argument (not in the schema)`)
    expect(ms).toBeLessThan(1_000)
    expect(checkArgs(schema, { aaa: 1 })).toStrictEqual({ aaa: 1 })
    expect(checkArgs(schema, { aaa: 'x' })).toBe(
      'aaa: Instance type "string" is invalid. Expected "integer".',
    )
  })

  it('patternProperties keep their meaning: two patterns matching one name are both enforced', () => {
    const schema = {
      type: 'object',
      patternProperties: { '^a': { type: 'string' }, a$: { minLength: 3 } },
      additionalProperties: false,
    }
    expect(checkArgs(schema, { a: 'xyz' })).toStrictEqual({ a: 'xyz' })
    expect(checkArgs(schema, { a: 'x' })).toBe('a: String is too short (1 < 3).')
    expect(checkArgs(schema, { a: 1 })).toBe('a: Instance type "number" is invalid. Expected "string".')
    expect(checkArgs(schema, { b: 'x' })).toBe('b: unknown argument (not in the schema)')
    // Names with the expression syntax in them are matched as names.
    expect(checkArgs(schema, { 'a.b|c': 'xyz', '(x)a': 'abc' })).toStrictEqual({
      'a.b|c': 'xyz',
      '(x)a': 'abc',
    })
    expect(checkArgs(schema, { '(x)a': 'ab' })).toBe('(x)a: String is too short (2 < 3).')
  })

  it('a pattern with a format of its own keeps both', () => {
    const schema = {
      type: 'object',
      properties: { day: { type: 'string', format: 'date', pattern: '^2026-' } },
    }
    expect(checkArgs(schema, { day: '2026-01-02' })).toStrictEqual({ day: '2026-01-02' })
    expect(checkArgs(schema, { day: '2025-01-02' })).toBe('day: must match the pattern "^2026-"')
    expect(checkArgs(schema, { day: '2026-13-99' })).toBe('day: String does not match format "date".')
  })

  it('a property named "pattern" and a pattern inside enum data are not taken for the keyword', () => {
    const schema = {
      type: 'object',
      properties: { pattern: { type: 'string' }, shape: { enum: [{ pattern: '(?=x)' }] } },
    }
    expect(checkArgs(schema, { pattern: '(a+)+' })).toStrictEqual({ pattern: '(a+)+' })
  })

  it('defineTool refuses a pattern the linear-time engine cannot evaluate, saying which and why', () => {
    const define = () =>
      defineTool({
        name: 'lookahead',
        description: '',
        inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^(?!admin).*$' } } },
        execute: () => 'ran',
      })
    expect(define).toThrow(ToolDefinitionError)
    expect(define).toThrow(
      /inputSchema has the pattern "\^\(\?!admin\)\.\*\$" at properties\.id\.pattern, which uses a feature a linear-time engine cannot evaluate/,
    )
  })

  it('a tool from elsewhere with such a pattern is kept, the pattern left unchecked, with a warning', async () => {
    const warnings: string[] = []
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '(a)\\1' } } }
    await using tk = await createToolkit({
      tools: [foreignTool('backref', schema)],
      logger: { warn: (message) => warnings.push(message) },
    })
    expect(tk.get('backref')).toBeDefined()
    expect(warnings).toStrictEqual([
      expect.stringMatching(
        /^Tool "backref" \(custom\): its inputSchema has the pattern .* that pattern is not checked\.$/,
      ),
    ])
    expect(await tk.execute('backref', { id: 'zz' })).toStrictEqual({ output: 'ran', isError: false })
  })
})

describe('cyclic and too-deep schemas are refused before any call', () => {
  it('defineTool refuses a cyclic JavaScript schema with the real reason', () => {
    expect(() =>
      defineTool({
        name: 'cyclic',
        description: '',
        inputSchema: cyclicObjectSchema(),
        execute: () => 'ran',
      }),
    ).toThrow('Tool "cyclic": inputSchema is cyclic: properties.self refers back to an enclosing object')
  })

  it('defineTool refuses a 1,000-level schema naming the depth limit', () => {
    expect(() =>
      defineTool({ name: 'deep', description: '', inputSchema: deepSchema(1_000), execute: () => 'ran' }),
    ).toThrow(/^Tool "deep": inputSchema nests deeper than 256 levels \(at …/)
  })

  it('a tool from elsewhere carrying a cyclic or 1,000-level schema is left out with a warning', async () => {
    const warnings: string[] = []
    await using tk = await createToolkit({
      tools: [
        foreignTool('cyclic', cyclicObjectSchema()),
        foreignTool('deep', deepSchema(1_000)),
        foreignTool('fine', {}),
      ],
      logger: { warn: (message) => warnings.push(message) },
    })
    expect(tk.tools().map((tool) => tool.name)).toStrictEqual(['fine'])
    expect(warnings).toStrictEqual([
      expect.stringMatching(/^Tool "cyclic" \(custom\) was left out: its inputSchema is cyclic/),
      expect.stringMatching(
        /^Tool "deep" \(custom\) was left out: its inputSchema nests deeper than 256 levels/,
      ),
    ])
  })
})

describe('every text the toolkit writes respects maxOutputChars', () => {
  it('an unknown tool with a 200 KB name is quoted by its start', async () => {
    await using tk = await createToolkit({ tools: [foreignTool('known', {})], logger: quiet })
    const result = await tk.execute('x'.repeat(200_000), {})
    expect(result.isError).toBe(true)
    expect(result.output).toBe(
      `Unknown tool "${'x'.repeat(80)}…" (200000 characters). Available tools: known`,
    )
  })

  it('an unknown tool among 50,000 tools lists 50 and counts the rest', async () => {
    const tools = Array.from({ length: 50_000 }, (_, index) => foreignTool(`tool_${index}`, {}))
    await using tk = await createToolkit({ tools, logger: quiet })
    const result = await tk.execute('missing', {})
    expect(result.output).toMatch(
      /^Unknown tool "missing"\. Available tools: tool_0, tool_1, .*tool_49, … and 49950 more$/,
    )
    expect(result.output.length).toBeLessThan(1_000)
  })

  it('a bad value against a 100,000-value enum gets a short answer, cut to maxOutputChars', async () => {
    const tool = defineTool({
      name: 'pick',
      description: '',
      inputSchema: hugeEnumSchema(100_000),
      execute: () => 'ran',
    })
    await using tk = await createToolkit({ tools: [tool], logger: quiet, maxOutputChars: 200 })
    const viaToolkit = await tk.execute('pick', { choice: 'nope' })
    expect(viaToolkit.isError).toBe(true)
    expect(viaToolkit.output).toMatch(
      /^Invalid arguments for tool "pick": choice: Instance does not match any of \["value-0",/,
    )
    expect(viaToolkit.output).toMatch(/\n…\[output truncated: \d+ more characters\]$/)
    expect(viaToolkit.output.length).toBeLessThan(300)
    const unlimited = await tool.execute({ choice: 'nope' })
    expect(unlimited.output.length).toBeLessThan(500)
  })

  it('the unknown-tool and invalid-argument texts follow a small maxOutputChars too', async () => {
    const tool = defineTool({
      name: 'many',
      description: '',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 100 }, (_, index) => [`field_${index}`, { type: 'integer' }]),
        ),
      },
      execute: () => 'ran',
    })
    await using tk = await createToolkit({ tools: [tool], logger: quiet, maxOutputChars: 120 })
    const args = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`field_${index}`, 'x']))
    const invalid = await tk.execute('many', args)
    expect(invalid.output.split('\n')[0]).toHaveLength(120)
    expect(invalid.output).toMatch(/…\[output truncated: \d+ more characters\]$/)
    const unknown = await tk.execute('y'.repeat(500), {})
    expect(unknown.output.split('\n')[0]).toHaveLength(120)
  })
})

describe('property: hostile schemas and arguments', () => {
  // CPU time allowed per character of input (schema + arguments), plus a floor.
  const boundMs = (size: number): number => 1_000 + size / 20

  it('validation and tk.execute finish within a bound proportional to the input and never throw', async () => {
    await fc.assert(
      fc.asyncProperty(hostileSchema, hostileArgs, async (schema, args) => {
        const size = sizeOf(schema) + sizeOf(args)
        const started = cpuMs()
        let tool: Tool
        try {
          tool = defineTool({ name: 'hostile', description: '', inputSchema: schema, execute: () => 'ran' })
        } catch (error) {
          // Refusing a schema is an answer too, as long as it says why.
          expect(ToolDefinitionError.isInstance(error)).toBe(true)
          tool = foreignTool('hostile', schema)
        }
        const checked = checkArgs(tool.inputSchema, args)
        expect(typeof checked === 'string' || typeof checked === 'object').toBe(true)
        await using tk = await createToolkit({ tools: [tool], logger: quiet, maxOutputChars: 2_000 })
        const result = await tk.execute('hostile', args)
        expect(typeof result.output).toBe('string')
        if (result.isError) expect(result.output.length).toBeLessThan(2_100)
        expect(cpuMs() - started).toBeLessThan(boundMs(size))
      }),
      { numRuns: 150 },
    )
  })

  it('every catastrophic pattern, as pattern and patternProperties key, is answered quickly by tk.execute', async () => {
    for (const pattern of CATASTROPHIC_PATTERNS) {
      await using tk = await createToolkit({
        tools: [foreignTool('p', patternSchema(pattern))],
        logger: quiet,
      })
      const started = cpuMs()
      const result = await tk.execute('p', { text: evilText(2_000), [evilText(2_000)]: 1 })
      expect(result.isError).toBe(true)
      expect(cpuMs() - started).toBeLessThan(1_000)
    }
  })
})
