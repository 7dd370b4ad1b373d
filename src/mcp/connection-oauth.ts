import type { ConnectionOptions } from './connection-options.js'
import type { OAuthPlan, RemoteServerPlan } from './mcp-server-plan.js'
import type { OAuthOptions } from './oauth-options.js'
import { memoryTokenStore, ToolkitOAuthProvider } from './toolkit-oauth-provider.js'

/**
 * The OAuth provider of one remote server's connection: for an entry with `auth`, or one that answered
 * with an OAuth challenge while the host can run the authorization code flow. The connection's provider
 * (`current`) is kept across reconnects; undefined where the connection authorizes nothing.
 *
 * @example
 * const provider = connectionOAuth({ server: 'docs', plan, challenged: true, current, options, onSecret })
 */
export function connectionOAuth(input: {
  server: string
  plan: RemoteServerPlan
  challenged: boolean
  current: ToolkitOAuthProvider | undefined
  options: Pick<ConnectionOptions, 'oauth' | 'tokenStore'>
  /** Called with each secret the provider learns (a token, a client secret), so it is masked. */
  onSecret: (secret: string) => void
}): ToolkitOAuthProvider | undefined {
  const { plan, options, current } = input
  const auth =
    plan.auth ?? (input.challenged || current !== undefined ? challengePlan(plan, options.oauth) : undefined)
  if (auth === undefined) return undefined
  return (
    current ??
    new ToolkitOAuthProvider({
      server: input.server,
      url: plan.url,
      plan: auth,
      host: options.oauth ?? {},
      store: options.tokenStore ?? memoryTokenStore(),
      onSecret: input.onSecret,
    })
  )
}

/**
 * How an entry with only a `url` is authorized when its server challenges: the authorization code flow,
 * registering dynamically, through the host's `oauth.onAuthorization`; none when the host has no
 * handler, or the entry sends its own `Authorization` header.
 *
 * @example
 * const auth = plan.auth ?? challengePlan(plan, options.oauth)
 */
function challengePlan(plan: RemoteServerPlan, host: OAuthOptions | undefined): OAuthPlan | undefined {
  if (host?.onAuthorization === undefined) return undefined
  if (Object.keys(plan.headers).some((name) => name.toLowerCase() === 'authorization')) return undefined
  return { grant: 'authorization_code' }
}
