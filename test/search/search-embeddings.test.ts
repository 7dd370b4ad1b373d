// Embedding fusion through a scripted OpenAI-compatible /embeddings endpoint: each tool is embedded once
// per definition, each search embeds its query, and the fused ranking still puts the right tool first.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createOpenAI } from '@ai-sdk/openai'
import { afterEach, describe, expect, it } from 'vitest'
import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit } from '../../src/toolkit/create-toolkit.js'
import { sampleTools } from './sample-tools.js'

const closers: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** Answers every input with a small bag-of-words vector; keeps the inputs of each request. */
async function embeddingEndpoint(): Promise<{ url: string; inputs: string[][] }> {
  const inputs: string[][] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] }
      inputs.push(body.input)
      const data = body.input.map((text, index) => {
        const vector = new Array<number>(64).fill(0)
        for (const word of text.toLowerCase().split(/\W+/)) {
          let hash = 7
          for (let at = 0; at < word.length; at++) hash = (hash * 31 + word.charCodeAt(at)) % 64
          vector[hash] = (vector[hash] ?? 0) + 1
        }
        return { object: 'embedding', index, embedding: vector }
      })
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          object: 'list',
          data,
          model: 'scripted',
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, inputs }
}

describe('search.embeddings', () => {
  it('embeds each tool once per definition and each query once', async () => {
    const endpoint = await embeddingEndpoint()
    const embeddings = createOpenAI({ baseURL: endpoint.url, apiKey: 'k' }).embedding('scripted')
    const toolkit = await createToolkit({ tools: sampleTools(), search: { embeddings } })
    closers.push(() => toolkit.close())
    const [first] = await toolkit.search('current stock price', { limit: 3 })
    expect(first?.name).toBe('yahoo-finance_get_current_stock_price')
    expect(endpoint.inputs.map((input) => input.length)).toStrictEqual([19, 1])
    expect(endpoint.inputs[0]?.[2]).toBe(
      'yahoo-finance_get_current_stock_price (yahoo-finance): Get the current stock price based on stock symbol.',
    )
    await toolkit.search('dividends', { limit: 3 })
    expect(endpoint.inputs.map((input) => input.length)).toStrictEqual([19, 1, 1])
    toolkit.register(
      defineTool({
        name: 'get_weather',
        description: 'Weather for a city.',
        inputSchema: { type: 'object' },
        execute: () => 'sunny',
      }),
    )
    const [weather] = await toolkit.search('weather in Pune', { limit: 1 })
    expect(weather?.name).toBe('get_weather')
    // Only the new tool, then the query.
    expect(endpoint.inputs.slice(3)).toStrictEqual([
      ['get_weather: Weather for a city.'],
      ['weather in Pune'],
    ])
  })
})
