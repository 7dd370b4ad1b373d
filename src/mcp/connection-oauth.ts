import type { ConnectionOptions } from './connection-options.js'
import type { RemoteServerPlan } from './mcp-server-plan.js'
import { challengePlan, memoryTokenStore, ToolkitOAuthProvider } from './toolkit-oauth-provider.js'

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
