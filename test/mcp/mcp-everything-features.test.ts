import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createToolkit, type ElicitationRequest, McpRequestError, type Toolkit } from '../../src/index.js'
import { type EverythingHttpHost, startEverythingOverHttp } from './everything-http-host.js'
import { everythingServerPath, recordingLogger, waitFor } from './mcp-fixtures.js'

// The reference server's image, resources, prompts and elicitation, over both of its transports.
describe.each(['stdio', 'streamable-http'] as const)('server-everything over %s', (transport) => {
  let toolkit: Toolkit
  let host: EverythingHttpHost | undefined
  const asked: ElicitationRequest[] = []
  let answer: 'accept' | 'decline' = 'accept'

  beforeAll(async () => {
    host = transport === 'streamable-http' ? await startEverythingOverHttp() : undefined
    toolkit = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: {
        mcpServers: {
          everything:
            host === undefined
              ? { command: process.execPath, args: [everythingServerPath(), 'stdio'] }
              : { url: host.url },
        },
      },
      exposeMcpResources: true,
      exposeMcpPrompts: true,
      onElicitation: (request) => {
        asked.push(request)
        return answer === 'accept'
          ? { action: 'accept', content: { name: 'Ada Lovelace' } }
          : { action: 'decline' }
      },
    })
  }, 60_000)

  afterAll(async () => {
    await toolkit?.close()
    await host?.close()
  })

  it('connects over the expected transport', () => {
    expect(toolkit.mcpServers().everything).toMatchObject({ status: 'connected', transport })
  })

  it('an image tool result carries the PNG as media', async () => {
    const result = await toolkit.execute('everything_get-tiny-image', {})
    expect(result.isError).toBe(false)
    expect(result.media?.map((media) => [media.type, media.mediaType])).toStrictEqual([
      ['image', 'image/png'],
    ])
    expect(result.media?.[0]?.data).toMatch(/^[A-Za-z0-9+/]+=*$/)
  })

  it('structured content is validated against the declared output schema and kept in metadata', async () => {
    const result = await toolkit.execute('everything_get-structured-content', { location: 'New York' })
    expect(result.isError).toBe(false)
    expect(JSON.parse(result.output)).toStrictEqual(result.metadata?.structuredContent)
    expect(result.metadata?.structuredContent).toHaveProperty('temperature')
  })

  it('lists resources and templates, and reads a resource', async () => {
    const resources = await toolkit.mcpResources()
    expect(resources.length).toBeGreaterThan(0)
    expect(resources.every((resource) => resource.server === 'everything')).toBe(true)
    const templates = await toolkit.mcpResourceTemplates()
    expect(templates.map((template) => template.uriTemplate)).toContain(
      'demo://resource/dynamic/text/{resourceId}',
    )
    const read = await toolkit.readResource('everything', 'demo://resource/dynamic/text/7')
    expect(read.contents[0]?.text).toMatch(/^Resource 7: This is a plaintext resource/)
  })

  it('lists prompts and renders one with its arguments', async () => {
    const prompts = await toolkit.mcpPrompts()
    const args = prompts.find((prompt) => prompt.name === 'args-prompt')
    expect(args?.arguments.map((argument) => [argument.name, argument.required ?? false])).toStrictEqual([
      ['city', true],
      ['state', false],
    ])
    const rendered = await toolkit.getPrompt('everything', 'args-prompt', { city: 'Chennai', state: 'TN' })
    expect(rendered.messages).toStrictEqual([
      { role: 'user', content: { type: 'text', text: "What's weather in Chennai, TN?" } },
    ])
  })

  it('resources and prompts are also tools for the model', async () => {
    const listed = await toolkit.execute('everything_list_resources', {})
    expect(listed.isError).toBe(false)
    expect(JSON.parse(listed.output).templates.length).toBeGreaterThan(0)
    const read = await toolkit.execute('everything_read_resource', { uri: 'demo://resource/dynamic/text/3' })
    expect(read.output).toMatch(/^Resource 3: /)
    const prompt = await toolkit.execute('everything_get_prompt', {
      name: 'args-prompt',
      arguments: { city: 'Oslo' },
    })
    expect(prompt.output).toBe("user: What's weather in Oslo?")
  })

  it('a failed read is an McpRequestError naming the server and method', async () => {
    const error = await toolkit.readResource('everything', 'demo://resource/dynamic/text/0').catch((e) => e)
    expect(McpRequestError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ server: 'everything', method: 'resources/read' })
    await expect(toolkit.readResource('nowhere', 'x://y')).rejects.toThrow(
      /No connected MCP server is named "nowhere"/,
    )
  })

  it('elicitation: the tool the server adds once it knows we answer appears, and our answer reaches it', async () => {
    // server-everything registers its elicitation tool after initialize and announces list_changed.
    await waitFor(() => toolkit.get('everything_trigger-elicitation-request') !== undefined)
    answer = 'accept'
    const accepted = await toolkit.execute('everything_trigger-elicitation-request', {})
    expect(accepted.isError).toBe(false)
    expect(accepted.output).toContain('Ada Lovelace')
    expect(asked.at(-1)).toMatchObject({ server: 'everything', message: expect.any(String) })
    expect(asked.at(-1)?.requestedSchema).toMatchObject({ type: 'object', required: ['name'] })
    answer = 'decline'
    const declined = await toolkit.execute('everything_trigger-elicitation-request', {})
    expect(declined.output).toContain('declined')
  })
})

describe('without onElicitation', () => {
  it('the client does not advertise elicitation, so the server offers no elicitation tool', async () => {
    const toolkit = await createToolkit({
      logger: recordingLogger().logger,
      mcpConfig: {
        mcpServers: { everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] } },
      },
    })
    try {
      // Give the server's post-initialize registration time to happen, had it wanted to.
      await new Promise((resolve) => setTimeout(resolve, 300))
      await toolkit.execute('everything_echo', { message: 'sync' })
      expect(toolkit.get('everything_trigger-elicitation-request')).toBeUndefined()
    } finally {
      await toolkit.close()
    }
  }, 60_000)
})
