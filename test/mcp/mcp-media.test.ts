import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModel } from 'ai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'
import { chatThrough } from '../next/ui-stream.js'
import { anthropicProtocol } from '../support/scripted-anthropic.js'
import { genaiFor, modelReply, type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'
import { googleProtocol } from '../support/scripted-google.js'
import { openaiChatProtocol, openaiResponsesProtocol } from '../support/scripted-openai.js'
import {
  type ScriptedServer,
  type ScriptStep,
  startScriptedServer,
  type WireProtocol,
} from '../support/scripted-server.js'
import { recordingLogger, stdioServer } from './mcp-fixtures.js'

// The fixture's 1×1 PNG, as its `image` tool returns it.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII='

let toolkit: Toolkit
beforeAll(async () => {
  toolkit = await createToolkit({
    mcpConfig: { mcpServers: { fx: stdioServer() } },
    logger: recordingLogger().logger,
  })
})
afterAll(() => toolkit.close())

const servers: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()))
})

const SCRIPT: ScriptStep[] = [
  { type: 'reply', toolCalls: [{ id: 'call_img', name: 'fx_image', arguments: '{}' }] },
  { type: 'reply', text: 'A tiny transparent picture.' },
]

async function secondRequest(protocol: WireProtocol, model: (url: string) => LanguageModel) {
  const server: ScriptedServer = await startScriptedServer({ protocol, script: SCRIPT })
  servers.push(server)
  const result = await createClient({ model: model(server.url) }).run('Draw.', { toolkit })
  expect(result.text).toBe('A tiny transparent picture.')
  expect(result.toolCalls[0]?.media).toStrictEqual([{ type: 'image', mediaType: 'image/png', data: PNG }])
  return server.requests[1]?.body
}

describe('an image from an MCP tool reaches the model in each provider’s own form', () => {
  it('OpenAI Responses: function_call_output with input_text and input_image', async () => {
    const body = await secondRequest(openaiResponsesProtocol, (url) =>
      createOpenAI({ baseURL: url, apiKey: 'k' }).responses('gpt-scripted'),
    )
    expect(
      body.input.find((item: { type: string }) => item.type === 'function_call_output'),
    ).toMatchInlineSnapshot(`
      {
        "call_id": "call_img",
        "output": [
          {
            "text": "a tiny picture
      [image: image/png, 68 bytes]",
            "type": "input_text",
          },
          {
            "image_url": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
            "type": "input_image",
          },
        ],
        "type": "function_call_output",
      }
    `)
  })

  it('Anthropic: tool_result with a text block and a base64 image block', async () => {
    const body = await secondRequest(anthropicProtocol, (url) =>
      createAnthropic({ baseURL: url, apiKey: 'k' })('claude-scripted'),
    )
    expect(body.messages.at(-1)).toMatchInlineSnapshot(`
      {
        "content": [
          {
            "content": [
              {
                "text": "a tiny picture
      [image: image/png, 68 bytes]",
                "type": "text",
              },
              {
                "source": {
                  "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
                  "media_type": "image/png",
                  "type": "base64",
                },
                "type": "image",
              },
            ],
            "tool_use_id": "call_img",
            "type": "tool_result",
          },
        ],
        "role": "user",
      }
    `)
  })

  it('Google (AI SDK, Gemini 3): functionResponse with the image in parts', async () => {
    const body = await secondRequest(googleProtocol, (url) =>
      createGoogleGenerativeAI({ baseURL: url, apiKey: 'k', generateId: () => 'gen-1' })(
        'gemini-3-flash-preview',
      ),
    )
    expect(body.contents.at(-1)).toMatchInlineSnapshot(`
      {
        "parts": [
          {
            "functionResponse": {
              "id": "gen-1",
              "name": "fx_image",
              "parts": [
                {
                  "inlineData": {
                    "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
                    "mimeType": "image/png",
                  },
                },
              ],
              "response": {
                "content": "a tiny picture
      [image: image/png, 68 bytes]",
                "name": "fx_image",
              },
            },
          },
        ],
        "role": "user",
      }
    `)
  })

  it('OpenAI Chat Completions takes text only: the tool message names the image', async () => {
    const body = await secondRequest(openaiChatProtocol, (url) =>
      createOpenAI({ baseURL: url, apiKey: 'k' }).chat('gpt-scripted'),
    )
    expect(body.messages.at(-1)).toMatchInlineSnapshot(`
      {
        "content": "a tiny picture
      [image: image/png, 68 bytes]",
        "role": "tool",
        "tool_call_id": "call_img",
      }
    `)
  })

  describe('@google/genai', () => {
    let gemini: ScriptedGemini | undefined
    afterEach(async () => {
      await gemini?.close()
      gemini = undefined
    })

    async function toolTurn(model: string) {
      gemini = await startScriptedGemini({
        script: [
          modelReply([{ functionCall: { id: 'c1', name: 'fx_image', args: {} } }]),
          modelReply([{ text: 'A tiny picture.' }]),
        ],
      })
      const genai = genaiFor(gemini.baseUrl)
      await createClient({ genai, model }).run('Draw.', { toolkit })
      return gemini.requests[1]?.body.contents.at(-1)
    }

    it('Gemini 3: functionResponse.parts with inline data', async () => {
      expect(await toolTurn('gemini-3-flash-preview')).toMatchInlineSnapshot(`
        {
          "parts": [
            {
              "functionResponse": {
                "id": "c1",
                "name": "fx_image",
                "parts": [
                  {
                    "inlineData": {
                      "data": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
                      "mimeType": "image/png",
                    },
                  },
                ],
                "response": {
                  "output": "a tiny picture
        [image: image/png, 68 bytes]",
                },
              },
            },
          ],
          "role": "user",
        }
      `)
    })

    it('Gemini 2.5 takes no media in a function response: the text names the image', async () => {
      expect(await toolTurn('gemini-2.5-flash')).toMatchInlineSnapshot(`
        {
          "parts": [
            {
              "functionResponse": {
                "id": "c1",
                "name": "fx_image",
                "response": {
                  "output": "a tiny picture
        [image: image/png, 68 bytes]",
                },
              },
            },
          ],
          "role": "user",
        }
      `)
    })
  })
})

describe('media limits', () => {
  it('media past maxMediaBytes are left out and the output says so', async () => {
    const big = 'A'.repeat(4000)
    const many = defineTool({
      name: 'pictures',
      description: 'Two images.',
      inputSchema: { type: 'object', properties: {} },
      execute: () => ({
        output: 'two pictures',
        isError: false,
        media: [
          { type: 'image', mediaType: 'image/png', data: PNG },
          { type: 'image', mediaType: 'image/png', data: big },
        ],
      }),
    })
    const small = await createToolkit({ tools: [many], maxMediaBytes: 1000 })
    const result = await small.execute('pictures', {})
    expect(result.output).toBe(
      'two pictures\n[image/png of 3000 bytes left out: over the 1000-byte media limit (maxMediaBytes)]',
    )
    expect(result.media).toStrictEqual([{ type: 'image', mediaType: 'image/png', data: PNG }])
  })
})

describe('the UI message stream', () => {
  it('shows an image from an MCP tool as a file part after the tool output', async () => {
    const server = await startScriptedServer({ protocol: openaiResponsesProtocol, script: SCRIPT })
    servers.push(server)
    const client = createClient({
      model: createOpenAI({ baseURL: server.url, apiKey: 'k' }).responses('gpt-scripted'),
    })
    const exchange = await chatThrough(
      async () => client.stream('Draw.', { toolkit }).toUIMessageStreamResponse(),
      [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Draw.' }] }],
    )
    expect(exchange.errors).toStrictEqual([])
    const at = exchange.chunks.findIndex((chunk) => chunk.type === 'tool-output-available')
    expect(exchange.chunks[at + 1]).toStrictEqual({
      type: 'file',
      url: `data:image/png;base64,${PNG}`,
      mediaType: 'image/png',
    })
    expect(exchange.message?.parts.filter((part) => part.type === 'file')).toStrictEqual([
      { type: 'file', url: `data:image/png;base64,${PNG}`, mediaType: 'image/png' },
    ])
  })
})
