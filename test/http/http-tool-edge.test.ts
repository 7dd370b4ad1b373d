import { EdgeVM } from '@edge-runtime/vm'
// esbuild comes with tsup and tsx (both devDependencies); it bundles the source the way an edge app would.
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RecordingServer, startRecordingServer } from './recording-server.js'

let server: RecordingServer
let vm: EdgeVM

beforeAll(async () => {
  server = await startRecordingServer()
  const bundle = await build({
    entryPoints: [new URL('../../src/http/http-tool.ts', import.meta.url).pathname],
    bundle: true,
    format: 'iife',
    globalName: 'toolnexusHttp',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  })
  vm = new EdgeVM()
  vm.evaluate(bundle.outputFiles[0]?.text ?? '')
})

afterAll(async () => {
  await server.close()
})

describe('httpTool on an edge runtime (no process, no node: modules)', () => {
  it('calls the endpoint with fetch alone', async () => {
    const result = await vm.evaluate(`toolnexusHttp.httpTool({
      name: 'edge_get', description: 'e', method: 'GET', url: '${server.origin}/items/{id}',
      inputSchema: { type: 'object', properties: { id: { type: 'string' }, q: { type: 'string' } } },
    }).execute({ id: 'a b', q: 'x' })`)
    expect(result.isError).toBe(false)
    expect(JSON.parse(result.output)).toStrictEqual({ method: 'GET', url: '/items/a%20b?q=x', body: '' })
  })

  it('treats a header variable as unset where there is no environment', async () => {
    const result = await vm.evaluate(`toolnexusHttp.httpTool({
      name: 'edge_auth', description: 'e', method: 'POST', url: '${server.origin}/auth',
      headers: { Authorization: 'Bearer \${EDGE_TOKEN}' }, inputSchema: { type: 'object', properties: {} },
    }).execute({})`)
    expect({ ...result }).toStrictEqual({
      output:
        'HTTP tool "edge_auth": the environment variable EDGE_TOKEN (used in the "Authorization" header) is not set.',
      isError: true,
    })
  })
})
