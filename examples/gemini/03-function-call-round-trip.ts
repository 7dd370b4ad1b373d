// Seed example 3 — round-tripping a functionCall part back to the tool.
// Gemini returns a `functionCall` part whose `args` is an object, and expects a `functionResponse` part back,
// keyed by the tool's name (and by the call's `id` when the call had one).
// Run: npx tsx examples/gemini/03-function-call-round-trip.ts   (prints "ok: get_weather -> sunny in Chennai")
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
  const tools = [weather]

  // A part as the model sends it.
  const raw = '{"functionCall":{"name":"get_weather","args":{"city":"Chennai"}}}'
  const part: unknown = JSON.parse(raw)
  const functionCall = isRecord(part) && isRecord(part.functionCall) ? part.functionCall : undefined
  check(functionCall !== undefined, 'expected a functionCall part')
  const args = isRecord(functionCall.args) ? functionCall.args : {}

  const called = tools.find((tool) => tool.name === functionCall.name)
  check(called !== undefined, 'the advertised name should resolve back to the tool')

  const result = await called.execute(args)
  check(
    result.output === 'sunny in Chennai' && !result.isError,
    `unexpected result: ${JSON.stringify(result)}`,
  )

  // `output` for a result and `error` for a failure: the keys Gemini's documentation names.
  const response = {
    functionResponse: {
      name: called.name,
      response: result.isError ? { error: result.output } : { output: result.output },
    },
  }
  check('functionResponse' in response, 'expected a functionResponse part')

  // No tools at all still yields the wrapper — with an empty declaration list.
  const empty = toGemini([])
  check(empty.length === 1, `expected the wrapper even for no tools, got ${empty.length}`)
  const emptyGot: unknown = JSON.parse(JSON.stringify(empty[0]))
  const count =
    isRecord(emptyGot) && Array.isArray(emptyGot.functionDeclarations)
      ? emptyGot.functionDeclarations.length
      : -1
  check(count === 0, `expected 0 declarations, got ${count}`)

  return `ok: ${called.name} -> ${result.output}`
}

runIfScript(import.meta.url, main)
