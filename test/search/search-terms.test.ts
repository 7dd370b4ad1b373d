import { describe, expect, it } from 'vitest'
import { searchTerms } from '../../src/search/search-terms.js'

describe('searchTerms', () => {
  it.each([
    'getHTTPResponse_v2 list-files',
    'Send an EMail via SMTP2Go, then call fetchURLs.',
    'read_file: Reads a file (UTF-8) from disk',
  ])('splits ASCII text as it splits the same words next to other scripts: %s', (text) => {
    // Text with a non-ASCII character goes the Unicode way; the same words must come out.
    expect(searchTerms(text)).toStrictEqual(searchTerms(`${text} 文件`).slice(0, -1))
    expect(searchTerms(text).length).toBeGreaterThan(2)
  })

  it('splits camel-case humps, drops stop words and stems', () => {
    expect(searchTerms('getHTTPResponse for the files')).toStrictEqual(['get', 'http', 'respons', 'file'])
  })
})
