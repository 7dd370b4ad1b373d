import type { SpecContentPart, SpecGenerateResult } from '../ai-sdk/language-model-spec.js'
import type { ToolCallRecord } from '../contracts/run-types.js'
import type { ModelToolCall } from '../contracts/transport.js'
import { runQuietly } from '../loop/run-quietly.js'
import { approvalParts } from './provider-form-approvals.js'
import { ProviderFormTransport } from './provider-form-transport.js'
import { emptyUsage } from './sum-spec-usage.js'
import { toolCallPart, toolResultPart } from './tool-call-part.js'
import { loopInput, type WrappedCall } from './wrapped-call.js'

/**
 * `doGenerate` of a model wrapped by `withToolkit`: the whole loop, then one result holding every inner
 * call's content, the toolkit's calls and results as provider-executed parts, and the approval requests
 * of a run that waits.
 *
 * @example
 * const result = await generateWithToolkit(wrappedCall({ inner, wrappedModel, toolkit, settings, callOptions }))
 */
export async function generateWithToolkit(call: WrappedCall): Promise<SpecGenerateResult> {
  const transport = new ProviderFormTransport({ model: call.wrappedModel, callerOptions: call.callOptions })
  const result = await runQuietly(loopInput(call, transport, 'generate'))
  const { external, answers } = call
  const content: SpecContentPart[] = []
  const recordOf = recordsInOrder(result.toolCalls)
  // The calls the answers released come first: approved ones ran, and are reported again beside their
  // result (the AI SDK wants a step's results next to their calls); declined ones the AI SDK reports.
  for (const id of answers?.callIds ?? []) {
    const record = recordOf(id)
    if (record === undefined || answers?.declined.has(id)) continue
    content.push(toolCallPart({ id, name: record.name, input: record.args }, true, undefined))
    content.push(toolResultPart(record))
  }
  for (const inner of transport.calls) {
    const calls = inner.toolCalls[Symbol.iterator]()
    const own: ModelToolCall[] = []
    for (const part of inner.content) {
      if (part.type !== 'tool-call' || part.providerExecuted === true) {
        content.push(part)
        continue
      }
      const toolCall = calls.next().value
      if (toolCall === undefined) continue
      content.push(toolCallPart(toolCall, !external.has(toolCall.name), part.providerMetadata))
      if (!external.has(toolCall.name)) own.push(toolCall)
    }
    for (const toolCall of own) {
      const record = recordOf(toolCall.id)
      if (record !== undefined) content.push(toolResultPart(record))
    }
  }
  if (result.status === 'suspended') content.push(...approvalParts(result, content))
  return {
    content,
    finishReason: transport.finishReason,
    usage: transport.usage ?? emptyUsage(call.inner),
    warnings: transport.warnings,
    ...(transport.providerMetadata === undefined ? {} : { providerMetadata: transport.providerMetadata }),
    ...(transport.request === undefined ? {} : { request: transport.request }),
    ...(transport.response === undefined
      ? {}
      : { response: transport.response as NonNullable<SpecGenerateResult['response']> }),
  }
}

/** Reads the loop's records in order, one call at a time: a call without a record (waiting) reads none. */
function recordsInOrder(
  records: readonly ToolCallRecord[],
): (toolCallId: string) => ToolCallRecord | undefined {
  let next = 0
  return (toolCallId) => (records[next]?.id === toolCallId ? records[next++] : undefined)
}
