import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createToolkit, defineTool } from '../../src/index.js'

const fixtures = fileURLToPath(new URL('../fixtures/skills', import.meta.url))
const helloWorld = `${fixtures}/hello-world`
// The fixture lives wherever the repository is checked out; a path with spaces is %-encoded in the URL.

function collect(): { warnings: string[]; logger: { warn(message: string): void } } {
  const warnings: string[] = []
  return { warnings, logger: { warn: (message) => warnings.push(message) } }
}

describe('the hello-world fixture through createToolkit', () => {
  it('yields the byte-exact skill block', async () => {
    const { logger, warnings } = collect()
    const tk = await createToolkit({ skillsDir: fixtures, logger })
    const result = await tk.execute('skill', { name: 'hello-world' })
    expect(result.isError).toBe(false)
    expect(result.output).toBe(`<skill_content name="hello-world">
# Skill: hello-world

# Hello World Skill

This is the skill body. When the model calls the \`skill\` tool with
\`{ "name": "hello-world" }\`, everything below the frontmatter is injected into the
conversation, along with a sampled list of files in this directory.

## Steps

1. Read \`scripts/greet.sh\` in this skill's base directory.
2. Run it with the user's name.
3. Report the greeting back.

Relative paths (like \`scripts/greet.sh\`) are resolved against the base directory
printed in the tool output.

Base directory for this skill: ${pathToFileURL(helloWorld).href}
Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.
Note: file list is sampled.

<skill_files>
<file>${helloWorld}/scripts/greet.sh</file>
</skill_files>
</skill_content>`)
    expect(result.metadata).toStrictEqual({ skill: 'hello-world', directory: helloWorld })
    expect(warnings).toStrictEqual([])
  })

  it('yields the byte-exact skills prompt', async () => {
    const tk = await createToolkit({ skillsDir: [fixtures], logger: collect().logger })
    expect(tk.skillsPrompt()).toBe(`Skills provide specialized instructions and workflows for specific tasks.
Use the skill tool to load a skill when a task matches its description.

## Available Skills
- **hello-world**: A tiny example skill. Use when you want to see how skill loading (progressive disclosure) works end to end.`)
  })

  it('exposes one tool, skill, with a required name, after the skill source and before HTTP and host tools', async () => {
    const host = defineTool({ name: 'host_tool', description: 'host', execute: () => 'ok' })
    const tk = await createToolkit({
      tools: [host],
      skillsDir: fixtures,
      http: [
        {
          name: 'http_tool',
          description: 'http',
          method: 'GET',
          url: 'http://127.0.0.1:9/never-called',
          inputSchema: { type: 'object', properties: {} },
        },
      ],
      logger: collect().logger,
    })
    expect(tk.tools().map((tool) => [tool.name, tool.source])).toStrictEqual([
      ['skill', 'skill'],
      ['http_tool', 'http'],
      ['host_tool', 'native'],
    ])
    expect(tk.get('skill')?.inputSchema).toStrictEqual({
      type: 'object',
      properties: { name: { type: 'string', description: 'The name of the skill to load.' } },
      required: ['name'],
    })
    expect(tk.toAnthropic()[0]).toStrictEqual({
      name: 'skill',
      description:
        "Loads a skill: its instructions and a sample of the files in its folder. Call it when a task matches a skill's description. Available skills: hello-world",
      input_schema: tk.get('skill')?.inputSchema,
    })
  })

  it('places the skill tool after MCP tools, and keeps it when an HTTP tool takes its name', async () => {
    const { logger, warnings } = collect()
    const stdioServer = fileURLToPath(new URL('../fixtures/mcp/stdio-server.mjs', import.meta.url))
    const http = (name: string) => ({
      name,
      description: name,
      method: 'GET' as const,
      url: 'http://127.0.0.1:9/never-called',
      inputSchema: { type: 'object', properties: {} },
    })
    await using tk = await createToolkit({
      mcpConfig: { mcpServers: { fx: { command: process.execPath, args: [stdioServer] } } },
      skillsDir: fixtures,
      http: [http('skill'), http('http_tool')],
      tools: [defineTool({ name: 'host_tool', description: 'host', execute: () => 'ok' })],
      logger,
    })
    expect(tk.mcpStatus()).toStrictEqual({ fx: 'connected' })
    const sources = tk.tools().map((tool) => tool.source)
    const firstNonMcp = sources.indexOf('skill')
    expect(firstNonMcp).toBeGreaterThan(0)
    expect(sources.slice(0, firstNonMcp).every((source) => source === 'mcp')).toBe(true)
    expect(
      tk
        .tools()
        .slice(firstNonMcp)
        .map((tool) => [tool.name, tool.source]),
    ).toStrictEqual([
      ['skill', 'skill'],
      ['http_tool', 'http'],
      ['host_tool', 'native'],
    ])
    expect(warnings).toStrictEqual([
      'Duplicate tool name "skill": kept the skill tool skillsDir, dropped the http tool http[0].',
    ])
  })

  it('answers an unknown name with the names that exist', async () => {
    const tk = await createToolkit({ skillsDir: fixtures, logger: collect().logger })
    expect(await tk.execute('skill', { name: 'x' })).toStrictEqual({
      output: 'Skill "x" not found. Available skills: hello-world',
      isError: true,
    })
  })

  it('refuses a call without a name before the tool runs', async () => {
    const tk = await createToolkit({ skillsDir: fixtures, logger: collect().logger })
    expect(await tk.execute('skill', {})).toStrictEqual({
      output: 'Invalid arguments for tool "skill": name: required argument is missing',
      isError: true,
    })
  })

  it.each([
    '../hello-world',
    'hello-world/../hello-world',
    './hello-world',
    helloWorld,
    `${helloWorld}/SKILL.md`,
    '/etc/passwd',
    '..\\hello-world',
    '__proto__',
    'constructor',
    'hello-world\u0000',
  ])('treats %j as an unknown name, never as a path', async (name) => {
    const tk = await createToolkit({ skillsDir: fixtures, logger: collect().logger })
    const result = await tk.execute('skill', { name })
    expect(result).toStrictEqual({
      output: `Skill "${name}" not found. Available skills: hello-world`,
      isError: true,
    })
  })

  it('has no skill tool and an empty prompt when the only root is missing, and says why', async () => {
    const { logger, warnings } = collect()
    const tk = await createToolkit({ skillsDir: `${fixtures}/does-not-exist`, logger })
    expect(tk.tools()).toStrictEqual([])
    expect(tk.skillsPrompt()).toBe('')
    expect(warnings).toStrictEqual([
      `Skills folder ${fixtures}/does-not-exist was skipped: it does not exist.`,
    ])
    expect(tk.warnings()).toStrictEqual(warnings)
  })

  it('has no skills prompt without skillsDir', async () => {
    const tk = await createToolkit({})
    expect(tk.skillsPrompt()).toBe('')
    expect(tk.get('skill')).toBeUndefined()
  })
})
