// How the genai client sends tool schemas: lowered `parameters` (the default, with a type on every node, as
// Gemini insists), or each JSON Schema unchanged as `parametersJsonSchema` with `schema: 'json'`.
import { describe, expect, it } from 'vitest'
import { createClient } from '../../src/client/create-client.js'
import type { Tool } from '../../src/tool/types.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { genaiFor, modelReply, startScriptedGemini } from '../support/scripted-gemini.js'

// Every "any value" shape Gemini refuses untyped: free-form, `true`, description only, an array without
// items, a tuple position `{}`, a `$ref` to an untyped definition.
const looseSchema = {
  type: 'object',
  properties: {
    anything: {},
    flag: true,
    note: { description: 'Whatever you like' },
    list: { type: 'array' },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, {}] },
    free: { $ref: '#/$defs/Free' },
  },
  required: ['note'],
  additionalProperties: false,
  $defs: { Free: { description: 'An untyped definition' } },
}

const loose: Tool = {
  name: 'loose',
  description: 'Takes values of any kind.',
  inputSchema: looseSchema,
  source: 'custom',
  execute: async (args) => ({ output: JSON.stringify(args), isError: false }),
}

describe('the genai client’s tool schemas', () => {
  it('sends lowered parameters Gemini accepts (a type on every node) and runs the call', async () => {
    await using gemini = await startScriptedGemini({
      script: [
        modelReply([
          { functionCall: { name: 'loose', args: { note: 'hi', anything: { deep: [1] }, list: [1, 'a'] } } },
        ]),
        modelReply([{ text: 'done' }]),
      ],
    })
    await using toolkit = await createToolkit({ tools: [loose] })
    const client = createClient({ genai: genaiFor(gemini.baseUrl), model: 'gemini-2.5-flash' })
    const result = await client.run('go', { toolkit })
    expect(result.text).toBe('done')
    expect(result.toolCalls.map((call) => call.output)).toStrictEqual([
      JSON.stringify({ note: 'hi', anything: { deep: [1] }, list: [1, 'a'] }),
    ])
    const declaration = gemini.requests[0]?.body.tools?.[0]?.functionDeclarations?.[0]
    expect(declaration?.parameters).toBeDefined()
    expect(declaration).not.toHaveProperty('parametersJsonSchema')
  })

  it("with schema: 'json', sends each JSON Schema unchanged as parametersJsonSchema", async () => {
    await using gemini = await startScriptedGemini({ script: [modelReply([{ text: 'done' }])] })
    await using toolkit = await createToolkit({ tools: [loose] })
    const client = createClient({
      genai: genaiFor(gemini.baseUrl),
      model: 'gemini-2.5-flash',
      schema: 'json',
    })
    await client.run('go', { toolkit })
    const declaration = gemini.requests[0]?.body.tools?.[0]?.functionDeclarations?.[0] as Record<
      string,
      unknown
    >
    expect(declaration.parametersJsonSchema).toStrictEqual(looseSchema)
    expect(declaration).not.toHaveProperty('parameters')
  })

  it('a Gemini endpoint refuses an untyped node, as Gemini does (HTTP 400 "type: must be specified")', async () => {
    await using gemini = await startScriptedGemini({ script: [modelReply([{ text: 'never' }])] })
    const response = await fetch(`${gemini.baseUrl}/v1beta/models/m:generateContent`, {
      method: 'POST',
      body: JSON.stringify({
        contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
        tools: [
          { functionDeclarations: [{ name: 'f', parameters: { type: 'object', properties: { x: {} } } }] },
        ],
      }),
    })
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('parameters.properties[x].type: must be specified')
  })
})
