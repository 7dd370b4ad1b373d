// The scenario as the AI SDK's own loop runs it, shared by the generateText rows (zod and MCP tools, or a
// toolnexus toolkit through toAISDK).

import { generateText, isStepCount, type LanguageModel, type ToolSet } from 'ai'
import { PROMPT, SYSTEM } from '../scenario.js'
import type { BenchInstance } from './types.js'

/** The scenario run by the AI SDK's own loop: `generateText` over `tools` until the model answers. */
export function generateTextInstance(
  model: LanguageModel,
  tools: ToolSet,
  close: () => Promise<void>,
): BenchInstance {
  return {
    async run() {
      const result = await generateText({
        model,
        system: SYSTEM,
        prompt: PROMPT,
        tools,
        stopWhen: isStepCount(10),
      })
      return result.text
    },
    close,
  }
}
