// PLACEHOLDER — the adapters helper replaces this file (lowering to Gemini's Schema subset).
import type { JSONSchema, Tool } from '../tool/types.js'

export interface ToGeminiOptions {
  parametersJsonSchema?: boolean
}
export interface GeminiFunctionDeclaration {
  name: string
  description: string
  parameters?: JSONSchema
  parametersJsonSchema?: JSONSchema
}
export type GeminiToolWrapper = { functionDeclarations: GeminiFunctionDeclaration[] }

export function toGemini(tools: readonly Tool[], options: ToGeminiOptions = {}): [GeminiToolWrapper] {
  return [
    {
      functionDeclarations: tools.map((tool) =>
        options.parametersJsonSchema
          ? { name: tool.name, description: tool.description, parametersJsonSchema: tool.inputSchema }
          : { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      ),
    },
  ]
}
