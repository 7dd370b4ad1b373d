// Floor: a bare loop over the `@ai-sdk/openai` model's own `doGenerate` — the same transport toolnexus
// uses, with no framework around it. toolnexus's target is to stay within 1.10× of this.

import { createOpenAI } from '@ai-sdk/openai'
import { MODEL_ID, PROMPT, SYSTEM } from '../scenario.js'
import { callPlainTool, loadPlainTools } from './plain-tools.js'
import type { CreateImplementation } from './types.js'

type ChatModel = ReturnType<ReturnType<typeof createOpenAI>['chat']>
type CallOptions = Parameters<ChatModel['doGenerate']>[0]
type Prompt = CallOptions['prompt']

/**
 * The floor's loop, one run: the model's `doGenerate` until it calls no tool, each call's arguments
 * parsed once and its output sent back as text. The in-process loop bench runs this same loop.
 */
export async function bareDoGenerateRun(
  model: Pick<ChatModel, 'doGenerate'>,
  declarations: NonNullable<CallOptions['tools']>,
  callTool: (name: string, args: unknown) => Promise<string>,
): Promise<string> {
  const prompt: Prompt = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: [{ type: 'text', text: PROMPT }] },
  ]
  for (let turn = 0; turn < 10; turn++) {
    const result = await model.doGenerate({ prompt, tools: declarations })
    const calls = result.content.flatMap((part) => (part.type === 'tool-call' ? [part] : []))
    if (calls.length === 0) {
      return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    }
    const parsed = calls.map((call) => JSON.parse(call.input) as unknown)
    const outputs = await Promise.all(calls.map((call, index) => callTool(call.toolName, parsed[index])))
    prompt.push({
      role: 'assistant',
      content: calls.map((call, index) => ({
        type: 'tool-call',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        input: parsed[index],
      })),
    })
    prompt.push({
      role: 'tool',
      content: calls.map((call, index) => ({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: { type: 'text', value: outputs[index]! },
      })),
    })
  }
  throw new Error('no answer after 10 turns')
}

export const create: CreateImplementation = async (options) => {
  const tools = await loadPlainTools(options)
  const model = createOpenAI({ baseURL: options.openaiBaseUrl, apiKey: 'bench' }).chat(MODEL_ID)
  const declarations: NonNullable<CallOptions['tools']> = tools.tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
  }))
  const callTool = (name: string, args: unknown) => callPlainTool(tools, name, args)
  return {
    run: () => bareDoGenerateRun(model, declarations, callTool),
    close: () => tools.close(),
  }
}
