// The demo's @google/genai side: `examples/demo.ts --genai` loads this file on demand.
//
// With GEMINI_API_KEY (or GOOGLE_API_KEY) set it talks to real Gemini. Without, the real `@google/genai`
// SDK talks to an in-process scripted Gemini server that plans from the function declarations it is sent
// (it calls the tools whose names and descriptions match the question, with arguments taken from it), so
// the whole path — SDK, wire format, thought signatures, the loop — runs offline.
import { GoogleGenAI } from '@google/genai'
import { type Client, createClient, type GenAIMessage } from '../src/index.js'
import { startScriptedGemini } from '../test/support/scripted-gemini.js'
import { createGeminiPlanner } from '../test/support/scripted-gemini-planner.js'

/** What {@link createGenAIDemo} returns. */
export interface GenAIDemo {
  client: Client<GenAIMessage>
  /** `'gemini'` with an API key, `'offline'` against the scripted server. */
  mode: 'gemini' | 'offline'
  model: string
  /** Stops the scripted server, if one was started. */
  close(): Promise<void>
}

/**
 * A `createClient({ genai, model })` for the demo: real Gemini when a key is set, else offline.
 *
 * @example
 * const demo = await createGenAIDemo({ system: 'Be brief.' })
 * const result = await demo.client.run('What is the weather in Chennai?', { toolkit })
 * await demo.close()
 */
export async function createGenAIDemo(options: { system?: string; model?: string } = {}): Promise<GenAIDemo> {
  const apiKey = process.env.GEMINI_API_KEY || process.env.GOOGLE_API_KEY
  const model = options.model ?? process.env.GEMINI_MODEL ?? 'gemini-2.5-flash'
  const system = options.system === undefined ? {} : { system: options.system }
  if (apiKey) {
    // v1beta: the SDK's default is v1; v1beta is where Gemini's function calling and thinking land first.
    const genai = new GoogleGenAI({ apiKey, httpOptions: { apiVersion: 'v1beta' } })
    return { client: createClient({ genai, model, ...system }), mode: 'gemini', model, close: async () => {} }
  }
  const server = await startScriptedGemini({ script: createGeminiPlanner() })
  const genai = new GoogleGenAI({
    apiKey: 'offline',
    httpOptions: { baseUrl: server.baseUrl, apiVersion: 'v1beta' },
  })
  return {
    client: createClient({ genai, model, ...system }),
    mode: 'offline',
    model,
    close: () => server.close(),
  }
}
