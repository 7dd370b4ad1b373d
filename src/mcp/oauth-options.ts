/**
 * What a token store keeps for one server: its tokens and, after dynamic registration, the client it
 * registered as. Treat it as a secret.
 *
 * @example
 * const saved: OAuthCredentials = { tokens: { access_token: '…', token_type: 'Bearer' } }
 */
export interface OAuthCredentials {
  tokens?: {
    access_token: string
    token_type: string
    refresh_token?: string
    expires_in?: number
    scope?: string
    [key: string]: unknown
  }
  client?: { client_id: string; client_secret?: string; [key: string]: unknown }
}

/**
 * Where OAuth tokens live between runs (a file, a keychain, a database). Keys name one server at one URL.
 * The default keeps them in memory for the toolkit's life.
 *
 * @example
 * const store: OAuthTokenStore = {
 *   get: (key) => db.get(key),
 *   set: (key, credentials) => db.put(key, credentials),
 *   delete: (key) => db.delete(key),
 * }
 */
export interface OAuthTokenStore {
  get(key: string): OAuthCredentials | undefined | Promise<OAuthCredentials | undefined>
  set(key: string, credentials: OAuthCredentials): void | Promise<void>
  delete(key: string): void | Promise<void>
}

/**
 * The authorization step of the code flow, handed to the host: send the user to `url` (a browser), wait
 * for the redirect back, and return the `code` from it (the PKCE verifier stays with the toolkit).
 *
 * @example
 * const request: OAuthAuthorizationRequest = { server: 'linear', url: new URL('https://auth.example.com/authorize?…') }
 */
export interface OAuthAuthorizationRequest {
  server: string
  url: URL
}

/**
 * The host's side of OAuth for remote MCP servers whose `mcp.json` entry has `auth`.
 *
 * @example
 * await createToolkit({
 *   mcpConfig: './mcp.json',
 *   oauth: {
 *     redirectUrl: 'http://127.0.0.1:8765/callback',
 *     onAuthorization: async ({ url }) => ({ code: await openBrowserAndWaitForCode(url) }),
 *     tokenStore: fileTokenStore('~/.config/my-app/tokens.json'),
 *   },
 * })
 */
export interface OAuthOptions {
  /** Runs the browser step of the authorization code flow and returns the code. */
  onAuthorization?: (request: OAuthAuthorizationRequest) => Promise<{ code: string }>
  /** Where the authorization server redirects back to, when an entry gives no `auth.redirectUrl`. */
  redirectUrl?: string
  /** Keeps tokens (and dynamically registered clients). @default in memory */
  tokenStore?: OAuthTokenStore
}
