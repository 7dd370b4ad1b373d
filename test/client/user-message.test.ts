// `client.userMessage` (a person's text and files in the client's own message type) and the per-run
// `system` option, over the real SDKs: the AI SDK's mock model, and @google/genai against the scripted
// Gemini endpoint.
import { fileURLToPath } from 'node:url'
import { convertToModelMessages } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { toGenAIUserContent } from '../../src/client/to-genai-user-content.js'
import { ConfigError } from '../../src/errors.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { genaiFor, modelReply, type ScriptedGemini, startScriptedGemini } from '../support/scripted-gemini.js'

const SKILLS_DIR = fileURLToPath(new URL('../fixtures/skills', import.meta.url))

let gemini: ScriptedGemini | undefined
afterEach(async () => {
  await gemini?.close()
  gemini = undefined
})

function genaiClient(server: ScriptedGemini, system?: string) {
  const genai = genaiFor(server.baseUrl)
  return createClient({
    genai,
    model: 'gemini-2.5-flash',
    retries: 0,
    ...(system === undefined ? {} : { system }),
  })
}

function answeringModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'OK.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined },
      },
      warnings: [],
    }),
  })
}

const FILES = [
  { type: 'text', text: 'Look:' },
  { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=', filename: 'a.png' },
  { type: 'file', mediaType: 'application/pdf', url: 'https://example.com/a.pdf' },
] as const

describe('client.userMessage', () => {
  it('over the AI SDK: the message the AI SDK itself makes of those UI parts', async () => {
    const client = createClient({ model: answeringModel() })
    const [expected] = await convertToModelMessages([{ role: 'user', parts: [...FILES] }])
    expect(await client.userMessage([...FILES])).toStrictEqual(expected)
    expect(await client.userMessage('Hi')).toStrictEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Hi' }],
    })
  })

  it('over genai: a user Content with text, inlineData and fileData parts, no file name or extra field', async () => {
    gemini = await startScriptedGemini({ script: [] })
    const client = genaiClient(gemini)
    const withExtras = FILES.map((part) => ({ ...part, providerMetadata: { google: { x: 1 } } }))
    expect(await client.userMessage(withExtras)).toStrictEqual({
      role: 'user',
      parts: [
        { text: 'Look:' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
        { fileData: { fileUri: 'https://example.com/a.pdf', mimeType: 'application/pdf' } },
      ],
    })
    expect(await client.userMessage('Hi')).toStrictEqual({ role: 'user', parts: [{ text: 'Hi' }] })
  })

  it('reads every form of data: URL into base64 bytes', () => {
    const file = (url: string, mediaType = '') =>
      toGenAIUserContent([{ type: 'file', mediaType, url }]).parts?.[0]
    const base64 = (text: string) => Buffer.from(text).toString('base64')
    // Percent-escaped bytes (UTF-8 and not), plain text, the URL's own media type, parameters before base64.
    expect(file('data:text/plain,caf%C3%A9%20%FF!', 'text/plain')).toStrictEqual({
      inlineData: {
        mimeType: 'text/plain',
        data: Buffer.concat([Buffer.from('café '), Buffer.from([0xff]), Buffer.from('!')]).toString('base64'),
      },
    })
    expect(file('data:text/csv;charset=utf-8;BASE64,YSxi')).toStrictEqual({
      inlineData: { mimeType: 'text/csv', data: 'YSxi' },
    })
    expect(file('data:,100%')).toStrictEqual({ inlineData: { mimeType: 'text/plain', data: base64('100%') } })
    expect(file('data:image/png;base64,iVBO%2Bw0K%3D')).toStrictEqual({
      inlineData: { mimeType: 'image/png', data: 'iVBO+w0K=' },
    })
    // Big enough to need more than one String.fromCharCode slice.
    const big = 'x'.repeat(100_000)
    expect(file(`data:text/plain,${big}`)).toStrictEqual({
      inlineData: { mimeType: 'text/plain', data: base64(big) },
    })
  })

  it('refuses a file the model would fetch from where the server is, and parts that are not text or files', async () => {
    gemini = await startScriptedGemini({ script: [] })
    const client = genaiClient(gemini)
    for (const url of ['gs://bucket/payroll.pdf', 'file:///etc/passwd', 'payroll.pdf']) {
      await expect(client.userMessage([{ type: 'file', mediaType: 'application/pdf', url }])).rejects.toThrow(
        ConfigError,
      )
    }
    await expect(
      client.userMessage([{ type: 'file', mediaType: 'text/plain', url: 'data:text/plain' }]),
    ).rejects.toThrow(/needs a comma/)
    await expect(
      client.userMessage([{ type: 'reasoning', text: 'x' } as unknown as { type: 'text'; text: string }]),
    ).rejects.toThrow(/part 0 must be/)
    await expect(createClient({ model: answeringModel() }).userMessage({} as never)).rejects.toThrow(
      ConfigError,
    )
  })
})

describe('the run option `system`', () => {
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes.',
    inputSchema: { type: 'object', properties: {} },
    execute: () => 'echo',
  })

  it('reaches Gemini as systemInstruction after the client system and before the skills block', async () => {
    gemini = await startScriptedGemini({ script: [modelReply([{ text: 'a' }]), modelReply([{ text: 'b' }])] })
    const toolkit = await createToolkit({ tools: [echo], skillsDir: SKILLS_DIR })
    try {
      await genaiClient(gemini, 'You are terse.').run('Hi', { toolkit, system: 'The user is Ada.' })
      await genaiClient(gemini).run('Hi', { system: 'The user is Ada.' })
      expect(gemini.requests[0]?.body.systemInstruction).toStrictEqual({
        parts: [{ text: `You are terse.\n\nThe user is Ada.\n\n${toolkit.skillsPrompt()}` }],
      })
      expect(gemini.requests[1]?.body.systemInstruction).toStrictEqual({
        parts: [{ text: 'The user is Ada.' }],
      })
    } finally {
      await toolkit.close()
    }
  })

  it('reaches an AI SDK model as its one system message; a non-string is refused', async () => {
    const model = answeringModel()
    const client = createClient({ model, system: 'You are terse.' })
    await client.run('Hi', { system: 'The user is Ada.' })
    expect(model.doGenerateCalls[0]?.prompt[0]).toStrictEqual({
      role: 'system',
      content: 'You are terse.\n\nThe user is Ada.',
    })
    await expect(client.run('Hi', { system: 42 as unknown as string })).rejects.toThrow(ConfigError)
  })
})
