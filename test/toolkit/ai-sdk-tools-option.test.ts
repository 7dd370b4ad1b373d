// AI SDK tools handed to `tools` as they are (plain JavaScript does not stop it): a ConfigError that says
// to bring them in with fromAISDK, before any MCP server starts.
import { tool } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fromAISDK } from '../../src/adapters/from-ai-sdk.js'
import { ConfigError } from '../../src/errors.js'
import { createToolkit, type ToolkitOptions } from '../../src/toolkit/create-toolkit.js'

const weather = tool({
  description: 'Current weather for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => `sunny in ${city}`,
})

describe('createToolkit with AI SDK tools passed as they are', () => {
  it.each([
    {
      given: 'an object of AI SDK tools',
      tools: { weather },
      field: 'tools',
      message:
        "tools is an object of AI SDK tools; createToolkit takes an array of Tool. Convert them with fromAISDK: tools: await fromAISDK({ weather }) (import { fromAISDK } from 'toolnexus').",
    },
    {
      given: 'an AI SDK tool in the array',
      tools: [weather],
      field: 'tools[0]',
      message:
        'tools[0] is an AI SDK tool (it has no name): bring AI SDK tools in with fromAISDK, keyed by name: tools: await fromAISDK({ weather }).',
    },
    {
      given: 'something else',
      tools: 'weather',
      field: 'tools',
      message: 'tools must be an array of Tool (from defineTool, httpTool or fromAISDK), got string.',
    },
  ])('$given: a ConfigError naming fromAISDK', async ({ tools, field, message }) => {
    const error = await createToolkit({
      tools,
      // A server that would fail the test if it started: the check comes first.
      mcpConfig: { mcpServers: { never: { command: '/nonexistent/never-started' } } },
    } as unknown as ToolkitOptions).catch((caught: unknown) => caught)
    expect(ConfigError.isInstance(error)).toBe(true)
    expect([(error as ConfigError).field, (error as Error).message]).toStrictEqual([field, message])
  })

  it('the way the message shows works', async () => {
    await using toolkit = await createToolkit({ tools: await fromAISDK({ weather }) })
    expect(await toolkit.execute('weather', { city: 'Chennai' })).toStrictEqual({
      output: 'sunny in Chennai',
      isError: false,
    })
  })
})
