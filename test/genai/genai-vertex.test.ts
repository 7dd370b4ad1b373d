import { GoogleGenAI } from '@google/genai'
import { OAuth2Client } from 'google-auth-library'
import { afterEach, describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import {
  modelReply,
  type ScriptedGemini,
  startScriptedGemini,
  streamReply,
} from '../support/scripted-gemini.js'

let server: ScriptedGemini | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/**
 * A Vertex AI client that needs no Google Cloud: an OAuth2 client holding a far-from-expiry access token
 * answers `getRequestHeaders` from memory, so google-auth-library never looks for credentials or calls
 * the token endpoint.
 */
function vertexClient(baseUrl: string): GoogleGenAI {
  const authClient = new OAuth2Client()
  authClient.setCredentials({ access_token: 'fake-vertex-token', expiry_date: Date.now() + 3_600_000 })
  return new GoogleGenAI({
    vertexai: true,
    project: 'demo-project',
    location: 'us-central1',
    googleAuthOptions: { authClient },
    httpOptions: { baseUrl },
  })
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  execute: ({ word }) => `${String(word)}: a greeting`,
})

describe('createClient({ genai }) on Vertex AI', () => {
  it('sends the same shapes to the Vertex path, with the bearer token', async () => {
    const firstTurn = [
      { functionCall: { args: { word: 'hello' }, name: 'lookup' }, thoughtSignature: 'dmVydGV4LXNpZw==' },
      { functionCall: { args: { word: 'hi' }, name: 'lookup' } },
    ]
    server = await startScriptedGemini({
      script: [
        modelReply(firstTurn),
        modelReply([{ text: 'Both are greetings.' }]),
        streamReply([
          [{ text: 'Again: ' }],
          [{ text: 'greetings.' }, { text: '', thoughtSignature: 'c3RyZWFt' }],
        ]),
      ],
    })
    await using toolkit = await createToolkit({ tools: [lookup] })
    const client = createClient({
      genai: vertexClient(server.baseUrl),
      model: 'gemini-2.5-flash',
      system: 'Be exact.',
    })

    const result = await client.run('What do hello and hi mean?', { toolkit })
    const streamed = client.stream('Once more?', { toolkit, history: result.messages })
    for await (const _event of streamed) {
      // drain
    }
    const final = await streamed.result

    const [first, second, third] = server.requests
    expect(server.requests.map((request) => request.url)).toStrictEqual([
      '/v1beta1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      '/v1beta1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent',
      '/v1beta1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    ])
    expect(first?.api).toBe('vertex')
    expect(first?.headers.authorization).toBe('Bearer fake-vertex-token')
    expect(first?.headers['x-goog-api-key']).toBeUndefined()
    expect(first?.body).toMatchInlineSnapshot(`
      {
        "contents": [
          {
            "parts": [
              {
                "text": "What do hello and hi mean?",
              },
            ],
            "role": "user",
          },
        ],
        "generationConfig": {},
        "systemInstruction": {
          "parts": [
            {
              "text": "Be exact.",
            },
          ],
        },
        "tools": [
          {
            "functionDeclarations": [
              {
                "description": "Looks a word up.",
                "name": "lookup",
                "parameters": {
                  "properties": {
                    "word": {
                      "type": "STRING",
                    },
                  },
                  "required": [
                    "word",
                  ],
                  "type": "OBJECT",
                },
              },
            ],
          },
        ],
      }
    `)
    expect(second?.body.contents.slice(1)).toStrictEqual([
      { role: 'model', parts: firstTurn },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'lookup', response: { output: 'hello: a greeting' } } },
          { functionResponse: { name: 'lookup', response: { output: 'hi: a greeting' } } },
        ],
      },
    ])
    expect(third?.body.contents).toStrictEqual([
      ...(second?.body.contents ?? []),
      { role: 'model', parts: [{ text: 'Both are greetings.' }] },
      { role: 'user', parts: [{ text: 'Once more?' }] },
    ])
    expect(final.text).toBe('Again: greetings.')
    expect(final.messages.at(-1)).toStrictEqual({
      role: 'model',
      parts: [{ text: 'Again: ' }, { text: 'greetings.' }, { text: '', thoughtSignature: 'c3RyZWFt' }],
    })
  })
})
