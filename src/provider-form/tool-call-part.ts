import type { ProviderOptions, SpecContentPart } from '../ai-sdk/language-model-spec.js'
import { TOOLNEXUS_MARK } from './convert-provider-form-prompt.js'

/**
 * A call as the wrapper reports it: the toolkit's as provider-executed, the caller's as an ordinary call.
 *
 * @example
 * toolCallPart({ id: 'call_1', name: 'weather', input: { city: 'Pune' } }, true, undefined)
 */
export function toolCallPart(
  call: { id: string; name: string; input: unknown },
  ownTool: boolean,
  providerMetadata: ProviderOptions | undefined,
): SpecContentPart {
  const part: SpecContentPart = {
    type: 'tool-call',
    toolCallId: call.id,
    toolName: call.name,
    input: inputText(call.input),
  }
  if (providerMetadata !== undefined) part.providerMetadata = providerMetadata
  if (ownTool) {
    part.providerExecuted = true
    part.dynamic = true
    part.providerMetadata = Object.assign({}, providerMetadata, { [TOOLNEXUS_MARK]: {} })
  }
  return part
}

/**
 * A result of the toolkit's as the wrapper reports it: provider-executed, beside its call, with the mark.
 *
 * @example
 * toolResultPart({ id: 'call_1', name: 'weather', output: 'Sunny', isError: false })
 */
export function toolResultPart(record: {
  id: string
  name: string
  output: string
  isError: boolean
}): SpecContentPart {
  return {
    type: 'tool-result',
    toolCallId: record.id,
    toolName: record.name,
    result: record.output,
    isError: record.isError,
    providerExecuted: true,
    dynamic: true,
    providerMetadata: { [TOOLNEXUS_MARK]: {} },
  } as SpecContentPart
}

function inputText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {})
}
