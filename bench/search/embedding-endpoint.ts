// An OpenAI-compatible embeddings endpoint on loopback, so the bench reaches an embedding model the way a
// user does: through `@ai-sdk/openai`'s embedding model passed as `search.embeddings`. What answers behind
// it is a function from texts to vectors: a hashed bag of words (what the fusion costs) or a real
// sentence encoder (what the fusion finds).

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Texts in, one vector per text out, in order. */
export type Embedder = (texts: string[]) => Promise<number[][]>

export interface EmbeddingEndpoint {
  /** The base URL to give `createOpenAI({ baseURL })`: it ends in `/v1`. */
  url: string
  close: () => Promise<void>
}

/** Serves `POST /v1/embeddings` (OpenAI's wire format) on 127.0.0.1, on a free port. */
export async function serveEmbeddings(
  embed: Embedder,
  model = 'bench-embedding',
): Promise<EmbeddingEndpoint> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
        response.writeHead(404, { 'content-type': 'application/json' })
        response.end(JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }))
        return
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string | string[] }
      const texts = typeof body.input === 'string' ? [body.input] : body.input
      embed(texts).then(
        (vectors) => {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end(
            JSON.stringify({
              object: 'list',
              data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
              model,
              usage: { prompt_tokens: texts.length, total_tokens: texts.length },
            }),
          )
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'application/json' })
          response.end(JSON.stringify({ error: { message: String(error) } }))
        },
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** A 256-dimension hashed bag of words per text: no meaning, next to no cost. */
export const hashedBagOfWords: Embedder = async (texts) =>
  texts.map((text) => {
    const vector = new Array<number>(256).fill(0)
    for (const word of text.toLowerCase().split(/\W+/)) {
      let hash = 0
      for (let at = 0; at < word.length; at++) hash = (hash * 31 + word.charCodeAt(at)) | 0
      vector[Math.abs(hash) % 256] = (vector[Math.abs(hash) % 256] ?? 0) + 1
    }
    return vector
  })
