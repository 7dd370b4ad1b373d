import type { CompatibilityCallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { mapCallToolResult } from '../../src/mcp/map-call-tool-result.js'

const origin = { server: 'demo', tool: 'draw' }
const PNG_8_BYTES = 'iVBORw0KGgo='

describe('mapCallToolResult', () => {
  it.each<[string, CompatibilityCallToolResult, string, boolean]>([
    [
      'text parts joined',
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      'a\nb',
      false,
    ],
    ['no content', { content: [] }, '', false],
    [
      'structuredContent as its JSON text, over the text parts',
      { content: [{ type: 'text', text: 'ignored' }], structuredContent: { sum: 3, items: ['x'] } },
      '{"sum":3,"items":["x"]}',
      false,
    ],
    [
      'isError with the text joined, even beside structuredContent',
      {
        content: [
          { type: 'text', text: 'bad' },
          { type: 'text', text: 'input' },
        ],
        isError: true,
        structuredContent: {},
      },
      'bad\ninput',
      true,
    ],
    [
      'isError without text',
      { content: [], isError: true },
      'MCP tool "draw" on server "demo" reported an error without a message.',
      true,
    ],
    [
      'an image summarized with its decoded size',
      {
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', data: PNG_8_BYTES, mimeType: 'image/png' },
        ],
      },
      'look\n[image: image/png, 8 bytes]',
      false,
    ],
    [
      'audio summarized',
      { content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] },
      '[audio: audio/wav, 3 bytes]',
      false,
    ],
    [
      'a resource link',
      { content: [{ type: 'resource_link', uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' }] },
      '[resource link: file:///a.txt (a, text/plain)]',
      false,
    ],
    [
      'an embedded text resource with its text',
      { content: [{ type: 'resource', resource: { uri: 'memo://1', text: 'hello' } }] },
      '[resource: memo://1]\nhello',
      false,
    ],
    [
      'an embedded blob resource summarized',
      {
        content: [
          { type: 'resource', resource: { uri: 'blob://1', mimeType: 'application/zip', blob: 'AAAAAA==' } },
        ],
      },
      '[resource: blob://1, application/zip, 4 bytes]',
      false,
    ],
    ['a legacy toolResult', { toolResult: { ok: true } }, '{"ok":true}', false],
  ])('%s', (_, result, output, isError) => {
    const mapped = mapCallToolResult(result, origin)
    expect(mapped.output).toBe(output)
    expect(mapped.isError).toBe(isError)
  })

  it('keeps the raw content, structured content and _meta in metadata', () => {
    const content = [{ type: 'image' as const, data: PNG_8_BYTES, mimeType: 'image/png' }]
    expect(
      mapCallToolResult({ content, structuredContent: { a: 1 }, _meta: { trace: 'x' } }, origin),
    ).toStrictEqual({
      output: '{"a":1}',
      isError: false,
      metadata: { server: 'demo', tool: 'draw', content, structuredContent: { a: 1 }, _meta: { trace: 'x' } },
      media: [{ type: 'image', mediaType: 'image/png', data: PNG_8_BYTES }],
    })
  })

  it('hands images and audio on as media (unwrapped), leaving out data that is not base64', () => {
    const mapped = mapCallToolResult(
      {
        content: [
          { type: 'image', data: 'iVBO\nRw0K\nGgo=', mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'image', data: 'not base64!', mimeType: 'image/png' },
        ],
      },
      origin,
    )
    expect(mapped.output).toBe(
      '[image: image/png, 8 bytes]\n[audio: audio/wav, 3 bytes]\n[image: image/png, not valid base64, left out]',
    )
    expect(mapped.media).toStrictEqual([
      { type: 'image', mediaType: 'image/png', data: PNG_8_BYTES },
      { type: 'audio', mediaType: 'audio/wav', data: 'AAAA' },
    ])
  })

  it('an error result carries no media', () => {
    const mapped = mapCallToolResult(
      { isError: true, content: [{ type: 'image', data: PNG_8_BYTES, mimeType: 'image/png' }] },
      origin,
    )
    expect(mapped.media).toBeUndefined()
  })

  it('summarizes a content type it does not know instead of dropping it', () => {
    const result = { content: [{ type: 'hologram', depth: 3 }] } as unknown as CompatibilityCallToolResult
    expect(mapCallToolResult(result, origin).output).toBe('[hologram content]')
  })
})
