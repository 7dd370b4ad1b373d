// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} in header values is the feature under test, not a template mistake.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { createToolkit, type HttpToolSpec, httpTool, ToolDefinitionError } from '../../src/index.js'
import { type RecordingServer, startRecordingServer } from './recording-server.js'

let server: RecordingServer

beforeAll(async () => {
  server = await startRecordingServer()
})

afterAll(async () => {
  await server.close()
})

afterEach(() => {
  server.requests.length = 0
  server.respond = (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ method: request.method, url: request.url, body: request.body }))
  }
  delete process.env.TOOLNEXUS_TEST_TOKEN
})

const stringProperties = (...names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { type: 'string' }]))

function itemTool(overrides: Partial<HttpToolSpec> = {}): HttpToolSpec {
  return {
    name: 'update_item',
    description: 'Update an item',
    method: 'POST',
    url: `${server.origin}/items/{id}`,
    inputSchema: {
      type: 'object',
      properties: {
        ...stringProperties('id', 'title', 'mode'),
        tags: { type: 'array', items: { type: 'string' } },
      },
    },
    ...overrides,
  }
}

describe('httpTool: routing arguments', () => {
  it('fills a placeholder URL-encoded and leaves it out of the body', async () => {
    const tool = httpTool(itemTool())
    const result = await tool.execute({ id: 'a b/c?d#e&é%', title: 'Hi' })
    expect(result.isError).toBe(false)
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.url).toBe('/items/a%20b%2Fc%3Fd%23e%26%C3%A9%25')
    expect(JSON.parse(server.requests[0]?.body ?? '')).toStrictEqual({ title: 'Hi' })
    expect(tool.source).toBe('http')
  })

  it('makes every placeholder required in the exposed schema', () => {
    const tool = httpTool(itemTool({ inputSchema: { type: 'object', properties: stringProperties('id') } }))
    expect(tool.inputSchema).toStrictEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    })
  })

  it('sends query arguments in the query string, lists as repeated names, the rest as the JSON body', async () => {
    const tool = httpTool(itemTool({ query: ['mode', 'tags'] }))
    await tool.execute({ id: '7', mode: 'fast & safe', tags: ['x', 'y z'], title: 'T' })
    const [request] = server.requests
    expect(request?.method).toBe('POST')
    expect(request?.url).toBe('/items/7?mode=fast+%26+safe&tags=x&tags=y+z')
    expect(request?.body).toMatchInlineSnapshot(`"{"title":"T"}"`)
    expect(request?.headers['content-type']).toBe('application/json')
  })

  it('merges the fixed body fields into the JSON body', async () => {
    const tool = httpTool(itemTool({ method: 'PATCH', body: { stream: false, options: { depth: 2 } } }))
    await tool.execute({ id: '7', title: 'T', tags: ['a'] })
    expect(server.requests[0]?.method).toBe('PATCH')
    expect(server.requests[0]?.body).toMatchInlineSnapshot(
      `"{"title":"T","tags":["a"],"stream":false,"options":{"depth":2}}"`,
    )
  })

  it('keeps an argument named __proto__ as a body field', async () => {
    const tool = httpTool(itemTool())
    await tool.execute(JSON.parse('{"id":"7","__proto__":{"polluted":true}}'))
    expect(server.requests[0]?.body).toBe('{"__proto__":{"polluted":true}}')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('sends an empty JSON object when a POST has no arguments left for the body', async () => {
    const tool = httpTool(itemTool())
    await tool.execute({ id: '7' })
    expect(server.requests[0]?.body).toBe('{}')
  })

  it.each(['GET', 'DELETE'] as const)(
    '%s sends no body: the other arguments join the query string',
    async (method) => {
      const tool = httpTool(itemTool({ method }))
      const result = await tool.execute({ id: '7', title: 'a b', tags: ['x', 'y'] })
      const [request] = server.requests
      expect(request?.method).toBe(method)
      expect(request?.url).toBe('/items/7?title=a+b&tags=x&tags=y')
      expect(request?.body).toBe('')
      expect(request?.headers['content-type']).toBeUndefined()
      expect(result.metadata).toStrictEqual({ status: 200, contentType: 'application/json' })
    },
  )

  it('keeps a query string already in the url', async () => {
    const tool = httpTool(itemTool({ method: 'GET', url: `${server.origin}/search?v=2&q={title}` }))
    await tool.execute({ title: 'x&y', mode: 'm' })
    expect(server.requests[0]?.url).toBe('/search?v=2&q=x%26y&mode=m')
  })

  it.each(['.', '..', ''])(
    'refuses %j for a placeholder, so a call cannot step out of the path',
    async (id) => {
      const tool = httpTool(itemTool())
      const result = await tool.execute({ id })
      expect(result.isError).toBe(true)
      expect(result.output).toBe(
        `HTTP tool "update_item": the argument "id" cannot be ${JSON.stringify(id)}: it fills {id} in the URL.`,
      )
      expect(server.requests).toHaveLength(0)
    },
  )

  it('accepts a lower-case method and a zod schema', async () => {
    const tool = httpTool({
      name: 'get_user',
      description: 'A user',
      method: 'get' as 'GET',
      url: `${server.origin}/users/{id}`,
      inputSchema: z.object({ id: z.number().int() }),
    })
    const result = await tool.execute({ id: 42 })
    expect(server.requests[0]?.method).toBe('GET')
    expect(server.requests[0]?.url).toBe('/users/42')
    expect(result.isError).toBe(false)
  })

  it('validates the arguments itself when called directly', async () => {
    const tool = httpTool(itemTool())
    const result = await tool.execute({ title: 'no id' })
    expect(result).toStrictEqual({
      output: 'Invalid arguments for tool "update_item": id: required argument is missing',
      isError: true,
    })
    expect(server.requests).toHaveLength(0)
  })
})

describe('httpTool: headers from the environment', () => {
  const secret = 's3cr3t-value'

  it('reads ${VAR} when the tool is called, not when it is defined', async () => {
    const tool = httpTool(
      itemTool({ headers: { Authorization: 'Bearer ${TOOLNEXUS_TEST_TOKEN}', 'X-Client': 'tn' } }),
    )
    process.env.TOOLNEXUS_TEST_TOKEN = secret
    const result = await tool.execute({ id: '1' })
    expect(result.isError).toBe(false)
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${secret}`)
    expect(server.requests[0]?.headers['x-client']).toBe('tn')
  })

  it('lets a spec header replace the default accept header', async () => {
    const tool = httpTool(itemTool({ headers: { Accept: 'text/csv' } }))
    await tool.execute({ id: '1' })
    expect(server.requests[0]?.headers.accept).toBe('text/csv')
  })

  it('names a missing variable and sends nothing', async () => {
    const tool = httpTool(itemTool({ headers: { Authorization: 'Bearer ${TOOLNEXUS_TEST_TOKEN}' } }))
    const result = await tool.execute({ id: '1' })
    expect(result).toStrictEqual({
      output:
        'HTTP tool "update_item": the environment variable TOOLNEXUS_TEST_TOKEN (used in the "Authorization" header) is not set.',
      isError: true,
    })
    expect(server.requests).toHaveLength(0)
  })

  it('refuses a variable holding a line break without quoting it', async () => {
    process.env.TOOLNEXUS_TEST_TOKEN = `${secret}\r\nX-Injected: 1`
    const tool = httpTool(itemTool({ headers: { Authorization: 'Bearer ${TOOLNEXUS_TEST_TOKEN}' } }))
    const result = await tool.execute({ id: '1' })
    expect(result.isError).toBe(true)
    expect(result.output).toContain('TOOLNEXUS_TEST_TOKEN')
    expect(result.output).not.toContain(secret)
    expect(server.requests).toHaveLength(0)
  })

  it('refuses a variable holding characters a header cannot carry without quoting it', async () => {
    process.env.TOOLNEXUS_TEST_TOKEN = `${secret}☃`
    const tool = httpTool(itemTool({ headers: { Authorization: 'Bearer ${TOOLNEXUS_TEST_TOKEN}' } }))
    const result = await tool.execute({ id: '1' })
    expect(result).toStrictEqual({
      output: 'HTTP tool "update_item": the "Authorization" header holds characters HTTP does not allow.',
      isError: true,
    })
  })

  it('never puts a header value in a timeout or network error', async () => {
    process.env.TOOLNEXUS_TEST_TOKEN = secret
    server.respond = () => {}
    const headers = { Authorization: 'Bearer ${TOOLNEXUS_TEST_TOKEN}' }
    const slow = await httpTool(itemTool({ headers, timeoutMs: 100 })).execute({ id: '1' })
    const down = await httpTool(itemTool({ headers, url: `${await closedOrigin()}/items/{id}` })).execute({
      id: '1',
    })
    for (const result of [slow, down]) {
      expect(result.isError).toBe(true)
      expect(JSON.stringify(result)).not.toContain(secret)
    }
  })
})

describe('httpTool: responses and failures', () => {
  it('returns a 2xx body as it came, with the status and content type', async () => {
    server.respond = (_request, response) => {
      response.writeHead(201, { 'content-type': 'text/plain; charset=utf-8' })
      response.end('created ✓')
    }
    const result = await httpTool(itemTool()).execute({ id: '1' })
    expect(result).toStrictEqual({
      output: 'created ✓',
      isError: false,
      metadata: { status: 201, contentType: 'text/plain; charset=utf-8' },
    })
  })

  it('says so when a 2xx answer has no body', async () => {
    server.respond = (_request, response) => {
      response.writeHead(204)
      response.end()
    }
    const result = await httpTool(itemTool()).execute({ id: '1' })
    expect(result).toStrictEqual({
      output: 'HTTP 204 (empty body)',
      isError: false,
      metadata: { status: 204 },
    })
  })

  it('describes a binary body instead of decoding it', async () => {
    server.respond = (_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' })
      response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]))
    }
    const result = await httpTool(itemTool()).execute({ id: '1' })
    expect(result.output).toBe('[binary response: image/png, 7 bytes]')
    expect(result.isError).toBe(false)
  })

  it('reads at most 1 MB of a body and says where it was cut', async () => {
    server.respond = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      // 3 MB in chunks: the tool must stop reading, not wait for all of it.
      for (let index = 0; index < 30; index++) response.write('é'.repeat(50_000))
      response.end()
    }
    const result = await httpTool(itemTool()).execute({ id: '1' })
    expect(result.isError).toBe(false)
    expect(result.output.endsWith('\n…[response cut at 1000000 bytes]')).toBe(true)
    expect(result.output).toBe(`${'é'.repeat(500_000)}\n…[response cut at 1000000 bytes]`)
  })

  it('counts a large binary body without keeping more than 1 MB of it', async () => {
    server.respond = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' })
      response.end(Buffer.alloc(1_500_000))
    }
    const result = await httpTool(itemTool()).execute({ id: '1' })
    expect(result.output).toBe('[binary response: application/octet-stream, more than 1000000 bytes]')
  })

  it('turns a non-2xx answer into an error with the status and body', async () => {
    server.respond = (_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' })
      response.end('{"error":"no such item"}')
    }
    const result = await httpTool(itemTool()).execute({ id: '1' })
    expect(result).toStrictEqual({
      output: 'HTTP 404: {"error":"no such item"}',
      isError: true,
      metadata: { status: 404, contentType: 'application/json' },
    })
  })

  it('cuts a long error body and uses the status text for an empty one', async () => {
    server.respond = (request, response) => {
      response.writeHead(request.url === '/items/long' ? 500 : 503)
      response.end(request.url === '/items/long' ? 'x'.repeat(5_000) : '')
    }
    const tool = httpTool(itemTool())
    const long = await tool.execute({ id: 'long' })
    expect(long.output).toBe(`HTTP 500: ${'x'.repeat(2_000)}…[3000 more characters]`)
    const empty = await tool.execute({ id: 'empty' })
    expect(empty.output).toBe('HTTP 503: Service Unavailable')
  })

  it('gives up after timeoutMs with an error that says so', async () => {
    server.respond = () => {}
    const started = performance.now()
    const result = await httpTool(itemTool({ timeoutMs: 150 })).execute({ id: '1' })
    const elapsed = performance.now() - started
    expect(result).toStrictEqual({
      output: `HTTP tool "update_item": no response from POST ${server.origin}/items/1 within 150 ms.`,
      isError: true,
    })
    expect(elapsed).toBeGreaterThanOrEqual(140)
    expect(elapsed).toBeLessThan(5_000)
  })

  it('times out while a slow body is still arriving', async () => {
    server.respond = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' })
      response.write('partial')
    }
    const result = await httpTool(itemTool({ timeoutMs: 150 })).execute({ id: '1' })
    expect(result.output).toBe(
      `HTTP tool "update_item": no response from POST ${server.origin}/items/1 within 150 ms.`,
    )
  })

  it('reports a server that is down as an error result', async () => {
    const origin = await closedOrigin()
    const result = await httpTool(itemTool({ url: `${origin}/items/{id}` })).execute({ id: '1' })
    expect(result.isError).toBe(true)
    expect(result.output).toMatch(
      new RegExp(
        `^HTTP tool "update_item": the request to POST ${origin}/items/1 failed: .*ECONNREFUSED.*\\.$`,
      ),
    )
  })

  it('stops when the call is aborted', async () => {
    server.respond = () => {}
    const controller = new AbortController()
    const pending = httpTool(itemTool()).execute({ id: '1' }, { signal: controller.signal })
    await waitFor(() => server.requests.length === 1)
    controller.abort()
    expect(await pending).toStrictEqual({
      output: `HTTP tool "update_item": the request to POST ${server.origin}/items/1 was aborted.`,
      isError: true,
    })
  })

  it('sends nothing when the signal is already aborted', async () => {
    const result = await httpTool(itemTool()).execute({ id: '1' }, { signal: AbortSignal.abort() })
    expect(result.output).toBe(
      `HTTP tool "update_item": the request to POST ${server.origin}/items/1 was aborted before it was sent.`,
    )
    expect(server.requests).toHaveLength(0)
  })
})

describe('httpTool: a spec that cannot work fails at definition', () => {
  const schema = { type: 'object', properties: stringProperties('id', 'q') }
  const base: HttpToolSpec = {
    name: 'get_item',
    description: 'An item',
    method: 'GET',
    url: 'https://api.example.com/items/{id}',
    inputSchema: schema,
  }

  it.each<[string, Partial<HttpToolSpec> | Record<string, unknown>, string]>([
    [
      'a bad name',
      { name: 'get item!' },
      'HTTP tool name "get item!" is not allowed: use 1–64 characters from [a-zA-Z0-9_-]. Try "get_item_".',
    ],
    [
      'a bad method',
      { method: 'FETCH' },
      'HTTP tool "get_item": method "FETCH" is not supported: use one of GET, POST, PUT, PATCH, DELETE.',
    ],
    [
      'no description',
      { description: undefined },
      'HTTP tool "get_item": description must be a string that tells the model what the endpoint does.',
    ],
    [
      'an unparseable url',
      { url: 'api.example.com/items/{id}' },
      'HTTP tool "get_item": url "api.example.com/items/x" cannot be parsed: give an absolute http(s) URL such as "https://api.example.com/items/{id}".',
    ],
    [
      'a url that is not http',
      { url: 'ftp://example.com/{id}' },
      'HTTP tool "get_item": url must use http: or https:, got ftp:',
    ],
    [
      'a placeholder the schema lacks',
      { url: 'https://api.example.com/{org}/items/{id}' },
      'HTTP tool "get_item": the url placeholder {org} is not in inputSchema.properties: declare it there.',
    ],
    [
      'a placeholder that is not a name',
      { url: 'https://api.example.com/items/{a b}' },
      'HTTP tool "get_item": the url placeholder {a b} is not a valid argument name: use letters, digits, _ and -.',
    ],
    [
      'a query name the schema lacks',
      { query: ['page'] },
      'HTTP tool "get_item": query names "page", which is not in inputSchema.properties: declare it there.',
    ],
    [
      'a query name that is a placeholder',
      { query: ['id'] },
      'HTTP tool "get_item": "id" is both a url placeholder and a query argument: keep it in one place.',
    ],
    [
      'query that is not a list',
      { query: 'q' },
      'HTTP tool "get_item": query must be a list of argument names, such as ["page", "per_page"].',
    ],
    [
      'a body on GET',
      { body: { a: 1 } },
      'HTTP tool "get_item": a GET request has no body: drop body, or use POST, PUT or PATCH.',
    ],
    [
      'a body field the model can also set',
      { method: 'POST', body: { q: 'fixed' } },
      'HTTP tool "get_item": body fixes "q", which inputSchema also lets the model set: remove it from one of them.',
    ],
    [
      'a body that is not an object',
      { method: 'POST', body: ['a'] },
      'HTTP tool "get_item": body must be an object of fixed JSON fields sent with every call, such as { "stream": false }.',
    ],
    [
      'a bad header name',
      { headers: { 'X Bad': 'v' } },
      'HTTP tool "get_item": header name "X Bad" is not a valid HTTP header name.',
    ],
    [
      'a header with a line break',
      { headers: { 'X-A': 'a\r\nX-B: b' } },
      'HTTP tool "get_item": header "X-A" must not contain line breaks.',
    ],
    [
      'a header variable that is not a name',
      { headers: { Authorization: 'Bearer ${API TOKEN}' } },
      'HTTP tool "get_item": header "Authorization" has a "${...}" that is not a variable name: write ${NAME} with letters, digits and _.',
    ],
    [
      'a header value that is not a string',
      { headers: { 'X-A': 1 } },
      'HTTP tool "get_item": header "X-A" must have a string value.',
    ],
    [
      'a timeout that is not positive',
      { timeoutMs: 0 },
      'HTTP tool "get_item": timeoutMs must be a positive number of milliseconds, got 0.',
    ],
    [
      'a schema root that is not an object',
      { inputSchema: { type: 'string' } },
      'Tool "get_item": the root of inputSchema must be { type: "object" } (tool arguments are always an object), got type "string". Wrap the value in an object property.',
    ],
  ])('%s', (_case, overrides, message) => {
    const define = () => httpTool({ ...base, ...overrides } as HttpToolSpec)
    expect(define).toThrow(ToolDefinitionError)
    expect(define).toThrow(message)
  })

  it('names what to pass when the spec is not an object', () => {
    expect(() => httpTool(undefined as unknown as HttpToolSpec)).toThrow(
      'httpTool: pass a spec object { name, description, method, url, inputSchema }.',
    )
  })
})

describe('httpTool in a toolkit', () => {
  it('exposes each spec as a tool with its schema and runs it through execute', async () => {
    const warnings: string[] = []
    const tk = await createToolkit({
      http: [itemTool({ name: 'update_item' }), itemTool({ name: 'get_item', method: 'GET' })],
      logger: { warn: (message) => warnings.push(message) },
    })
    expect(tk.tools().map((tool) => [tool.name, tool.source])).toStrictEqual([
      ['update_item', 'http'],
      ['get_item', 'http'],
    ])
    const ok = await tk.execute('get_item', { id: '9', mode: 'm' })
    expect(JSON.parse(ok.output)).toStrictEqual({ method: 'GET', url: '/items/9?mode=m', body: '' })
    const invalid = await tk.execute('update_item', { id: 3 })
    expect(invalid).toStrictEqual({
      output:
        'Invalid arguments for tool "update_item": id: Instance type "number" is invalid. Expected "string".',
      isError: true,
    })
    expect(tk.toOpenAI()[0]?.function.parameters).toStrictEqual({
      type: 'object',
      properties: {
        id: { type: 'string' },
        title: { type: 'string' },
        mode: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['id'],
    })
    expect(warnings).toStrictEqual([])
  })

  it('lets the toolkit timeout abort a slow endpoint through the signal', async () => {
    server.respond = () => {}
    const tk = await createToolkit({ http: [itemTool()], toolTimeoutMs: 150 })
    const result = await tk.execute('update_item', { id: '1' })
    expect(result).toStrictEqual({ output: 'Tool "update_item" timed out after 150 ms.', isError: true })
  })

  it('fails createToolkit with the definition error of a bad spec', async () => {
    await expect(createToolkit({ http: [itemTool({ url: 'not a url/{id}' })] })).rejects.toThrow(
      ToolDefinitionError,
    )
  })
})

/** The origin of a port that was free a moment ago and is now closed: connecting to it is refused. */
async function closedOrigin(): Promise<string> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 200 && !condition(); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  expect(condition()).toBe(true)
}
