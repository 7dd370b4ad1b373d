// PLACEHOLDER — the adapters helper replaces this file.
import type { ToolSet } from 'ai'
import type { Tool } from '../tool/types.js'

export function toAISDK(_tools: readonly Tool[]): ToolSet {
  throw new Error('toAISDK: not built yet')
}
