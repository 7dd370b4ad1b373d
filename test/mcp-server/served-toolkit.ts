import { defineTool } from '../../src/tool/define-tool.js'
import { createToolkit, type Toolkit } from '../../src/toolkit/create-toolkit.js'

/** A 1×1 red PNG. */
export const RED_PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='

/** The schema of `book_trip`, with the 2020-12 keywords a server must pass on untouched. */
export const TRIP_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    city: { type: 'string', minLength: 2, description: 'A city name' },
  },
  properties: {
    from: { $ref: '#/$defs/city' },
    to: { $ref: '#/$defs/city' },
    seats: { type: 'integer', minimum: 1, maximum: 9 },
  },
  required: ['from', 'to'],
  additionalProperties: false,
} as const

/**
 * The toolkit the MCP server tests serve: a read-only tool with annotations, one that throws, one that
 * answers with an image, and one whose schema uses `$defs`, `$ref` and bounds.
 *
 * @example
 * const toolkit = await servedToolkit()
 */
export function servedToolkit(): Promise<Toolkit> {
  return createToolkit({
    logger: { warn: () => {} },
    tools: [
      defineTool({
        name: 'get_weather',
        description: 'Current weather for a city.',
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string', description: 'City name' } },
          required: ['city'],
          additionalProperties: false,
        },
        annotations: { title: 'Weather', readOnlyHint: true, openWorldHint: true },
        execute: ({ city }) => `Sunny in ${String(city)}.`,
      }),
      defineTool({
        name: 'explode',
        description: 'Always fails.',
        annotations: { destructiveHint: true },
        execute: () => {
          throw new Error('kaboom')
        },
      }),
      defineTool({
        name: 'draw',
        description: 'Draws a red pixel.',
        execute: () => ({
          output: 'A red pixel.',
          isError: false,
          media: [{ type: 'image', mediaType: 'image/png', data: RED_PIXEL }],
        }),
      }),
      defineTool({
        name: 'book_trip',
        description: 'Books a trip.',
        inputSchema: TRIP_SCHEMA,
        execute: ({ from, to }) => `Booked ${String(from)} → ${String(to)}.`,
      }),
    ],
  })
}
