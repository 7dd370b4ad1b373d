// Client credentials with a signed JWT (`private_key_jwt`): the entry's private key is read and checked
// when the config is, and each token request carries a short-lived assertion signed with it.
import { createPrivateKey, type KeyObject } from 'node:crypto'
import { type AddClientAuthentication, createPrivateKeyJwtAuth } from '@modelcontextprotocol/client'
import type { SigningKey } from './mcp-server-plan.js'

/** Seconds an assertion is valid: long enough for one token request on a slow link, no more. */
const ASSERTION_LIFETIME_S = 120

/** Which algorithms each kind of key signs with; the first is the one used when none is named. */
const ALGORITHMS: Record<string, readonly string[]> = {
  rsa: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  'rsa-pss': ['PS256', 'PS384', 'PS512'],
  'ec:P-256': ['ES256'],
  'ec:P-384': ['ES384'],
  'ec:P-521': ['ES512'],
  ed25519: ['EdDSA'],
  ed448: ['EdDSA'],
}

/** The private members of a JWK: the values to keep out of every text. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const

/**
 * Reads a private key written in an `mcp.json` (PEM text, a JWK object or JWK JSON text) into a JWK and
 * the algorithm it signs with, checking that the two fit. Throws an `Error` whose message names what to
 * change and never shows the key. `secrets` gets every text that would give the key away.
 *
 * @example
 * const key = readSigningKey(process.env.SVC_KEY ?? '', 'ES256', secrets)
 */
export function readSigningKey(
  raw: string | Record<string, unknown>,
  algorithm: string | undefined,
  secrets: string[],
): SigningKey {
  const key = importPrivateKey(raw)
  const jwk = key.export({ format: 'jwk' }) as Record<string, unknown>
  if (typeof raw === 'string') secrets.push(...pemSecrets(raw))
  for (const member of PRIVATE_MEMBERS) {
    const value = jwk[member]
    if (typeof value === 'string') secrets.push(value)
  }
  const kind = key.asymmetricKeyType === 'ec' ? `ec:${String(jwk.crv)}` : String(key.asymmetricKeyType)
  const fits = ALGORITHMS[kind]
  if (fits === undefined) {
    throw new Error(`"auth.privateKey" is a ${kind} key, which cannot sign a client assertion`)
  }
  const chosen = algorithm ?? (fits[0] as string)
  if (!fits.includes(chosen)) {
    throw new Error(
      `"auth.algorithm" ${JSON.stringify(chosen)} does not fit the ${kind} key in "auth.privateKey": use ${fits
        .map((each) => `"${each}"`)
        .join(' or ')}`,
    )
  }
  return { jwk, algorithm: chosen }
}

/**
 * The token request authentication of a client that signs its assertions: `client_assertion` with a
 * JWT whose `iss` and `sub` are the client id and whose audience is the authorization server's issuer.
 *
 * @example
 * provider.addClientAuthentication = privateKeyJwtAuth('svc', key)
 */
export function privateKeyJwtAuth(clientId: string, key: SigningKey): AddClientAuthentication {
  return createPrivateKeyJwtAuth({
    issuer: clientId,
    subject: clientId,
    privateKey: key.jwk,
    alg: key.algorithm,
    lifetimeSeconds: ASSERTION_LIFETIME_S,
  })
}

function importPrivateKey(raw: string | Record<string, unknown>): KeyObject {
  const jwk = typeof raw === 'string' ? jwkText(raw) : raw
  try {
    const key =
      jwk === undefined
        ? createPrivateKey({ key: pemText(raw as string) })
        : createPrivateKey({ key: jwk, format: 'jwk' })
    if (key.type !== 'private') throw new Error('not a private key')
    return key
  } catch {
    throw new Error(
      `"auth.privateKey" is not a private key: give a PEM ("-----BEGIN PRIVATE KEY-----…") or a private JWK, ` +
        'usually through "${VAR}"',
    )
  }
}

/** A JWK written as JSON text, or `undefined` for anything else (a PEM). */
function jwkText(raw: string): Record<string, unknown> | undefined {
  if (!raw.trim().startsWith('{')) return undefined
  try {
    const parsed: unknown = JSON.parse(raw)
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** A PEM as written; one kept on a single line with `\n` escapes (as in an env file) has them undone. */
function pemText(raw: string): string {
  return raw.includes('\n') || !raw.includes('\\n') ? raw : raw.replace(/\\n/g, '\n')
}

/** A PEM's whole text and each line of its body: the parts a log could show. */
function pemSecrets(raw: string): string[] {
  const body = raw
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter((line) => line.length >= 8 && !line.startsWith('-----'))
  return [raw, ...body]
}
