// The host side of the OAuth tests: a browser that approves at once, and a token store that shows what it keeps.
import type { OAuthTokenStore } from '../../src/index.js'

/** Where the tests' authorization servers send the browser back to. */
export const REDIRECT = 'http://127.0.0.1:9/callback'

/** What a browser does on an authorization server that approves at once: follow to the redirect. */
export async function approveAt({ url }: { url: URL }): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' })
  return new URL(response.headers.get('location') ?? '', url)
}

export function recordingStore(): OAuthTokenStore & {
  saved: Map<string, Parameters<OAuthTokenStore['set']>[1]>
} {
  const saved = new Map<string, Parameters<OAuthTokenStore['set']>[1]>()
  return {
    saved,
    get: (key) => saved.get(key),
    set: (key, value) => {
      saved.set(key, value)
    },
    delete: (key) => {
      saved.delete(key)
    },
  }
}
