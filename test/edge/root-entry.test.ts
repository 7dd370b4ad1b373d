// The root entry must run on edge runtimes (Vercel Edge, Cloudflare Workers): no Node-only module in its
// static import graph, no code generation (edge runtimes forbid eval/new Function).
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { EdgeVM } from '@edge-runtime/vm'
import { build, type Plugin } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildDist, removeDist } from '../support/build-dist.js'

let outDir = ''

beforeAll(async () => {
  outDir = await buildDist()
}, 120_000)

afterAll(async () => {
  if (outDir !== '') await removeDist(outDir)
})

const staticImport =
  /(?:^|[\s;}])(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?["']([^"']+)["']|(?:^|[\s;(=,])require\(\s*["']([^"']+)["']\s*\)/g

/** Every module specifier `file` and the local chunks it statically imports reach (dynamic `import()` not followed). */
async function staticGraph(entry: string): Promise<{ files: string[]; packages: string[] }> {
  const files = new Set<string>()
  const packages = new Set<string>()
  const pending = [entry]
  while (pending.length > 0) {
    const file = pending.pop()
    if (file === undefined || files.has(file)) continue
    files.add(file)
    const code = await readFile(file, 'utf8')
    for (const match of code.matchAll(staticImport)) {
      const specifier = match[1] ?? match[2]
      if (specifier === undefined) continue
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier))
      else packages.add(specifier)
    }
  }
  return { files: [...files].map((file) => relative(outDir, file)).sort(), packages: [...packages].sort() }
}

const nodeOnly =
  /^(node:|fs$|fs\/|child_process$|net$|tls$|os$|path$|worker_threads$|module$|http$|https$|stream$)/

describe('the built root entry', () => {
  it.each(['index.js', 'index.cjs'])('%s statically imports no Node-only module', async (entry) => {
    const graph = await staticGraph(join(outDir, entry))
    expect(graph.packages.filter((specifier) => nodeOnly.test(specifier))).toStrictEqual([])
    // Exactly the edge-safe dependencies (plain JavaScript: the validator, the linear-time pattern engine,
    // the did-you-mean distance); the MCP SDK, yaml and the skills loader only load on demand.
    expect(graph.packages).toStrictEqual(['@cfworker/json-schema', 'ai', 'fastest-levenshtein', 're2js'])
  })

  it('its whole graph, packages included, bundles for an edge runtime without a Node built-in', async () => {
    const bundle = await bundleForEdge(join(outDir, 'index.js'))
    expect(bundle.length).toBeGreaterThan(1000)
  })

  it('the checks catch a Node-only import (they can fail)', async () => {
    const probe = join(outDir, 'node-only-probe.js')
    await writeFile(
      probe,
      "import { spawn } from 'node:child_process'\nexport { spawn }\nexport * from './index.js'\n",
    )
    const graph = await staticGraph(probe)
    expect(graph.packages.filter((specifier) => nodeOnly.test(specifier))).toStrictEqual([
      'node:child_process',
    ])
    await expect(bundleForEdge(probe)).rejects.toThrow(/node:child_process/)
  })

  it('runs defineTool, createToolkit, execute, validation and toGemini inside the Edge runtime VM', async () => {
    const bundle = await bundleForEdge(join(outDir, 'index.js'))
    const vm = new EdgeVM()
    // The VM forbids code generation from strings, as edge runtimes do.
    expect(() => vm.evaluate('eval("1 + 1")')).toThrow(/Code generation from strings disallowed/)
    vm.evaluate(bundle)
    const outcome: string = await vm.evaluate(`(async () => {
      const { defineTool, createToolkit } = toolnexus
      const weather = defineTool({
        name: 'get_weather',
        description: 'Current weather for a city',
        inputSchema: { type: 'object', properties: { city: { type: 'string' }, unit: { type: ['string', 'null'] } }, required: ['city'] },
        execute: ({ city }) => 'sunny in ' + city,
      })
      const tk = await createToolkit({ tools: [weather] })
      const ok = await tk.execute('get_weather', { city: 'Chennai' })
      const invalid = await tk.execute('get_weather', { city: 7 })
      const unknown = await tk.execute('nope', {})
      // Schema patterns run on the linear-time engine, which needs no code generation either.
      const code = defineTool({
        name: 'code',
        description: '',
        inputSchema: { type: 'object', properties: { text: { type: 'string', pattern: '^(a+)+$' } } },
        execute: () => 'matched',
      })
      const patterns = [await code.execute({ text: 'aaaa' }), await code.execute({ text: 'a'.repeat(30) + '!' })]
      const gemini = tk.toGemini()
      const aiSdk = Object.keys(tk.toAISDK())
      await tk.close()
      return JSON.stringify({ ok, invalid, unknown, patterns, gemini, aiSdk })
    })()`)
    expect(JSON.parse(outcome)).toStrictEqual({
      ok: { output: 'sunny in Chennai', isError: false },
      invalid: {
        output:
          'Invalid arguments for tool "get_weather": city: Instance type "number" is invalid. Expected "string".',
        isError: true,
      },
      unknown: { output: 'Unknown tool "nope". Available tools: get_weather', isError: true },
      patterns: [
        { output: 'matched', isError: false },
        {
          output: 'Invalid arguments for tool "code": text: must match the pattern "^(a+)+$"',
          isError: true,
        },
      ],
      gemini: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Current weather for a city',
              parameters: {
                type: 'object',
                properties: { city: { type: 'string' }, unit: { type: 'string', nullable: true } },
                required: ['city'],
              },
            },
          ],
        },
      ],
      aiSdk: ['get_weather'],
    })
  })
})

// The edge runtime VM evaluates scripts, not ES modules, so the built entry and every package it reaches are
// bundled into one script the way an edge deployment bundles them: browser/worker conditions, no Node
// built-ins available. A lazily loaded chunk (dynamic import) stays out, as it does at run time.
async function bundleForEdge(entry: string): Promise<string> {
  const lazyChunksStayOut: Plugin = {
    name: 'lazy-chunks-stay-out',
    setup(plugin) {
      plugin.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
      )
    },
  }
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'toolnexus',
    platform: 'browser',
    conditions: ['edge-light', 'worker', 'browser'],
    target: 'es2022',
    logLevel: 'silent',
    plugins: [lazyChunksStayOut],
  })
  const [output] = result.outputFiles
  if (output === undefined) throw new Error('esbuild produced no output')
  return output.text
}
