import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthTokens,
} from '@modelcontextprotocol/client'
import type { OAuthPlan } from './mcp-server-plan.js'
import type { OAuthCredentials, OAuthOptions, OAuthTokenStore } from './oauth-options.js'

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
 * with PKCE (the SDK makes the verifier and the URL; the host opens it and returns the code) or the
 * client credentials grant. Every token it learns is reported to `onSecret`, so it is masked wherever
 * the connection writes text.
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
  /** The code the host handed back for the last authorization URL, until it is exchanged. */
  pendingCode: string | undefined

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
    if (options.plan.clientMetadataUrl !== undefined) this.clientMetadataUrl = options.plan.clientMetadataUrl
  }

  clientMetadataUrl?: string

  get redirectUrl(): string | undefined {
    if (this.#plan.grant === 'client_credentials') return undefined
    return this.#plan.redirectUrl ?? this.#host.redirectUrl ?? 'http://127.0.0.1/callback'
  }

  get clientMetadata(): OAuthClientMetadata {
    const secretMethod = this.#plan.clientSecret === undefined ? 'none' : 'client_secret_basic'
    const metadata: OAuthClientMetadata =
      this.#plan.grant === 'client_credentials'
        ? {
            client_name: this.#plan.clientName ?? 'toolnexus',
            redirect_uris: [],
            grant_types: ['client_credentials'],
            token_endpoint_auth_method: secretMethod,
          }
        : {
            client_name: this.#plan.clientName ?? 'toolnexus',
            redirect_uris: [this.redirectUrl as string],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: secretMethod,
          }
    if (this.#plan.scope !== undefined) metadata.scope = this.#plan.scope
    return metadata
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { clientId, clientSecret } = this.#plan
    if (clientId !== undefined) {
      return clientSecret === undefined
        ? { client_id: clientId }
        : { client_id: clientId, client_secret: clientSecret }
    }
    const saved = (await this.#store.get(this.#key))?.client
    return saved as OAuthClientInformationMixed | undefined
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (typeof client.client_secret === 'string') this.#onSecret(client.client_secret)
    await this.#update({ client: client as NonNullable<OAuthCredentials['client']> })
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const tokens = (await this.#store.get(this.#key))?.tokens
    if (tokens !== undefined) this.#reportTokens(tokens)
    return tokens as OAuthTokens | undefined
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.#reportTokens(tokens)
    await this.#update({ tokens: tokens as NonNullable<OAuthCredentials['tokens']> })
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const { onAuthorization } = this.#host
    if (onAuthorization === undefined) {
      throw new Error(
        `MCP server "${this.#server}" needs an OAuth authorization (authorization code flow), and the toolkit has no oauth.onAuthorization to run it`,
      )
    }
    const { code } = await onAuthorization({ server: this.#server, url: authorizationUrl })
    this.#onSecret(code)
    this.pendingCode = code
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier
  }

  codeVerifier(): string {
    if (this.#verifier === undefined)
      throw new Error('no PKCE code verifier was saved for this authorization')
    return this.#verifier
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.#plan.grant !== 'client_credentials') return undefined
    const params = new URLSearchParams({ grant_type: 'client_credentials' })
    const wanted = scope ?? this.#plan.scope
    if (wanted !== undefined) params.set('scope', wanted)
    return params
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') {
      if (scope === 'verifier') this.#verifier = undefined
      return
    }
    const saved = (await this.#store.get(this.#key)) ?? {}
    if (scope === 'all') {
      this.#verifier = undefined
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
