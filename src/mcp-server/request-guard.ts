import { ConfigError } from '../errors.js'

/** The host names a server answers to when `allowedHosts` is not given: this machine's, on any port. */
const LOCAL_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]']

/**
 * Who may reach the server: the `Host` it is addressed as, the `Origin` of a browser page calling it,
 * and the host's own check of the caller.
 *
 * @example
 * const guard: RequestGuardOptions = { allowedHosts: ['mcp.example.com'], authorize: (request) => hasToken(request) }
 */
export interface RequestGuardOptions {
  allowedHosts?: readonly string[]
  allowedOrigins?: readonly string[]
  authorize?: (request: Request) => boolean | string | Promise<boolean | string>
}

/** A request the guard let through, with the caller's identity when `authorize` named one. */
export interface GuardPass {
  caller: string | undefined
}

const NO_CALLER: GuardPass = { caller: undefined }

/**
 * A check run before every request: its `Host` must name an allowed host (`host` or `host:port`; `'*'`
 * allows any), a present `Origin` must be one of `allowedOrigins` or name an allowed host (with `'*'`,
 * the request's own host), then `authorize` must say yes (`true`, or the caller's identity as a
 * string). Answers the refusal (403, or 401 from `authorize`), or the pass to go on.
 *
 * @example
 * const guard = requestGuard({})
 * await guard(new Request('http://evil.example.com/mcp')) // a 403 Response
 */
export function requestGuard(
  options: RequestGuardOptions,
): (request: Request) => Promise<Response | GuardPass> {
  const { allowedHosts = LOCAL_HOSTS, allowedOrigins = [], authorize } = options
  const hosts = nameList(allowedHosts, 'allowedHosts', '["localhost", "127.0.0.1"]')
  const origins = new Set(
    nameList(allowedOrigins, 'allowedOrigins', '["https://app.example.com"]').map(originOf),
  )
  if (authorize !== undefined && typeof authorize !== 'function') {
    throw new ConfigError(
      '`authorize` must be a function (request) => boolean | string | Promise<boolean | string>.',
      {
        field: 'authorize',
      },
    )
  }
  const anyHost = hosts.includes('*')
  const allowed = new Set(hosts)
  const fits = (host: string): boolean => anyHost || allowed.has(host) || allowed.has(hostnameOf(host))
  return async (request) => {
    // A fetch server builds the URL from the `Host` header; a Request made in code may carry only the URL.
    const host = (request.headers.get('host') ?? safeUrl(request.url)?.host ?? '').toLowerCase()
    if (host === '' || !fits(host)) return refusal(403, 'Forbidden: this host is not allowed.')
    const origin = request.headers.get('origin')
    if (origin !== null) {
      const parsed = safeUrl(origin)
      if (parsed === undefined || parsed.origin === 'null') {
        return refusal(403, 'Forbidden: the Origin header is not an allowed origin.')
      }
      const originHost = parsed.host.toLowerCase()
      const matches = anyHost ? originHost === host : fits(originHost)
      if (!matches && !origins.has(parsed.origin)) {
        return refusal(403, 'Forbidden: this origin is not allowed.')
      }
    }
    if (authorize === undefined) return NO_CALLER
    let verdict: boolean | string
    try {
      verdict = await authorize(request)
    } catch {
      verdict = false
    }
    if (typeof verdict === 'string' && verdict !== '') return { caller: verdict }
    return verdict === true ? NO_CALLER : refusal(401, 'Unauthorized: this request was not authorized.')
  }
}

/**
 * A JSON-RPC error answer with no id, as the streamable HTTP transport gives for a request it refuses.
 *
 * @example
 * refusal(403, 'Forbidden: this host is not allowed.')
 */
export function refusal(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
}

function nameList(value: readonly string[], field: string, example: string): string[] {
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string' || name.trim() === '')) {
    throw new ConfigError(`\`${field}\` must be an array of non-empty strings, like ${example}.`, { field })
  }
  return value.map((name) => name.trim().toLowerCase())
}

function originOf(origin: string): string {
  const parsed = safeUrl(origin)
  if (parsed === undefined || parsed.origin === 'null') {
    throw new ConfigError(`\`allowedOrigins\` holds ${JSON.stringify(origin)}, which is not an origin.`, {
      field: 'allowedOrigins',
    })
  }
  return parsed.origin
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** `host:port` without the port (`[::1]:3000` → `[::1]`). */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']')
    return end === -1 ? host : host.slice(0, end + 1)
  }
  const colon = host.lastIndexOf(':')
  return colon === -1 ? host : host.slice(0, colon)
}
