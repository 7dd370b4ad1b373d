// Seed example 1 — one tool, and the wrapper that surprises everyone.
// `toGemini` returns ALWAYS exactly one element: the wrapper, not the tool. Count `functionDeclarations`.
// Run: npx tsx examples/gemini/01-one-tool.ts   (prints "ok: get_weather", exits non-zero on failure)
import { defineTool, toGemini } from '../../src/index.js'
import { check, isRecord, runIfScript } from './run-example.js'

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

runIfScript(import.meta.url, main)
