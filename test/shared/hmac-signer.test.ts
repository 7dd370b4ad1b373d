import { describe, expect, it } from 'vitest'
import { createHmacSigner } from '../../src/shared/create-hmac-signer.js'

const SECRET = 'a test secret that is at least 32 characters long'

describe('createHmacSigner', () => {
  it('verifies its own signature and nothing altered: the text, the purpose, the signature, the secret', async () => {
    const signer = createHmacSigner({ secret: SECRET })
    const signature = await signer.sign('chat-answer', '{"messages":[]}')
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await signer.verify('chat-answer', '{"messages":[]}', signature)).toBe(true)
    expect(await signer.verify('chat-answer', '{"messages":[1]}', signature)).toBe(false)
    expect(await signer.verify('run-state', '{"messages":[]}', signature)).toBe(false)
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`
    expect(await signer.verify('chat-answer', '{"messages":[]}', flipped)).toBe(false)
    expect(await signer.verify('chat-answer', '{"messages":[]}', 'not a signature')).toBe(false)
    const other = createHmacSigner({ secret: `${SECRET}!` })
    expect(await other.verify('chat-answer', '{"messages":[]}', signature)).toBe(false)
  })

  it('signs the purpose, a newline and the text with HMAC-SHA256, as base64url', async () => {
    const signer = createHmacSigner({ secret: 'Jefe' })
    const signature = await signer.sign('what do ya want ', 'for nothing?')
    const expected = await crypto.subtle.sign(
      'HMAC',
      await crypto.subtle.importKey(
        'raw',
        new TextEncoder().encode('Jefe'),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      ),
      new TextEncoder().encode('what do ya want \nfor nothing?'),
    )
    expect(Buffer.from(signature, 'base64url')).toStrictEqual(Buffer.from(expected))
  })

  it('without a secret, makes a random key: two signers never agree', async () => {
    const first = createHmacSigner()
    const second = createHmacSigner()
    const signature = await first.sign('p', 'text')
    expect(await first.verify('p', 'text', signature)).toBe(true)
    expect(await second.verify('p', 'text', signature)).toBe(false)
  })
})
