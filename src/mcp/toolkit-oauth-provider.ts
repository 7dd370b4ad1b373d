import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client'
import { privateKeyJwtAuth } from './client-credentials-jwt.js'
import { freshDpopSession, offersDpop, restoredDpopSession } from './dpop-key.js'
import { crossAppTokenRequest, JWT_BEARER_GRANT, workloadTokenRequest } from './jwt-bearer-grant.js'
import type { OAuthPlan } from './mcp-server-plan.js'
import type {
  OAuthAuthorizationResult,
  OAuthCredentials,
  OAuthOptions,
  OAuthTokenStore,
} from './oauth-options.js'

/**
 * A token store in memory, for one toolkit's life.
 *
 * @example
 * const store = memoryTokenStore()
 * await store.set('linear https://mcp.linear.app/mcp', { tokens })
 */
export function memoryTokenStore(): OAuthTokenStore {
  const saved = new Map<string, OAuthCredentials>()
  return {
    get: (key) => saved.get(key),
    set: (key, credentials) => {
      saved.set(key, credentials)
    },
    delete: (key) => {
      saved.delete(key)
    },
  }
}

/**
 * The MCP SDK's `OAuthClientProvider` for one remote server, over the host's token store and redirect
 * handler: a pre-registered client (`clientId`) or dynamic registration, the authorization code flow
 * with PKCE and `state` (the SDK makes the verifier and the URL; the host opens it and returns where the
 * browser came back), the client credentials grant, with a secret or a signed JWT assertion, or
 * enterprise-managed authorization (the user's ID token exchanged at the identity provider). Stored
 * clients and tokens carry the issuer of the authorization server they belong to: when the server moves
 * to another one, a registered client is dropped and registered again there, and a pre-registered one
 * is refused rather than sent to it. Every token it learns is reported to `onSecret`, so it is masked
 * wherever the connection writes text.
 *
 * @example
 * const provider = new ToolkitOAuthProvider({ server: 'linear', url, plan, host: { onAuthorization }, store, onSecret })
 * new StreamableHTTPClientTransport(url, { authProvider: provider })
 */
export class ToolkitOAuthProvider implements OAuthClientProvider {
  readonly #server: string
  readonly #key: string
  readonly #plan: OAuthPlan
  readonly #host: OAuthOptions
  readonly #store: OAuthTokenStore
  readonly #onSecret: (secret: string) => void
  #verifier: string | undefined
  /** Where discovery found the authorization server, for the authorization that is under way. */
  #discovery: OAuthDiscoveryState | undefined
  /** The callback parameters the host handed back for the last authorization URL, until exchanged. */
  #callback: URLSearchParams | undefined
  /** The authorization server's issuer and the server's resource, as the SDK's discovery found them. */
  #found: { authorizationServer?: string; resource?: string } = {}
  /** The DPoP session once one is in use, and its private key, kept with the tokens. */
  #dpop: Promise<DpopSession | undefined> | undefined
  #dpopKey: Record<string, unknown> | undefined
  /** Whether the store was asked for a kept DPoP key (asked once: every request asks for the session). */
  #dpopKeyLooked = false

  constructor(options: {
    server: string
    url: URL
    plan: OAuthPlan
    host: OAuthOptions
    store: OAuthTokenStore
    onSecret: (secret: string) => void
  }) {
    this.#server = options.server
    this.#key = `${options.server} ${options.url.href}`
    this.#plan = options.plan
    this.#host = options.host
    this.#store = options.store
    this.#onSecret = options.onSecret
    const { clientMetadataUrl, clientId, signingKey } = options.plan
    if (clientMetadataUrl !== undefined) this.clientMetadataUrl = clientMetadataUrl
    if (clientId !== undefined && signingKey !== undefined) {
      this.addClientAuthentication = privateKeyJwtAuth(clientId, signingKey)
    }
  }

  clientMetadataUrl?: string

  /** The server's name in the config. */
  get server(): string {
    return this.#server
  }

  addClientAuthentication?: AddClientAuthentication

  get redirectUrl(): string | undefined {
    if (this.#plan.grant !== 'authorization_code') return undefined
    return this.#plan.redirectUrl ?? this.#host.redirectUrl ?? 'http://127.0.0.1/callback'
  }

  get clientMetadata(): OAuthClientMetadata {
    const { clientSecret, signingKey } = this.#plan
    const authMethod =
      signingKey !== undefined
        ? 'private_key_jwt'
        : clientSecret === undefined
          ? 'none'
          : 'client_secret_basic'
    const { grant } = this.#plan
    const metadata: OAuthClientMetadata =
      grant === 'authorization_code'
        ? {
            client_name: this.#plan.clientName ?? 'toolnexus',
            redirect_uris: [this.redirectUrl as string],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: authMethod,
          }
        : {
            client_name: this.#plan.clientName ?? 'toolnexus',
            redirect_uris: [],
            grant_types: [grant === 'client_credentials' ? grant : JWT_BEARER_GRANT],
            token_endpoint_auth_method: authMethod,
          }
    if (this.#plan.scope !== undefined) metadata.scope = this.#plan.scope
    return metadata
  }

  /** A fresh, unguessable `state` for each authorization request. */
  state(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(24))
    return Buffer.from(bytes).toString('base64url')
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const saved = await this.#store.get(this.#key)
    const { clientId, clientSecret } = this.#plan
    if (clientId !== undefined) {
      // The issuer it was first used with (or saved with) binds a pre-registered client: its
      // credentials are never sent to another authorization server.
      const bound = saved?.client?.client_id === clientId ? stringOr(saved.client.issuer) : undefined
      if (bound !== undefined && ctx !== undefined && !sameIssuer(bound, ctx.issuer)) {
        throw new Error(
          `MCP server "${this.#server}" now sends its clients to another authorization server than the one ` +
            `its pre-registered client "${clientId}" (auth.clientId) belongs to (${bound}): the client's ` +
            'credentials are not sent there. If the move is expected, register the client with the new ' +
            'authorization server and update "auth", or clear this server from the token store.',
        )
      }
      return {
        client_id: clientId,
        ...(clientSecret !== undefined && { client_secret: clientSecret }),
        ...(bound !== undefined && { issuer: bound }),
      }
    }
    const client = saved?.client as StoredOAuthClientInformation | undefined
    if (client !== undefined && ctx !== undefined && !bindsTo(client, ctx.issuer)) {
      // Registered with an authorization server the server no longer uses: drop it (and its tokens)
      // so the client registers again with the new one.
      await this.#store.set(this.#key, {})
      return undefined
    }
    return client
  }

  async saveClientInformation(
    client: StoredOAuthClientInformation,
    ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    if (typeof client.client_secret === 'string') this.#onSecret(client.client_secret)
    const issuer = client.issuer ?? ctx?.issuer
    // A pre-registered client is kept as the id and the issuer it is bound to: its secret stays in the config.
    const kept = client.client_id === this.#plan.clientId ? { client_id: client.client_id } : { ...client }
    await this.#update({
      client: (issuer === undefined ? kept : { ...kept, issuer }) as NonNullable<OAuthCredentials['client']>,
    })
  }

  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const tokens = (await this.#store.get(this.#key))?.tokens as StoredOAuthTokens | undefined
    if (tokens === undefined) return undefined
    // Tokens issued by another authorization server than the one in use are not sent to it.
    if (ctx !== undefined && !bindsTo(tokens, ctx.issuer)) return undefined
    this.#reportTokens(tokens)
    return tokens
  }

  async saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): Promise<void> {
    this.#reportTokens(tokens)
    const stamped =
      tokens.issuer === undefined && ctx !== undefined ? { ...tokens, issuer: ctx.issuer } : tokens
    await this.#update({
      tokens: stamped as NonNullable<OAuthCredentials['tokens']>,
      ...(this.#dpopKey !== undefined && { dpopKey: this.#dpopKey }),
    })
    // The authorization is complete: the next one discovers the authorization server afresh, so a
    // server that moved to another one is followed there.
    this.#verifier = undefined
    this.#discovery = undefined
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { onAuthorization } = this.#host
    if (onAuthorization === undefined) {
      throw new Error(
        `MCP server "${this.#server}" needs an OAuth authorization (authorization code flow), and the toolkit has no oauth.onAuthorization to run it`,
      )
    }
    this.#callback = undefined
    const answer = await onAuthorization({ server: this.#server, url: authorizationUrl })
    const callback = callbackParams(answer)
    const code = callback.get('code')
    if (code !== null) this.#onSecret(code)
    // The state sent must come back unchanged: a redirect that carries another one (or none, when the
    // whole callback URL was given) was not the answer to this request, and its code is not redeemed.
    const sent = authorizationUrl.searchParams.get('state')
    const returned = callback.get('state')
    const mustCarryState = 'callbackUrl' in answer
    if (sent !== null && (returned === null ? mustCarryState : returned !== sent)) {
      throw new Error(
        `MCP server "${this.#server}": the authorization response's state does not match the request's, so ` +
          'it was refused (a forged or replayed redirect, or a callback from another sign-in)',
      )
    }
    this.#callback = callback
  }

  /**
   * The callback the host handed back for the last authorization URL, once: the transport's
   * `finishAuth` checks its `iss` and redeems its `code`.
   */
  takeCallback(): URLSearchParams | undefined {
    const callback = this.#callback
    this.#callback = undefined
    return callback
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier
  }

  codeVerifier(): string {
    if (this.#verifier === undefined)
      throw new Error('no PKCE code verifier was saved for this authorization')
    return this.#verifier
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state
  }

  /** Kept only while an authorization is under way: its code is redeemed where it was issued. */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#verifier === undefined ? undefined : this.#discovery
  }

  /**
   * The DPoP session, when the authorization server binds tokens to a key (its metadata lists ES256
   * proofs) or a key is kept with the tokens: the SDK signs a proof into each token request and each
   * request to the server with it. `undefined` otherwise: plain bearer tokens.
   */
  dpop(): Promise<DpopSession | undefined> {
    if (this.#dpop !== undefined) return this.#dpop
    if (this.#dpopKeyLooked && !offersDpop(this.#discovery?.authorizationServerMetadata)) {
      return Promise.resolve(undefined)
    }
    const pending = this.#dpopSession()
    this.#dpop = pending
    // No session yet: decide again when discovery has found the authorization server.
    pending.then(
      (session) => {
        if (session === undefined) this.#dpop = undefined
      },
      () => {
        this.#dpop = undefined
      },
    )
    return pending
  }

  async #dpopSession(): Promise<DpopSession | undefined> {
    if (!this.#dpopKeyLooked) {
      this.#dpopKeyLooked = true
      const kept = (await this.#store.get(this.#key))?.dpopKey
      if (kept !== undefined) return this.#useDpopKey(kept, await restoredDpopSession(kept))
    }
    if (!offersDpop(this.#discovery?.authorizationServerMetadata)) return undefined
    const { session, jwk } = await freshDpopSession()
    await this.#update({ dpopKey: jwk })
    return this.#useDpopKey(jwk, session)
  }

  #useDpopKey(jwk: Record<string, unknown>, session: DpopSession): DpopSession {
    if (typeof jwk.d === 'string') this.#onSecret(jwk.d)
    this.#dpopKey = jwk
    return session
  }

  saveAuthorizationServerUrl(issuer: string): void {
    this.#found.authorizationServer = issuer
  }

  saveResourceUrl(resource: string): void {
    this.#found.resource = resource
  }

  prepareTokenRequest(scope?: string): URLSearchParams | Promise<URLSearchParams> | undefined {
    const wanted = scope ?? this.#plan.scope
    const grant = {
      server: this.#server,
      plan: this.#plan,
      ...(wanted !== undefined && { scope: wanted }),
      onSecret: this.#onSecret,
    }
    if (this.#plan.grant === 'jwt_bearer') return workloadTokenRequest(grant)
    if (this.#plan.grant === 'cross_app_access') {
      return crossAppTokenRequest({ ...grant, host: this.#host, ...this.#found })
    }
    if (this.#plan.grant !== 'client_credentials') return undefined
    const params = new URLSearchParams({ grant_type: 'client_credentials' })
    if (wanted !== undefined) params.set('scope', wanted)
    return params
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') {
      if (scope === 'verifier') this.#verifier = undefined
      else this.#discovery = undefined
      return
    }
    const saved = (await this.#store.get(this.#key)) ?? {}
    if (scope === 'all') {
      this.#verifier = undefined
      this.#discovery = undefined
      await this.#store.delete(this.#key)
      return
    }
    const { tokens, client } = saved
    const kept: OAuthCredentials = scope === 'tokens' ? (client ? { client } : {}) : tokens ? { tokens } : {}
    await this.#store.set(this.#key, kept)
  }

  async #update(change: OAuthCredentials): Promise<void> {
    const saved = (await this.#store.get(this.#key)) ?? {}
    await this.#store.set(this.#key, { ...saved, ...change })
  }

  #reportTokens(tokens: { access_token?: unknown; refresh_token?: unknown }): void {
    if (typeof tokens.access_token === 'string') this.#onSecret(tokens.access_token)
    if (typeof tokens.refresh_token === 'string') this.#onSecret(tokens.refresh_token)
  }
}

/** The host's answer as callback parameters: the redirect's query, or the parts it was taken into. */
function callbackParams(answer: OAuthAuthorizationResult): URLSearchParams {
  if ('callbackUrl' in answer) return new URL(answer.callbackUrl).searchParams
  const params = new URLSearchParams({ code: answer.code })
  if (answer.state !== undefined) params.set('state', answer.state)
  if (answer.iss !== undefined) params.set('iss', answer.iss)
  return params
}

/** Whether a stored credential belongs to `issuer` (one saved before issuers were kept belongs anywhere). */
function bindsTo(stored: { issuer?: unknown }, issuer: string): boolean {
  const bound = stringOr(stored.issuer)
  return bound === undefined || sameIssuer(bound, issuer)
}

/** Issuers compared as the SDK does: exactly, but for one trailing slash. */
function sameIssuer(a: string, b: string): boolean {
  return a === b || a.replace(/\/$/, '') === b.replace(/\/$/, '')
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
