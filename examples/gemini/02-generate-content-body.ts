// Seed example 2 — feeding toGemini straight into a generateContent body.
// Two tools, one wrapper, order preserved.
// Run: npx tsx examples/gemini/02-generate-content-body.ts   (prints 'ok: ["search","ping"]')
import { defineTool, type Tool, toGemini } from '../../src/index.js'
import { check, isRecord, runIfScript } from './run-example.js'

/** Runs the example; returns the `ok:` line, throws when an expectation fails. */
export async function main(): Promise<string> {
  const make = (name: string, description: string): Tool =>
    defineTool({ name, description, inputSchema: { type: 'object', properties: {} }, execute: () => name })

  const tools = [make('search', 'Search the docs'), make('ping', 'Health check')]

  // The request body of POST …/models/{model}:generateContent.
  const body = {
    contents: [{ role: 'user', parts: [{ text: 'search for adapters' }] }],
    tools: toGemini(tools),
  }

  const got: unknown = JSON.parse(JSON.stringify(body))
  const wrappers = isRecord(got) && Array.isArray(got.tools) ? got.tools : []
  check(wrappers.length === 1, `expected 1 wrapper, got ${wrappers.length}`)

  const wrapper: unknown = wrappers[0]
  const declarations =
    isRecord(wrapper) && Array.isArray(wrapper.functionDeclarations) ? wrapper.functionDeclarations : []
  const names = declarations.map((declaration: unknown) =>
    isRecord(declaration) ? declaration.name : undefined,
  )
  // Two tools, one wrapper, order preserved.
  check(
    names.length === 2 && names[0] === 'search' && names[1] === 'ping',
    `unexpected declarations: ${JSON.stringify(names)}`,
  )

  return `ok: ${JSON.stringify(names)}`
}

runIfScript(import.meta.url, main)
