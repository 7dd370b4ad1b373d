// The `explode` tool the loop, genai and telemetry tests share: no arguments, and it always throws "kaboom".
import { defineTool } from '../../src/tool/define-tool.js'

export const explode = defineTool({
  name: 'explode',
  description: 'Always throws.',
  inputSchema: { type: 'object', properties: {} },
  execute: () => {
    throw new Error('kaboom')
  },
})
