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
  /** The private key (a JWK) DPoP-bound tokens are bound to, kept so they work in the next process. */
  dpopKey?: Record<string, unknown>
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
 * for the redirect back, and return what it carried (the PKCE verifier stays with the toolkit).
 *
 * @example
 * const request: OAuthAuthorizationRequest = { server: 'linear', url: new URL('https://auth.example.com/authorize?…') }
 */
export interface OAuthAuthorizationRequest {
  server: string
  url: URL
}

/**
 * What the browser brought back from the authorization server. Best: the whole `callbackUrl` the browser
 * was redirected to, from which the toolkit reads `code`, `state` and `iss` and checks them (a `state`
 * that is not the one sent, or an `iss` that is not the authorization server's, refuses the code).
 * `{ code, state, iss }` is the same, taken apart; a bare `{ code }` still works where the authorization
 * server does not send `iss` (PKCE binds the code to this request).
 *
 * @example
 * const answer: OAuthAuthorizationResult = { callbackUrl: 'http://127.0.0.1:8765/callback?code=…&state=…&iss=…' }
 */
export type OAuthAuthorizationResult =
  | { callbackUrl: string | URL }
  | { code: string; state?: string; iss?: string }

/**
 * What the toolkit asks the host for an entry with `"grant": "cross_app_access"`: the signed-in user's
 * ID token from the identity provider `issuer`, for the MCP server `server`.
 *
 * @example
 * const request: OAuthIdTokenRequest = { server: 'crm', issuer: 'https://acme.okta.com' }
 */
export interface OAuthIdTokenRequest {
  server: string
  issuer: string
}

/**
 * The host's side of OAuth for remote MCP servers: those whose `mcp.json` entry has `auth`, and, when
 * `onAuthorization` is given, an entry with only a `url` whose server answers 401 with an OAuth challenge.
 *
 * @example
 * await createToolkit({
 *   mcpConfig: './mcp.json',
 *   oauth: {
 *     redirectUrl: 'http://127.0.0.1:8765/callback',
 *     onAuthorization: async ({ url }) => ({ callbackUrl: await openBrowserAndWaitForRedirect(url) }),
 *     tokenStore: fileTokenStore('~/.config/my-app/tokens.json'),
 *   },
 * })
 */
export interface OAuthOptions {
  /**
   * Runs the browser step of the authorization code flow and returns where the browser came back to
   * (`{ callbackUrl }`), or the `code` (with `state` and `iss`) read from it.
   */
  onAuthorization?: (request: OAuthAuthorizationRequest) => Promise<OAuthAuthorizationResult>
  /** Where the authorization server redirects back to, when an entry gives no `auth.redirectUrl`. */
  redirectUrl?: string
  /**
   * The signed-in user's OpenID Connect ID token from the enterprise identity provider, for entries with
   * `"grant": "cross_app_access"` (enterprise-managed authorization): the toolkit exchanges it at the
   * entry's `idp` for a grant to the MCP server, then for the server's access token. The token is a
   * secret: it is masked wherever the toolkit writes text, and never stored.
   *
   * @example
   * oauth: { idToken: async ({ issuer }) => (await session.current()).idToken }
   */
  idToken?: (request: OAuthIdTokenRequest) => string | Promise<string>
  /** Keeps tokens (and dynamically registered clients). @default in memory */
  tokenStore?: OAuthTokenStore
}
