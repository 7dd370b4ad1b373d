// The synthetic tools the scale figures convert: one shape, numbered, with a schema that exercises each
// converter (a bounded integer with a default, an enum, a nested object, a nullable type). Plain definitions,
// so each bench gives them to the `defineTool` of the build it measures.

/** One synthetic tool's definition, as `defineTool` takes it. */
export interface SyntheticToolDefinition {
  name: string
  description: string
  inputSchema: {
    type: 'object'
    properties: Record<string, Record<string, unknown>>
    required: string[]
    additionalProperties: false
  }
  execute: (args: Record<string, unknown>) => string
}

/**
 * `count` synthetic tool definitions, `tool_0000` onwards.
 *
 * @example
 * const tools = syntheticToolDefinitions(1000).map((definition) => defineTool(definition))
 */
export function syntheticToolDefinitions(count: number): SyntheticToolDefinition[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${String(index).padStart(4, '0')}`,
    description: `Synthetic tool number ${index}: looks up a record and returns a summary of it.`,
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The record id.' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
        mode: { type: 'string', enum: ['fast', 'full'] },
        filter: {
          type: 'object',
          properties: {
            tags: { type: 'array', items: { type: 'string' } },
            since: { type: ['string', 'null'] },
          },
          additionalProperties: false,
        },
      },
      required: ['id'],
      additionalProperties: false,
    },
    execute: ({ id }) => `record ${String(id)}`,
  }))
}
