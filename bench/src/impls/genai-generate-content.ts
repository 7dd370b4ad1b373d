// Floor for the Gemini rows: a hand-written loop over `@google/genai`'s `models.generateContent`, the
// model turn appended verbatim and one `user` turn of `functionResponse` parts per round.

import { type Content, GoogleGenAI, type Part } from '@google/genai'
import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { callPlainTool, loadPlainTools } from './plain-tools.js'
import type { CreateImplementation } from './types.js'

export const create: CreateImplementation = async (options) => {
  const tools = await loadPlainTools(options)
  const ai = new GoogleGenAI({
    apiKey: 'bench',
    httpOptions: { baseUrl: options.geminiBaseUrl, apiVersion: 'v1beta' },
  })
  const config = {
    systemInstruction: SYSTEM,
    tools: [
      {
        functionDeclarations: tools.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parametersJsonSchema: tool.parameters,
        })),
      },
    ],
  }
  return {
    async run() {
      const contents: Content[] = [{ role: 'user', parts: [{ text: PROMPT }] }]
      for (let turn = 0; turn < 10; turn++) {
        const response = await ai.models.generateContent({ model: MODEL_ID, contents, config })
        const content = response.candidates?.[0]?.content
        if (content === undefined) throw new Error('no candidate')
        contents.push(content)
        const calls = (content.parts ?? []).flatMap((part) =>
          part.functionCall === undefined ? [] : [part.functionCall],
        )
        if (calls.length === 0) return response.text ?? ''
        const outputs = await Promise.all(
          calls.map((call) => callPlainTool(tools, call.name ?? '', call.args ?? {})),
        )
        contents.push({
          role: 'user',
          parts: calls.map(
            (call, index): Part => ({
              functionResponse: {
                name: call.name ?? '',
                ...(call.id === undefined ? {} : { id: call.id }),
                response: { output: outputs[index] },
              },
            }),
          ),
        })
      }
      throw new Error('no answer after 10 turns')
    },
    close: () => tools.close(),
  }
}
