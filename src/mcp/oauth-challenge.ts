// What the toolkit says when a remote server asks for OAuth: whether a response is a challenge, what to
// configure when nothing can answer it, and an OAuth failure in words that repeat nothing an attacker sent.
import { IssuerMismatchError } from '@modelcontextprotocol/client'

/**
 * Whether a response is an OAuth challenge: 401 with a `WWW-Authenticate` of the `Bearer` or `DPoP` scheme.
 *
 * @example
 * if (isOAuthChallenge(response)) startOAuth()
 */
export function isOAuthChallenge(response: Response): boolean {
  return (
    response.status === 401 && /^\s*(bearer|dpop)\b/i.test(response.headers.get('www-authenticate') ?? '')
  )
}

/**
 * The reason of a server that asked for OAuth which nothing can run: what it said, and what to configure.
 *
 * @example
 * throw new Error(oauthSetupHint('HTTP 401: Missing Authorization header'))
 */
export function oauthSetupHint(failure: string): string {
  return (
    `${failure}. The server asks for OAuth (HTTP 401 with a WWW-Authenticate challenge): give the toolkit ` +
    '`oauth: { onAuthorization, redirectUrl }` to sign in through a browser, or set "auth" in the entry ' +
    '({ "grant": "client_credentials", "clientId": …, "clientSecret" or "privateKey": … } for a service), ' +
    'or send a token in "headers": { "Authorization": "Bearer ${TOKEN}" }'
  )
}

/**
 * An OAuth failure as it may be shown: an issuer that does not match is named only by the issuer that was
 * expected (the one received comes from the redirect or a metadata document, and may be an attacker's).
 *
 * @example
 * throw shownOAuthFailure(error, 'linear')
 */
export function shownOAuthFailure(error: unknown, server: string): unknown {
  if (!(error instanceof IssuerMismatchError)) return error
  const what =
    error.kind === 'authorization_response'
      ? "the authorization response's iss is not the authorization server's issuer"
      : "the authorization server's metadata names another issuer than the one it was found at"
  return new Error(
    `MCP server "${server}": ${what} (expected ${JSON.stringify(error.expected ?? '')}), so the code was ` +
      'refused: the response may come from another authorization server (a mix-up attack)',
  )
}
