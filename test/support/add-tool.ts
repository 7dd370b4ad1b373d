// The `add` tool the chat and reliability tests share: two required numbers, the sum answered as text.
import { defineTool } from '../../src/tool/define-tool.js'

export const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => String(Number(a) + Number(b)),
})
