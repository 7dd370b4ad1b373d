import { isRecord } from '../shared/is-record.js'
import { errorResult } from '../tool/tool-result.js'
import type { JSONSchema, ToolResult } from '../tool/types.js'
import { validateArgs } from '../tool/validate-args.js'

/** A tool result whose `structuredContent` is checked against the tool's declared output schema. */
export function checkStructuredContent(
  mapped: ToolResult,
  structured: unknown,
  schema: JSONSchema,
  origin: { server: string; tool: string },
): ToolResult {
  const prefix = `MCP tool "${origin.tool}" on server "${origin.server}"`
  if (structured === undefined) {
    return errorResult(
      `${prefix} declares an output schema but returned no structuredContent.`,
      mapped.metadata,
    )
  }
  const problem = isRecord(structured)
    ? validateArgs(schema, structured)
    : `structuredContent must be a JSON object, got ${Array.isArray(structured) ? 'an array' : typeof structured}`
  if (problem === undefined) return mapped
  return errorResult(
    `${prefix} returned structuredContent that does not match its output schema: ${problem}`,
    mapped.metadata,
  )
}
