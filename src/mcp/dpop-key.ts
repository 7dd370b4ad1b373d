// DPoP (sender-constrained tokens): when an authorization server says it binds tokens to a key, the
// client makes an ES256 key pair, proves it holds it on every token request and every request to the
// server, and keeps it with the tokens it is bound to, so the next process can use them. The MCP SDK
// signs the proofs (`DpopSession`); this decides when, and makes, keeps and restores the key.
import { DpopSession, generateDpopKeyPair } from '@modelcontextprotocol/client'
import { isRecord } from '../shared/is-record.js'

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const

/**
 * Whether an authorization server's metadata says it issues DPoP-bound tokens for ES256 proofs.
 *
 * @example
 * offersDpop({ dpop_signing_alg_values_supported: ['ES256'] }) // true
 */
export function offersDpop(metadata: unknown): boolean {
  const algorithms = isRecord(metadata) ? metadata.dpop_signing_alg_values_supported : undefined
  return Array.isArray(algorithms) && algorithms.includes('ES256')
}

/**
 * A fresh ES256 DPoP session, with its private key as a JWK to keep beside the tokens.
 *
 * @example
 * const { session, jwk } = await freshDpopSession()
 */
export async function freshDpopSession(): Promise<{ session: DpopSession; jwk: Record<string, unknown> }> {
  const keyPair = await generateDpopKeyPair({ alg: 'ES256', extractable: true })
  const jwk = (await crypto.subtle.exportKey('jwk', keyPair.privateKey)) as Record<string, unknown>
  return { session: await DpopSession.create({ keyPair }), jwk }
}

/**
 * The DPoP session of a kept private key (`freshDpopSession`'s `jwk`). Throws when the JWK is not an
 * ES256 private key.
 *
 * @example
 * const session = await restoredDpopSession(saved.dpopKey)
 */
export async function restoredDpopSession(jwk: Record<string, unknown>): Promise<DpopSession> {
  const { kty, crv, x, y } = jwk
  if (kty !== 'EC' || crv !== 'P-256' || typeof x !== 'string' || typeof y !== 'string') {
    throw new Error('the kept DPoP key is not an ES256 key')
  }
  // In lexical order, as RFC 7638's thumbprint hashes the required members.
  const publicJwk = { crv, kty, x, y }
  const privateKey = await crypto.subtle.importKey('jwk', jwk as JsonWebKey, EC_P256, false, ['sign'])
  const publicKey = await crypto.subtle.importKey('jwk', publicJwk, EC_P256, true, ['verify'])
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(publicJwk)))
  const thumbprint = Buffer.from(digest).toString('base64url')
  return DpopSession.create({ keyPair: { privateKey, publicKey, publicJwk, thumbprint, alg: 'ES256' } })
}
