/** Redirects an HTTP tool follows for one call; one more is an error naming this limit. */
const MAX_REDIRECTS = 5

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** The request an HTTP tool sends, before any redirect. */
export interface HttpToolRequest {
  url: URL
  method: string
  /** Every header to send to the configured origin (the configured ones included). */
  headers: Headers
  /** Headers safe to send anywhere (`accept`), used after a redirect to another origin. */
  publicHeaders: Headers
  body: string | undefined
  signal: AbortSignal
}

/** The answer after redirects, or why the tool stopped following them. */
export type RedirectedResponse =
  | { kind: 'response'; response: Response; url: URL }
  | { kind: 'refused'; message: string }

/**
 * Sends the request with `redirect: 'manual'` and follows redirects itself, at most {@link MAX_REDIRECTS}
 * of them. Within the configured origin a redirect is followed as the platform would (303, and 301/302
 * after a POST, become a GET without a body; 307/308 keep method and body) with every header. To another
 * origin, the configured headers and the body never go: a redirect that drops the body anyway (301, 302,
 * 303) is followed with only the public headers; a 307/308 that would have to resend the body there is
 * refused. A runtime that hides the target of a redirect (an opaque redirect) is refused too.
 *
 * @example
 * const answer = await fetchWithRedirects({ url, method: 'GET', headers, publicHeaders, body: undefined, signal })
 * if (answer.kind === 'refused') return fail(answer.message)
 */
export async function fetchWithRedirects(request: HttpToolRequest): Promise<RedirectedResponse> {
  const origin = request.url.origin
  let url = request.url
  let method = request.method
  let body = request.body
  for (let hop = 0; ; hop++) {
    const sameOrigin = url.origin === origin
    const response = await fetch(url, {
      method,
      headers: sameOrigin ? request.headers : request.publicHeaders,
      ...(body === undefined ? {} : { body }),
      redirect: 'manual',
      signal: request.signal,
    })
    if (response.type === 'opaqueredirect') {
      return { kind: 'refused', message: `${url.origin} redirected, and this runtime hides where to` }
    }
    const location = response.headers.get('location')
    if (!REDIRECT_STATUSES.has(response.status) || location === null)
      return { kind: 'response', response, url }
    await response.body?.cancel().catch(() => undefined)
    if (hop >= MAX_REDIRECTS) {
      return {
        kind: 'refused',
        message: `more than ${MAX_REDIRECTS} redirects (the limit), last to ${safeTarget(location, url)}`,
      }
    }
    let next: URL
    try {
      next = new URL(location, url)
    } catch {
      return {
        kind: 'refused',
        message: `HTTP ${response.status} redirected to an address that cannot be read`,
      }
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      return { kind: 'refused', message: `HTTP ${response.status} redirected to a ${next.protocol} address` }
    }
    const keepsBody = response.status === 307 || response.status === 308
    if (!keepsBody && (response.status === 303 || method === 'POST')) {
      if (method !== 'HEAD') method = 'GET'
      body = undefined
    }
    if (next.origin !== origin && body !== undefined) {
      return {
        kind: 'refused',
        message: `HTTP ${response.status} redirected to another origin (${next.origin}), which would need the request body; it is only sent to ${origin}`,
      }
    }
    url = next
  }
}

// Where a redirect pointed, without its query (which may carry a token).
function safeTarget(location: string, base: URL): string {
  try {
    const target = new URL(location, base)
    return `${target.origin}${target.pathname}`
  } catch {
    return 'an unreadable address'
  }
}
