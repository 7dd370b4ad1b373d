// Every implementation the bench runs, as metadata only: a worker imports just the module it runs, so its
// import time and memory are its own.

import type { ToolVariant } from './types.js'

/** The endpoint protocol a group of implementations speaks; ratios only compare within a group. */
export type Protocol = 'openai' | 'gemini'

export interface ImplementationInfo {
  /** Stable id, also the module file name under `impls/`. */
  id: string
  label: string
  protocol: Protocol
  /** The floor rows: the least code that does the job, what every framework is measured against. */
  floor: boolean
  /** Whether this row is toolnexus itself. */
  toolnexus: boolean
  variants: readonly ToolVariant[]
  /**
   * The rows its targets compare it with, measured in shared processes; toolnexus rows without it are
   * compared with their protocol's references.
   */
  comparedWith?: readonly string[]
}

const BOTH: readonly ToolVariant[] = ['native', 'mcp']

export const IMPLEMENTATIONS: readonly ImplementationInfo[] = [
  {
    id: 'toolnexus-ai-sdk',
    label: 'toolnexus (AI SDK model)',
    protocol: 'openai',
    floor: false,
    toolnexus: true,
    variants: BOTH,
  },
  {
    id: 'toolnexus-provider-form',
    label: 'toolnexus provider form (generateText + withToolkit)',
    protocol: 'openai',
    floor: false,
    toolnexus: true,
    variants: BOTH,
    comparedWith: ['toolnexus-ai-sdk', 'floor-create-client-and-step', 'ai-sdk-generate-text-toolkit'],
  },
  {
    id: 'floor-create-client-and-step',
    label: 'floor of a loop in generateText: createClient + one generateText step',
    protocol: 'openai',
    floor: true,
    toolnexus: false,
    variants: BOTH,
  },
  {
    id: 'ai-sdk-generate-text-toolkit',
    label: 'AI SDK generateText + toolkit.toAISDK()',
    protocol: 'openai',
    floor: false,
    toolnexus: false,
    variants: BOTH,
  },
  {
    id: 'ai-sdk-generate-text',
    label: 'AI SDK generateText',
    protocol: 'openai',
    floor: false,
    toolnexus: false,
    variants: BOTH,
  },
  {
    id: 'mastra-agent',
    label: 'Mastra Agent',
    protocol: 'openai',
    floor: false,
    toolnexus: false,
    variants: BOTH,
  },
  {
    id: 'langchain-agent',
    label: 'LangChain createAgent',
    protocol: 'openai',
    floor: false,
    toolnexus: false,
    variants: BOTH,
  },
  {
    id: 'floor-do-generate',
    label: 'floor: bare doGenerate loop',
    protocol: 'openai',
    floor: true,
    toolnexus: false,
    variants: BOTH,
  },
  {
    id: 'floor-fetch',
    label: 'floor: raw fetch loop',
    protocol: 'openai',
    floor: true,
    toolnexus: false,
    variants: BOTH,
  },
  {
    id: 'toolnexus-genai',
    label: 'toolnexus (@google/genai)',
    protocol: 'gemini',
    floor: false,
    toolnexus: true,
    variants: BOTH,
  },
  {
    id: 'genai-generate-content',
    label: 'floor: bare generateContent loop',
    protocol: 'gemini',
    floor: true,
    toolnexus: false,
    variants: BOTH,
  },
]

/** The reference rows ratios are taken against, per protocol. */
export const REFERENCES = {
  openai: { floor: 'floor-do-generate', rawFloor: 'floor-fetch', framework: 'ai-sdk-generate-text' },
  gemini: {
    floor: 'genai-generate-content',
    rawFloor: 'genai-generate-content',
    framework: 'genai-generate-content',
  },
} as const satisfies Record<Protocol, { floor: string; rawFloor: string; framework: string }>

export function implementationById(id: string): ImplementationInfo {
  const info = IMPLEMENTATIONS.find((implementation) => implementation.id === id)
  if (info === undefined)
    throw new Error(`unknown implementation "${id}"; known: ${IMPLEMENTATIONS.map((i) => i.id).join(', ')}`)
  return info
}
