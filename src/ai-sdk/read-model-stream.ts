import type { ModelMessage } from 'ai'
import type { TransportStreamPart } from '../contracts/transport.js'
import type { SpecContentPart, SpecStreamPart, SpecStreamResult } from './language-model-spec.js'
import { normalizeFinishReason, normalizeUsage } from './normalize-model-result.js'
import { TurnBuilder } from './turn-builder.js'

/**
 * Reads one `doStream` result into the loop's stream parts: text deltas as they come, then the whole
 * turn. `relay`, when given, sees every stream part first, as the provider sent it (the provider form
 * passes them on to its own caller); `ownNames` gives calls made under a declared name their tool's own.
 *
 * @example
 * for await (const part of readModelStream(await model.doStream(options))) {
 *   if (part.type === 'turn') console.log(part.turn.toolCalls)
 * }
 */
export async function* readModelStream(
  result: SpecStreamResult,
  relay?: (part: SpecStreamPart) => void,
  ownNames?: ReadonlyMap<string, string>,
): AsyncGenerator<TransportStreamPart<ModelMessage>> {
  const reader = result.stream.getReader()
  const turn = new TurnBuilder(ownNames)
  const open = new Map<string, SpecContentPart>()
  let finish: SpecStreamPart | undefined
  let metadata: SpecStreamPart | undefined
  let done = false
  try {
    while (true) {
      const next = await reader.read()
      if (next.done) break
      const part = next.value
      relay?.(part)
      switch (part.type) {
        case 'text-start':
        case 'reasoning-start':
          open.set(blockKey(part), turn.openBlock(part.type === 'text-start' ? 'text' : 'reasoning'))
          turn.mergeMetadata(open.get(blockKey(part)), part.providerMetadata)
          break
        case 'text-delta':
        case 'reasoning-delta': {
          const key = blockKey(part)
          let block = open.get(key)
          if (block === undefined) {
            block = turn.openBlock(part.type === 'text-delta' ? 'text' : 'reasoning')
            open.set(key, block)
          }
          const delta = part.delta ?? ''
          block.text = (block.text ?? '') + delta
          turn.mergeMetadata(block, part.providerMetadata)
          if (part.type === 'text-delta' && delta !== '') yield { type: 'text-delta', text: delta }
          break
        }
        case 'text-end':
        case 'reasoning-end':
          turn.mergeMetadata(open.get(blockKey(part)), part.providerMetadata)
          open.delete(blockKey(part))
          break
        case 'tool-call':
        case 'tool-result':
          turn.add(part as SpecContentPart)
          break
        case 'finish':
          finish = part
          break
        case 'response-metadata':
          metadata = part
          break
        case 'error':
          throw part.error
        default:
        // Sources, files, raw chunks, metadata and tool-input previews add nothing the loop needs.
      }
    }
    done = true
  } finally {
    // Stop the provider's stream when the loop leaves early (abort, error): it would run on otherwise.
    if (!done) reader.cancel().catch(() => {})
    reader.releaseLock()
  }
  const usage = normalizeUsage(finish?.usage)
  const finishReason = normalizeFinishReason(finish?.finishReason)
  yield {
    type: 'turn',
    turn: turn.finish({
      usage,
      finishReason,
      response: { ...result, stream: undefined, content: turn.content, usage: finish?.usage, finishReason },
      metadata,
    }),
  }
}

function blockKey(part: SpecStreamPart): string {
  return `${part.type.startsWith('text') ? 'text' : 'reasoning'}:${part.id ?? ''}`
}
