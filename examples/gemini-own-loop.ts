// Your own Gemini loop, with toolnexus only for the tools: `toGenAITools` declares them (toGemini, typed
// as the SDK's Tool[]), and `executeFunctionCalls` answers each response's function calls. Run: `npx tsx examples/gemini-own-loop.ts`.
// With GEMINI_API_KEY set it asks real Gemini; without, a local scripted Gemini server plays the model.
import { type Content, GoogleGenAI } from '@google/genai'
import { createToolkit, defineTool, executeFunctionCalls, toGenAITools } from '../src/index.js'
import { startScriptedGemini } from '../test/support/scripted-gemini.js'
import { createGeminiPlanner } from '../test/support/scripted-gemini-planner.js'

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, celsius: 31, sky: 'humid and bright' }),
})

const apiKey = process.env.GEMINI_API_KEY || process.env.GOOGLE_API_KEY
const offline = apiKey ? undefined : await startScriptedGemini({ script: createGeminiPlanner() })
const ai = new GoogleGenAI({
  apiKey: apiKey ?? 'offline',
  // v1beta, not the SDK's default v1: function calling and thinking features land there first.
  httpOptions: { apiVersion: 'v1beta', ...(offline ? { baseUrl: offline.baseUrl } : {}) },
})
const model = process.env.GEMINI_MODEL ?? 'gemini-2.5-flash'

await using toolkit = await createToolkit({ tools: [weather] })
const contents: Content[] = [{ role: 'user', parts: [{ text: 'What is the weather in Chennai?' }] }]

for (let turn = 1; turn <= 10; turn++) {
  const response = await ai.models.generateContent({
    model,
    contents,
    config: { tools: toGenAITools(toolkit) },
  })
  // The model turn exactly as it came: it carries the thought signatures Gemini wants back.
  const modelTurn = response.candidates?.[0]?.content
  if (modelTurn === undefined) break
  contents.push(modelTurn)
  const answers = await executeFunctionCalls(toolkit, response)
  if (answers.parts?.length === 0) {
    console.log(response.text)
    break
  }
  for (const part of answers.parts ?? []) console.log(`turn ${turn}:`, JSON.stringify(part.functionResponse))
  contents.push(answers)
}

await offline?.close()
