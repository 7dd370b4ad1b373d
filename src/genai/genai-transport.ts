// PLACEHOLDER — the @google/genai helper replaces this file (§8 Gemini transport).
import type { Transport } from '../loop/transport.js'

/** The part of a `GoogleGenAI` instance the transport uses. */
export interface GenAIClientLike {
  models: {
    generateContent(parameters: unknown): Promise<unknown>
    generateContentStream(parameters: unknown): Promise<AsyncIterable<unknown>>
  }
}

export function createGenAITransport(_options: { genai: GenAIClientLike; model: string }): Transport<unknown> {
  throw new Error('genai transport: not built yet')
}
