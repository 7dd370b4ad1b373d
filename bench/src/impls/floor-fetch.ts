// Floor: a raw `fetch` loop over Chat Completions — no SDK at all. What remains is HTTP and JSON.

import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { callPlainTool, loadPlainTools } from './plain-tools.js'
import type { CreateImplementation } from './types.js'

interface ChatMessage {
  role: string
  content: string | null
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>
  tool_call_id?: string
}

interface ChatCompletion {
  choices: Array<{ message: ChatMessage }>
}

export const create: CreateImplementation = async (options) => {
  const tools = await loadPlainTools(options)
  const declarations = tools.tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }))
  const url = `${options.openaiBaseUrl}/chat/completions`
  const headers = { 'content-type': 'application/json', authorization: 'Bearer bench' }
  return {
    async run() {
      const messages: ChatMessage[] = [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: PROMPT },
      ]
      for (let turn = 0; turn < 10; turn++) {
        const response = await fetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ model: MODEL_ID, messages, tools: declarations }),
        })
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`)
        const completion = (await response.json()) as ChatCompletion
        const message = completion.choices[0]!.message
        messages.push(message)
        const calls = message.tool_calls ?? []
        if (calls.length === 0) return message.content ?? ''
        const outputs = await Promise.all(
          calls.map((call) => callPlainTool(tools, call.function.name, JSON.parse(call.function.arguments))),
        )
        calls.forEach((call, index) => {
          messages.push({ role: 'tool', tool_call_id: call.id, content: outputs[index]! })
        })
      }
      throw new Error('no answer after 10 turns')
    },
    close: () => tools.close(),
  }
}
