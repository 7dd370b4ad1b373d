// Schema transformations run in time and output size linear in their input: references reused are lowered
// once, and past a work budget a node is described instead of expanded, with a warning to the toolkit.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toGemini } from '../../src/adapters/to-gemini.js'
import { toOpenAI } from '../../src/adapters/to-openai.js'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import type { JSONSchema, Tool } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  cyclicObjectSchema,
  fanOutRefSchema,
  hostileSchema,
  nestedUnionSchema,
  sizeOf,
} from '../reliability/hostile-schemas.js'
import { geminiToolsProblems } from '../support/gemini-subset.js'
import { genaiFor, modelReply, startScriptedGemini } from '../support/scripted-gemini.js'

const names = fc.constantFrom('a', 'b', 'x-y', 'a.b', '__proto__', 'constructor', '$ref', '')

// Generated trees of every construct the converters treat specially, with references that resolve, recurse
// or dangle, beside a fan-out chain: unions inside references inside unions.
const hostileTree: fc.Arbitrary<JSONSchema> = fc
  .record({
    tree: fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { maxDepth: 6, depthIdentifier: 'hostile' },
        fc.constantFrom<unknown>(
          {},
          true,
          { type: 'string', pattern: '^(a+)+$' },
          { $ref: '#' },
          { $ref: '#/$defs/loop' },
          { $ref: '#/$defs/missing' },
          { type: ['string', 'null', 'integer'] },
          { description: 'only a description' },
          { type: 'array' },
        ),
        fc.record(
          {
            type: fc.constantFrom('object', 'array', 'string', 'integer'),
            properties: fc.dictionary(names, tie('node'), { maxKeys: 6 }),
            anyOf: fc.array(tie('node'), { maxLength: 4 }),
            oneOf: fc.array(tie('node'), { maxLength: 3 }),
            allOf: fc.array(tie('node'), { maxLength: 3 }),
            items: fc.oneof(tie('node'), fc.array(tie('node'), { maxLength: 3 })),
            required: fc.array(names, { maxLength: 4 }),
            enum: fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null)), {
              maxLength: 5,
            }),
            $ref: fc.constantFrom('#', '#/$defs/loop', '#/$defs/n0'),
          },
          { requiredKeys: [] },
        ),
      ),
    })).node,
    levels: fc.integer({ min: 1, max: 16 }),
  })
  .map(({ tree, levels }) => {
    const chain = fanOutRefSchema(levels)
    return {
      type: 'object',
      properties: { value: tree, chain: chain.properties },
      $defs: {
        ...(chain.$defs as Record<string, unknown>),
        loop: { type: 'object', properties: { again: { $ref: '#/$defs/loop' }, tree } },
      },
    }
  })

function toolWith(schema: JSONSchema, name = 'hostile'): Tool {
  return {
    name,
    description: 'A tool with a hostile schema.',
    inputSchema: schema,
    source: 'custom',
    execute: async () => ({ output: 'ok', isError: false }),
  }
}

// The bounds the work budget promises, stated in the input's JSON size: a constant floor every real schema
// fits in, plus a fixed multiple of the input. Exponential growth breaks them by orders of magnitude.
function outputBound(input: unknown): number {
  return 4_000_000 + 400 * sizeOf(input)
}
function timeBoundMs(input: unknown): number {
  return 2_000 + sizeOf(input) / 4
}

// CPU time of this process, not wall time: a loaded machine stretches the wall clock, but an exponential
// blow-up still shows as CPU spent here.
function timed<T>(work: () => T): { value: T; ms: number } {
  const start = process.cpuUsage()
  const value = work()
  const spent = process.cpuUsage(start)
  return { value, ms: (spent.user + spent.system) / 1000 }
}

describe('the work budget of toGemini', () => {
  it('lowers $defs that each refer to the next one twice, 30 levels, in bounded time and size', () => {
    const schema = fanOutRefSchema(30)
    const { value, ms } = timed(() => toGemini([toolWith(schema)]))
    const size = sizeOf(value)
    expect(sizeOf(schema)).toBeLessThan(4_000)
    expect(size).toBeLessThan(outputBound(schema))
    expect(ms).toBeLessThan(timeBoundMs(schema))
    expect(geminiToolsProblems(value)).toStrictEqual([])
    // The top levels are expanded; the model is told where the rest was cut.
    const root = value[0].functionDeclarations[0]?.parameters?.properties?.root
    expect(root?.type).toBe('object')
    expect(JSON.stringify(value)).toContain('Not expanded')
  })

  it('lowers an anyOf beside properties nested 16 deep in bounded time and size', () => {
    const schema = nestedUnionSchema(16)
    const { value, ms } = timed(() => toGemini([toolWith(schema)]))
    expect(sizeOf(value)).toBeLessThan(outputBound(schema))
    expect(ms).toBeLessThan(timeBoundMs(schema))
    expect(geminiToolsProblems(value)).toStrictEqual([])
  })

  it('expands a definition used many times in full when it fits the budget, lowering it once', () => {
    const item = {
      type: 'object',
      properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
    }
    const properties = Object.fromEntries(
      Array.from({ length: 50 }, (_, index) => [`p${index}`, { $ref: '#/$defs/Item' }]),
    )
    const schema = { type: 'object', properties, $defs: { Item: item } }
    const [wrapper] = toGemini([toolWith(schema)])
    const lowered = wrapper.functionDeclarations[0]?.parameters?.properties ?? {}
    expect(Object.keys(lowered)).toHaveLength(50)
    for (const property of Object.values(lowered)) {
      expect(property).toStrictEqual({
        type: 'object',
        properties: { id: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
      })
    }
    // Every use is its own object: an SDK rewriting one in place leaves the others alone.
    expect(lowered.p0).not.toBe(lowered.p1)
    expect(JSON.stringify(wrapper)).not.toContain('Not expanded')
  })

  it('warns the toolkit’s logger once when a schema is simplified, naming the tool', async () => {
    const warnings: string[] = []
    await using tk = await createToolkit({
      tools: [toolWith(fanOutRefSchema(30), 'fan_out')],
      logger: { warn: (message) => warnings.push(message) },
    })
    tk.toGemini()
    tk.toGemini()
    toGemini(tk.tools())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^Tool "fan_out": its input schema is too large or too deeply nested to lower in full for Gemini; \d+ parts are described instead of expanded\.$/,
    )
    expect(tk.warnings()).toStrictEqual(warnings)
  })

  it.each([
    { given: 'a logger', clientLogger: true },
    { given: 'no logger', clientLogger: false },
  ])(
    'a genai client run with $given warns the toolkit’s logger and the client’s, and Gemini accepts the request',
    async ({ clientLogger }) => {
      await using gemini = await startScriptedGemini({ script: [modelReply([{ text: 'done' }])] })
      const warnings: string[] = []
      const clientWarnings: string[] = []
      await using tk = await createToolkit({
        tools: [toolWith(nestedUnionSchema(40), 'deep_unions')],
        logger: { warn: (message) => warnings.push(message) },
      })
      const genai = genaiFor(gemini.baseUrl)
      const client = createClient({
        genai,
        model: 'gemini-2.5-flash',
        ...(clientLogger && { logger: { warn: (message: string) => clientWarnings.push(message) } }),
      })
      const result = await client.run('go', { toolkit: tk })
      expect(result.text).toBe('done')
      const ours = warnings.filter((warning) => warning.startsWith('Tool "deep_unions"'))
      expect(ours).toHaveLength(1)
      expect(clientWarnings).toStrictEqual(clientLogger ? ours : [])
    },
  )

  it('never throws and stays within bounds on generated hostile schemas (fan-out, depth, cycles, unions, patterns)', () => {
    fc.assert(
      fc.property(fc.oneof(hostileSchema, hostileTree), (schema) => {
        const tools = [toolWith(schema)]
        const converters: Array<() => unknown> = [() => toGemini(tools), () => toOpenAI(tools)]
        for (const convert of converters) {
          const { value, ms } = timed(convert)
          expect(sizeOf(value)).toBeLessThan(outputBound(schema))
          expect(ms).toBeLessThan(timeBoundMs(schema))
        }
        expect(geminiToolsProblems(toGemini(tools))).toStrictEqual([])
      }),
      { numRuns: 80 },
    )
  })
})

describe('a JS-level cycle in a custom tool’s schema', () => {
  it('is cut, not followed forever', () => {
    const [wrapper] = toGemini([toolWith(cyclicObjectSchema())])
    expect(geminiToolsProblems([wrapper])).toStrictEqual([])
    expect(JSON.stringify(wrapper)).toContain('Recursive')
  })
})

describe('a schema defineTool accepts', () => {
  it('lowers the hostile shapes defineTool lets through', () => {
    const tool = defineTool({
      name: 'chain',
      description: 'x',
      inputSchema: fanOutRefSchema(24),
      execute: () => 'ok',
    })
    expect(geminiToolsProblems(toGemini([tool]))).toStrictEqual([])
  })
})
