// PLACEHOLDER — the Next.js helper replaces this file (§9).
import type { RunEvent } from './types.js'

export function toUIMessageStreamResponse(
  _events: AsyncIterable<RunEvent<unknown>>,
  _init?: ResponseInit,
): Response {
  throw new Error('UI message stream: not built yet')
}
