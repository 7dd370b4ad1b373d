// Hostile input: generated model tool calls (broken JSON, huge or deeply nested arguments, prototype keys,
// wrong types, unknown names) through the loop and the toolkit; malformed mcp.json and SKILL.md; path
// tricks in skill names. Nothing throws, every call is answered, nothing reaches Object.prototype.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { ConfigError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { processesWithMarker, recordingLogger, stdioServer } from '../mcp/mcp-fixtures.js'
import {
  expectEveryCallAnswered,
  failOnUnhandledRejections,
  type InProcessCall,
  inProcessModel,
  settle,
} from './support.js'

const SKILLS_FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'skills')
// Tallied for the notes: how many generated inputs the suite tried.
const tried = { loopCalls: 0, loopRuns: 0, executeCalls: 0, mcpConfigs: 0, skillFiles: 0 }

failOnUnhandledRejections()
afterEach(() => {
  expectNoPollution()
})
afterAll(() => {
  console.info(`[reliability] hostile inputs tried: ${JSON.stringify(tried)}`)
})

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const

/** Nothing a model sent may have landed on a shared prototype. */
function expectNoPollution(): void {
  const probe: Record<string, unknown> = {}
  expect(probe.polluted).toBeUndefined()
  expect(probe.isAdmin).toBeUndefined()
  expect(Object.keys(Object.prototype)).toStrictEqual([])
  expect(
    Object.getOwnPropertyNames(Object.prototype).filter((key) => /polluted|isAdmin/.test(key)),
  ).toStrictEqual([])
  expect(Reflect.get(Array.prototype, 'polluted')).toBeUndefined()
}

/** Serializes entries as a JSON object, keeping `__proto__` as a plain key (an object literal would not). */
function objectText(entries: ReadonlyArray<readonly [string, unknown]>): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`
}

const pollutingValue = fc.constantFrom<unknown>(
  { polluted: 'yes' },
  { prototype: { polluted: 'yes' } },
  { isAdmin: true },
  'polluted',
)

/** Argument texts a model might send: valid, broken, huge, deep, prototype-poisoned, wrongly typed. */
const argumentText: fc.Arbitrary<string> = fc.oneof(
  fc.json(),
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '{"city":',
    'null',
    '[]',
    '"text"',
    '42',
    'true',
    '{"city":"Oslo"',
    'undefined',
  ),
  fc
    .array(
      fc.tuple(
        fc.constantFrom(...PROTOTYPE_KEYS, 'city', 'count', 'polluted'),
        fc.oneof(pollutingValue, fc.jsonValue()),
      ),
      { maxLength: 5 },
    )
    .map(objectText),
  fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS), pollutingValue).map(([key, value]) =>
    objectText([
      ['city', 'Oslo'],
      [key, value],
    ]),
  ),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 50_000, max: 400_000 }).map((length) => JSON.stringify({ city: 'x'.repeat(length) })),
  fc
    .record({ city: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string())) })
    .map((value) => JSON.stringify(value)),
)

const TOOL_NAMES = ['typed', 'echo_args', 'skill'] as const

/** Tool names a model might call: real ones, unknown ones, prototype names, absurd ones. */
const toolName: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...TOOL_NAMES) },
  fc.constantFrom(
    ...PROTOTYPE_KEYS,
    'toString',
    'hasOwnProperty',
    '',
    'x'.repeat(300),
    '../../etc/passwd',
    'typed ',
    'Typed',
  ),
  fc.string({ maxLength: 40 }),
)

const generatedCalls: fc.Arbitrary<InProcessCall[]> = fc
  .array(fc.tuple(toolName, argumentText), { minLength: 1, maxLength: 6 })
  .map((calls) => calls.map(([name, input], index) => ({ toolCallId: `c${index}`, toolName: name, input })))

const typed = defineTool({
  name: 'typed',
  description: 'Takes a city and an optional count.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 100 }, count: { type: 'integer', minimum: 0 } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: ({ city, count }) => `typed ${String(city)} ${String(count ?? 0)}`,
})

const echoArgs = defineTool({
  name: 'echo_args',
  description: 'Echoes whatever it gets.',
  inputSchema: { type: 'object' },
  execute: (args) => args,
})

describe('generated model tool calls through the loop', () => {
  let toolkit: Toolkit
  beforeAll(async () => {
    toolkit = await createToolkit({
      tools: [typed, echoArgs],
      skillsDir: SKILLS_FIXTURE,
      maxOutputChars: 5000,
    })
  })

  it('never throw, answer every call in order with a result the model can read, and pollute nothing', async () => {
    await fc.assert(
      fc.asyncProperty(generatedCalls, fc.boolean(), async (calls, streaming) => {
        const model = inProcessModel((prompt) =>
          prompt.at(-1)?.role === 'tool' ? { text: 'read them all' } : { calls },
        )
        const client = createClient({ model })
        const result = streaming
          ? await client.stream('go', { toolkit }).result
          : await client.run('go', { toolkit })
        tried.loopRuns++
        tried.loopCalls += calls.length
        expect(result.status).toBe('done')
        expect(result.text).toBe('read them all')
        expect(result.toolCalls.map((call) => call.id)).toStrictEqual(calls.map((call) => call.toolCallId))
        expect(expectEveryCallAnswered(result.messages)).toHaveLength(calls.length)
        result.toolCalls.forEach((record, index) => {
          const call = calls[index] as InProcessCall
          expect(typeof record.output).toBe('string')
          expect(record.output.length).toBeLessThanOrEqual(5000 + 100)
          if (!(TOOL_NAMES as readonly string[]).includes(call.toolName)) {
            expect(record.isError).toBe(true)
            expect(record.output).toContain('Unknown tool')
          }
          if (!isJsonObjectText(call.input)) expect(record.isError).toBe(true)
        })
        expectNoPollution()
      }),
      { numRuns: 300 },
    )
  }, 120_000)
})

function isJsonObjectText(text: string): boolean {
  if (text.trim() === '') return true
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
  } catch {
    return false
  }
}

describe('generated arguments straight into toolkit.execute', () => {
  let toolkit: Toolkit
  beforeAll(async () => {
    toolkit = await createToolkit({
      tools: [typed, echoArgs],
      skillsDir: SKILLS_FIXTURE,
      mcpConfig: { mcpServers: { fx: stdioServer('--marker', 'reliability-hostile') } },
      logger: recordingLogger().logger,
    })
  })
  afterAll(async () => {
    await toolkit.close()
  })

  const anyArgs: fc.Arbitrary<unknown> = fc.oneof(
    fc.anything({ maxDepth: 4 }),
    fc.constant(null),
    fc.constant(undefined),
    fc.string().map((text) => Object.create(null, { text: { value: text, enumerable: true } })),
    fc.constantFrom(...PROTOTYPE_KEYS).map((key) =>
      JSON.parse(
        objectText([
          [key, { polluted: 'yes' }],
          ['text', 'hi'],
        ]),
      ),
    ),
  )

  it('resolves for any name and any value, never throwing, and the MCP server stays up', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom('typed', 'echo_args', 'skill', 'fx_echo', 'fx_add'), toolName),
        anyArgs,
        async (name, args) => {
          tried.executeCalls++
          const result = await toolkit.execute(name, args as Record<string, unknown>)
          expect(typeof result.output).toBe('string')
          expect(typeof result.isError).toBe('boolean')
          expectNoPollution()
        },
      ),
      { numRuns: 400 },
    )
    expect(toolkit.mcpStatus()).toStrictEqual({ fx: 'connected' })
    const after = await toolkit.execute('fx_echo', { text: 'still fine' })
    expect([after.output, after.isError]).toStrictEqual(['still fine', false])
  }, 120_000)
})

describe('malformed mcp.json', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolnexus-reliability-mcp-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const files: Record<string, string | Buffer> = {
    'not-json.json': '{ mcpServers: [ oops',
    'empty.json': '',
    'blank.json': '  \n\t ',
    'null.json': 'null',
    'array.json': '[1, 2, 3]',
    'number.json': '42',
    'string.json': '"mcpServers"',
    'servers-is-string.json': '{ "mcpServers": "nope" }',
    'servers-is-array.json': '{ "mcpServers": [ { "command": "node" } ] }',
    'binary.json': Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x7b, 0x80, 0x81, 0x00]),
    'huge-nested.json': `${'['.repeat(200_000)}${']'.repeat(200_000)}`,
    'huge-string.json': JSON.stringify({ mcpServers: {}, note: 'x'.repeat(8_000_000) }),
    'prototype.json': '{ "mcpServers": { "__proto__": { "command": 5 }, "constructor": { "url": 7 } } }',
  }

  it('each fails fast with a ConfigError naming the file, or loads with the bad servers reported', async () => {
    const outcomes: Record<string, string> = {}
    for (const [name, content] of Object.entries(files)) {
      const path = join(dir, name)
      await writeFile(path, content)
      const started = Date.now()
      const outcome = await createToolkit({ mcpConfig: path, logger: recordingLogger().logger }).then(
        async (toolkit) => {
          const status = toolkit.mcpStatus()
          await toolkit.close()
          return `loaded ${JSON.stringify(status)}`
        },
        (error: unknown) => {
          expect(ConfigError.isInstance(error)).toBe(true)
          expect((error as Error).message).toContain(name)
          // A message that quotes an 8 MB file helps nobody.
          expect((error as Error).message.length).toBeLessThan(2000)
          return 'ConfigError'
        },
      )
      expect(Date.now() - started).toBeLessThan(5000)
      outcomes[name] = outcome
    }
    expectNoPollution()
    expect(outcomes['prototype.json']).toBe('loaded {"__proto__":"failed","constructor":"failed"}')
    // Everything else is refused, the 8 MB file too: a config file is read only up to 4 MB.
    for (const name of Object.keys(files).filter((each) => !/prototype/.test(each))) {
      expect([name, outcomes[name]]).toStrictEqual([name, 'ConfigError'])
    }
  }, 60_000)

  // Only commands that cannot exist and URLs on a closed loopback port: nothing generated may run or call out.
  const badServer = fc.record(
    {
      command: fc.oneof(
        fc.integer(),
        fc.boolean(),
        fc.constant(''),
        fc.constant('   '),
        fc.constant('/nonexistent/reliability-command'),
        fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.constant('/nonexistent/reliability-command'))),
        fc.dictionary(fc.string(), fc.jsonValue()),
      ),
      args: fc.oneof(fc.jsonValue(), fc.array(fc.string())),
      env: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer()))),
      environment: fc.jsonValue(),
      url: fc.oneof(
        fc.integer(),
        fc.constantFrom(
          '',
          'not a url',
          'ftp://127.0.0.1:1/x',
          'http://127.0.0.1:1/mcp',
          '//nohost',
          'http://',
        ),
      ),
      type: fc.oneof(fc.constantFrom('local', 'stdio', 'remote', 'http', 'sse', 'bogus', ''), fc.jsonValue()),
      headers: fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.string())),
      timeout: fc.oneof(fc.jsonValue(), fc.constantFrom(-1, 0, 1, Number.NaN)),
      tools: fc.jsonValue(),
      enabled: fc.jsonValue(),
      disabled: fc.jsonValue(),
      cwd: fc.oneof(fc.jsonValue(), fc.constant('/nonexistent/dir')),
    },
    { requiredKeys: [] },
  )

  it('generated configs with wrong types: a ConfigError or a toolkit, never another throw, never a hang', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue(),
          fc.record({
            mcpServers: fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(badServer, fc.jsonValue()), {
              maxKeys: 4,
            }),
          }),
          fc.record({ servers: fc.dictionary(fc.string({ maxLength: 10 }), badServer, { maxKeys: 3 }) }),
          fc.record({ mcp: fc.dictionary(fc.string({ maxLength: 10 }), badServer, { maxKeys: 3 }) }),
        ),
        async (config) => {
          tried.mcpConfigs++
          const started = Date.now()
          try {
            const toolkit = await createToolkit({
              mcpConfig: config as object,
              logger: recordingLogger().logger,
            })
            for (const status of Object.values(toolkit.mcpStatus())) {
              expect(['failed', 'disabled']).toContain(status)
            }
            await toolkit.close()
          } catch (error) {
            expect([ConfigError.isInstance(error), String(error)]).toStrictEqual([true, String(error)])
          }
          expect(Date.now() - started).toBeLessThan(10_000)
        },
      ),
      { numRuns: 150 },
    )
    expectNoPollution()
  }, 120_000)
})

describe('malformed SKILL.md files and path tricks in skill names', () => {
  let root: string
  let toolkit: Toolkit
  let warnings: string[]
  const yamlBomb = [
    '---',
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
    'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
    'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
    'name: bomb',
    'description: *i',
    '---',
    'boom',
  ].join('\n')
  const skills: Record<string, string | Buffer> = {
    binary: Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 37) % 256)),
    'no-frontmatter': '# Just a heading\n\nNo frontmatter at all.',
    unclosed: '---\nname: unclosed\ndescription: never closed\n\nbody',
    bomb: yamlBomb,
    'alias-name': '---\nbase: &n aliased\nname: *n\ndescription: An aliased name\n---\nAliased body.',
    'name-object': '---\nname: { x: 1 }\n---\nbody',
    'name-list': '---\nname: [a, b]\n---\nbody',
    'name-number': '---\nname: 12345\ndescription: numbered\n---\nbody',
    'traversal-name': '---\nname: ../../../../etc/passwd\ndescription: Sneaky\n---\nTraversal body.',
    'proto-name': '---\nname: __proto__\ndescription: Prototype named\n---\nProto body.',
    'huge-body': `---\nname: huge\ndescription: A huge skill\n---\n${'All work and no play. '.repeat(300_000)}`,
    'huge-frontmatter': `---\nname: wide\ndescription: ${'w'.repeat(2_000_000)}\n---\nbody`,
    'null-byte': '---\nname: "nul\\0byte"\ndescription: has a NUL\n---\nbody',
    good: '---\nname: good\ndescription: A good skill\n---\nGood body.',
  }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'toolnexus-reliability-skills-'))
    for (const [folder, content] of Object.entries(skills)) {
      await mkdir(join(root, folder), { recursive: true })
      await writeFile(join(root, folder, 'SKILL.md'), content)
    }
    const recorded = recordingLogger()
    warnings = recorded.lines
    const started = Date.now()
    toolkit = await createToolkit({ skillsDir: root, logger: recorded.logger, maxOutputChars: 20_000 })
    console.info(
      `[reliability] ${Object.keys(skills).length} hostile SKILL.md files loaded in ${Date.now() - started} ms`,
    )
    tried.skillFiles += Object.keys(skills).length
  }, 60_000)
  afterAll(async () => {
    await rm(root, { recursive: true, force: true })
  })

  it('loads the well-formed ones, skips the rest with a warning each, and survives the YAML bomb', () => {
    const prompt = toolkit.skillsPrompt()
    expect(prompt).toContain('- **good**: A good skill')
    expect(prompt).toContain('- **aliased**: An aliased name')
    expect(prompt).not.toContain('bomb')
    for (const folder of ['binary', 'no-frontmatter', 'unclosed', 'bomb', 'name-object', 'name-list']) {
      expect(warnings.some((line) => line.includes(join(root, folder)))).toBe(true)
    }
    // No warning is itself a flood.
    for (const line of warnings) expect(line.length).toBeLessThan(5000)
  })

  it('answers names that try to walk the file system as unknown skills, never reading outside', async () => {
    const tricks = [
      '../good',
      '../../etc/passwd',
      '/etc/passwd',
      'good/../good',
      '..%2F..%2Fetc%2Fpasswd',
      'good\u0000',
      'file:///etc/passwd',
      '~/.ssh/id_rsa',
      'constructor',
      'toString',
      'C:\\Windows\\win.ini',
    ]
    for (const name of tricks) {
      const result = await toolkit.execute('skill', { name })
      expect([name, result.isError]).toStrictEqual([name, true])
      expect(result.output).toMatch(/^Skill ".*" not found\. Available skills: /s)
      expect(result.output).not.toMatch(/root:.*:0:0:/)
    }
  })

  it('a skill named like a path or __proto__ is only a name: it serves its own file', async () => {
    const traversal = await toolkit.execute('skill', { name: '../../../../etc/passwd' })
    expect(traversal.isError).toBe(false)
    expect(traversal.output).toContain('Traversal body.')
    expect(traversal.output).toContain(`file://${join(root, 'traversal-name')}`)
    expect(traversal.output).not.toMatch(/root:.*:0:0:/)
    const proto = await toolkit.execute('skill', { name: '__proto__' })
    expect(proto.isError).toBe(false)
    expect(proto.output).toContain('Proto body.')
  })

  it('a huge skill is served cut at the output cap, with a visible marker', async () => {
    const huge = await toolkit.execute('skill', { name: 'huge' })
    expect(huge.isError).toBe(false)
    expect(huge.output.length).toBeLessThan(20_100)
    expect(huge.output).toMatch(/…\[output truncated: \d+ more characters\]$/)
  })

  it('generated SKILL.md text never breaks loading', async () => {
    const frontmatterLine = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        'name: x',
        'name:',
        'name: &a y',
        'name: *a',
        'name: !!binary aGVsbG8=',
        '- list',
        ': :',
        '? key',
      ),
      fc
        .tuple(fc.constantFrom('name', 'description'), fc.jsonValue())
        .map(([key, value]) => `${key}: ${JSON.stringify(value)}`),
    )
    const document = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc
        .tuple(fc.array(frontmatterLine, { maxLength: 6 }), fc.string({ maxLength: 100 }), fc.boolean())
        .map(([lines, body, closed]) => ['---', ...lines, ...(closed ? ['---'] : []), body].join('\n')),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    )
    const dir = await mkdtemp(join(tmpdir(), 'toolnexus-reliability-gen-skills-'))
    // Nothing about a bad file may reach the host's stderr as a process warning; the logger says it.
    const processWarnings: string[] = []
    const onWarning = (warning: Error): void => {
      processWarnings.push(`${warning.name}: ${warning.message}`)
    }
    process.on('warning', onWarning)
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(document, { minLength: 1, maxLength: 4 }), async (documents) => {
          await rm(dir, { recursive: true, force: true })
          for (const [index, content] of documents.entries()) {
            await mkdir(join(dir, `s${index}`), { recursive: true })
            await writeFile(join(dir, `s${index}`, 'SKILL.md'), content)
          }
          tried.skillFiles += documents.length
          const generated = await createToolkit({ skillsDir: dir, logger: recordingLogger().logger })
          for (const tool of generated.tools()) {
            const result = await generated.execute(tool.name, { name: 'x' })
            expect(typeof result.output).toBe('string')
          }
        }),
        { numRuns: 150 },
      )
      // Each of these makes yaml emit a process warning unless told not to; the second one still loads.
      await rm(dir, { recursive: true, force: true })
      await mkdir(join(dir, 'directive'), { recursive: true })
      await writeFile(join(dir, 'directive', 'SKILL.md'), '---\n%BOGUS directive\nname: d\n---\nbody')
      await mkdir(join(dir, 'tagged'), { recursive: true })
      await writeFile(join(dir, 'tagged', 'SKILL.md'), '---\nname: tagged\nx: !foo bar\n---\nbody')
      const tagged = await createToolkit({ skillsDir: dir, logger: recordingLogger().logger })
      expect((await tagged.execute('skill', { name: 'tagged' })).isError).toBe(false)
      await settle()
      expect(processWarnings).toStrictEqual([])
    } finally {
      process.off('warning', onWarning)
      await rm(dir, { recursive: true, force: true })
    }
    expectNoPollution()
  }, 120_000)
})

describe('no process is left behind by the hostile-input suite', () => {
  it('has no fixture server running once its toolkits are closed', async () => {
    await settle(500)
    expect(processesWithMarker('reliability-hostile')).toStrictEqual([])
  })
})
