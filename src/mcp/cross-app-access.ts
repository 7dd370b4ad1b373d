// Enterprise-managed authorization ("cross-app access"): the signed-in user's ID token, from the host,
// is exchanged at the enterprise identity provider for a grant naming this MCP server (an ID-JAG, by
// RFC 8693 token exchange), and the grant for the server's access token (an RFC 7523 JWT bearer grant).
// The MCP SDK makes both requests; this decides what is asked and keeps every token masked.
import { discoverAndRequestJwtAuthGrant, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client'
import type { OAuthPlan } from './mcp-server-plan.js'
import type { OAuthOptions } from './oauth-options.js'

/** The grant type of the token request that redeems the identity provider's grant. */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer'

/**
 * The token request of a `cross_app_access` entry: asks the host for the user's ID token, exchanges it
 * at the entry's identity provider for a grant to `resource` at `authorizationServer`, and returns the
 * JWT bearer request that redeems it. The ID token and the grant are handed to `onSecret` before any
 * request carries them. Throws when the host has no `oauth.idToken`, naming it.
 *
 * @example
 * const params = await crossAppTokenRequest({ server: 'crm', plan, host, authorizationServer, resource, onSecret })
 */
export async function crossAppTokenRequest(input: {
  server: string
  plan: OAuthPlan
  host: OAuthOptions
  /** The MCP server's authorization server (its issuer): the grant's audience. */
  authorizationServer: string | undefined
  /** The MCP server's resource identifier, from its protected resource metadata. */
  resource: string | undefined
  scope?: string
  onSecret: (secret: string) => void
}): Promise<URLSearchParams> {
  const { server, plan, host, authorizationServer, resource, onSecret } = input
  const idp = plan.idp
  if (idp === undefined) throw new Error(`MCP server "${server}": "auth.idp" is missing`)
  if (host.idToken === undefined) {
    throw new Error(
      `MCP server "${server}" uses enterprise-managed authorization ("grant": "cross_app_access"), and ` +
        "the toolkit has no oauth.idToken to give the signed-in user's ID token from " +
        idp.issuer,
    )
  }
  if (authorizationServer === undefined || resource === undefined) {
    throw new Error(
      `MCP server "${server}" publishes no protected resource metadata naming its authorization server ` +
        'and resource, which enterprise-managed authorization needs',
    )
  }
  const idToken = await host.idToken({ server, issuer: idp.issuer })
  if (typeof idToken !== 'string' || idToken === '') {
    throw new Error(`MCP server "${server}": oauth.idToken gave no ID token (a non-empty string)`)
  }
  onSecret(idToken)
  const exchange = {
    audience: authorizationServer,
    resource,
    idToken,
    clientId: idp.clientId,
    ...(idp.clientSecret !== undefined && { clientSecret: idp.clientSecret }),
    ...(input.scope !== undefined && { scope: input.scope }),
  }
  let jwtAuthGrant: string
  try {
    ;({ jwtAuthGrant } =
      idp.tokenEndpoint === undefined
        ? await discoverAndRequestJwtAuthGrant({ ...exchange, idpUrl: idp.issuer })
        : await requestJwtAuthorizationGrant({ ...exchange, tokenEndpoint: idp.tokenEndpoint }))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(
      `MCP server "${server}": the identity provider ${idp.issuer} gave no grant for it: ${firstLine(reason)}`,
      { cause: error },
    )
  }
  onSecret(jwtAuthGrant)
  const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: jwtAuthGrant })
  if (input.scope !== undefined) params.set('scope', input.scope)
  return params
}

/** A failure's first line, cut to a length a status line can show (a metadata check lists every issue). */
function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}
