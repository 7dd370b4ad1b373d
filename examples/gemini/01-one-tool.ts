// Seed example 1 — one tool, and the wrapper that surprises everyone.
// `toGemini` returns ALWAYS exactly one element: the wrapper, not the tool. Count `functionDeclarations`.
// Run: npx tsx examples/gemini/01-one-tool.ts   (prints "ok: get_weather", exits non-zero on failure)
import { pathToFileURL } from 'node:url'
import { defineTool, toGemini } from '../../src/index.js'

/** Runs the example; returns the `ok:` line, throws when an expectation fails. */
export async function main(): Promise<string> {
  const weather = defineTool({
    name: 'get_weather',
    description: 'Current weather for a city',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => `sunny in ${String(city)}`,
  })

  const schema = toGemini([weather])
  // ALWAYS exactly one element — the wrapper, not the tool.
  check(schema.length === 1, `expected 1 wrapper element, got ${schema.length}`)

  // Through JSON, as it goes on the wire.
  const got: unknown = JSON.parse(JSON.stringify(schema[0]))
  const declarations =
    isRecord(got) && Array.isArray(got.functionDeclarations) ? got.functionDeclarations : []
  check(declarations.length === 1, `expected 1 declaration, got ${declarations.length}`)
  const declaration: unknown = declarations[0]
  check(isRecord(declaration), 'expected the declaration to be an object')
  check(
    declaration.name === 'get_weather' && declaration.description === 'Current weather for a city',
    `unexpected declaration: ${JSON.stringify(declaration)}`,
  )
  check(
    isRecord(declaration.parameters),
    `expected a parameters object, got ${JSON.stringify(declaration.parameters)}`,
  )

  return `ok: ${declaration.name}`
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (line) => console.log(line),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exitCode = 1
    },
  )
}
