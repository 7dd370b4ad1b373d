import { describe, expect, it } from 'vitest'
import { parseJsonWithComments } from '../../src/mcp/parse-json-with-comments.js'
import { expandEnvVars } from '../../src/shared/expand-env-vars.js'
import { createSecretScrubber, secretPartsOf } from '../../src/shared/scrub-secrets.js'

describe('expandEnvVars', () => {
  const env = { TOKEN: 'abc123', EMPTY: '' }

  it.each([
    [
      'Bearer ${TOKEN}',
      { kind: 'expanded', value: 'Bearer abc123', substituted: [{ variable: 'TOKEN', value: 'abc123' }] },
    ],
    [
      '${env:TOKEN}-${TOKEN}',
      {
        kind: 'expanded',
        value: 'abc123-abc123',
        substituted: [
          { variable: 'TOKEN', value: 'abc123' },
          { variable: 'TOKEN', value: 'abc123' },
        ],
      },
    ],
    [
      '${NOPE:-fallback}',
      { kind: 'expanded', value: 'fallback', substituted: [{ variable: 'NOPE', value: 'fallback' }] },
    ],
    [
      '${EMPTY:-fallback}',
      { kind: 'expanded', value: 'fallback', substituted: [{ variable: 'EMPTY', value: 'fallback' }] },
    ],
    ['${EMPTY}', { kind: 'expanded', value: '', substituted: [{ variable: 'EMPTY', value: '' }] }],
    ['plain $TOKEN text', { kind: 'expanded', value: 'plain $TOKEN text', substituted: [] }],
    ['${NOPE}', { kind: 'missing', variable: 'NOPE' }],
    ['${TOKEN} and ${ALSO_NOPE}', { kind: 'missing', variable: 'ALSO_NOPE' }],
    ['${input:key}', { kind: 'unsupported', placeholder: '${input:key}' }],
    ['${}', { kind: 'unsupported', placeholder: '${}' }],
  ])('%s', (text, expected) => {
    expect(expandEnvVars(text, env)).toStrictEqual(expected)
  })
})

describe('createSecretScrubber', () => {
  it('masks every secret, its URL-encoded form, and the longest first', () => {
    const scrub = createSecretScrubber(['s3cr3t/value', 's3cr3t/value-longer', 'ab'])
    expect(scrub('got s3cr3t/value-longer and s3cr3t%2Fvalue and s3cr3t/value; ab stays')).toBe(
      'got *** and *** and ***; ab stays',
    )
  })

  it('masks the credential of a header on its own', () => {
    const scrub = createSecretScrubber(secretPartsOf('Bearer tok-3f9a8b7c6d5e'))
    expect(scrub('server said: bad token tok-3f9a8b7c6d5e')).toBe('server said: bad token ***')
  })
})

describe('parseJsonWithComments', () => {
  it('leaves comment markers and commas inside strings alone', () => {
    expect(parseJsonWithComments('{ "a": "x // y /* z */", "b": [1, 2,], /* c */ }')).toStrictEqual({
      a: 'x // y /* z */',
      b: [1, 2],
    })
  })

  it('throws the error of the original text for what is not JSON at all', () => {
    expect(() => parseJsonWithComments('{ nope }')).toThrow(SyntaxError)
  })
})
