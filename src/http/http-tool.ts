// PLACEHOLDER — the sources helper replaces this file (§7).
import type { JSONSchema, Tool } from '../tool/types.js'

export interface HttpToolSpec {
  name: string
  description: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  headers?: Record<string, string>
  query?: string[]
  inputSchema: JSONSchema
  timeoutMs?: number
}

export function httpTool(_spec: HttpToolSpec): Tool {
  throw new Error('httpTool: not built yet')
}
