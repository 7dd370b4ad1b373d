/**
 * A Gemini `finishReason` in the AI SDK's words (`stop`, `tool-calls`, `length`, `content-filter`,
 * `error`, `other`), so `RunResult.finishReason` reads the same over every transport.
 *
 * @example
 * mapGeminiFinishReason({ finishReason: 'STOP', hasToolCalls: true }) // 'tool-calls'
 * mapGeminiFinishReason({ finishReason: 'MAX_TOKENS', hasToolCalls: false }) // 'length'
 */
export function mapGeminiFinishReason(options: {
  finishReason: string | undefined
  hasToolCalls: boolean
}): string {
  switch (options.finishReason) {
    case undefined:
    case 'STOP':
      return options.hasToolCalls ? 'tool-calls' : 'stop'
    case 'MAX_TOKENS':
    case 'CONTINUATION':
      return 'length'
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
    case 'IMAGE_PROHIBITED_CONTENT':
      return 'content-filter'
    case 'MALFORMED_FUNCTION_CALL':
    case 'UNEXPECTED_TOOL_CALL':
      return 'error'
    default:
      return 'other'
  }
}
