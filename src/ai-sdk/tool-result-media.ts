import type { ModelMessage } from 'ai'
import type { ToolMedia, ToolResult } from '../tool/types.js'

type ToolResultPart = Extract<
  Exclude<Extract<ModelMessage, { role: 'tool' }>['content'], string>[number],
  { type: 'tool-result' }
>
type ToolResultOutput = ToolResultPart['output']
type ContentValue = Extract<ToolResultOutput, { type: 'content' }>['value']

/** The image types every provider that takes images in a tool result accepts. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/**
 * Whether an AI SDK provider sends images from a tool result to its model as images, by the provider id
 * the model reports: OpenAI Responses (`function_call_output` with `input_image`), Anthropic (`tool_result`
 * with `image` blocks, also on Vertex and Bedrock) and Google (`functionResponse.parts` on Gemini 3, the
 * image beside the response before). OpenAI Chat Completions and the rest take text only: their tool
 * message would carry the base64 as text. No provider takes audio in a tool result.
 *
 * @example
 * takesImagesInToolResults('openai.responses') // true
 * takesImagesInToolResults('openai.chat')      // false
 */
export function takesImagesInToolResults(provider: string): boolean {
  return /\.responses$/.test(provider) || /(^|\.)anthropic(\.|$)/.test(provider) || /^google\./.test(provider)
}

/**
 * A tool result's AI SDK output: `text` / `error-text`, or — for a successful result with images the
 * provider takes — `content` with the text first and each image after it (`image-data`, a shape `ai` 6
 * and 7 both read).
 *
 * @example
 * toolResultOutput({ output: 'a chart', isError: false, media: [png] }, true)
 * // { type: 'content', value: [{ type: 'text', text: 'a chart' }, { type: 'image-data', data, mediaType: 'image/png' }] }
 */
export function toolResultOutput(result: ToolResult, takesImages: boolean): ToolResultOutput {
  if (result.isError) return { type: 'error-text', value: result.output }
  const images = takesImages && result.media !== undefined ? result.media.filter(isSendableImage) : []
  if (images.length === 0) return { type: 'text', value: result.output }
  const value: ContentValue = [{ type: 'text', text: result.output }]
  for (const image of images) value.push({ type: 'image-data', data: image.data, mediaType: image.mediaType })
  return { type: 'content', value }
}

function isSendableImage(media: ToolMedia): boolean {
  return media.type === 'image' && IMAGE_TYPES.has(media.mediaType)
}

type SpecVersion = 'v2' | 'v3' | 'v4'

/**
 * A tool result's output in the shape a LanguageModel of this specification version reads: `content`
 * parts with media become `media` (v2), stay `image-data` / `file-data` (v3), or become `file` with
 * tagged data (v4). Any other output is returned as it is.
 *
 * @example
 * toSpecToolResultOutput({ type: 'content', value: [{ type: 'image-data', data, mediaType: 'image/png' }] }, 'v4')
 * // { type: 'content', value: [{ type: 'file', mediaType: 'image/png', data: { type: 'data', data } }] }
 */
export function toSpecToolResultOutput(output: ToolResultOutput, version: SpecVersion): unknown {
  if (output.type !== 'content' || version === 'v3') return output
  return {
    ...output,
    value: output.value.map((part) => {
      if (part.type !== 'image-data' && part.type !== 'file-data') return part
      const { data, mediaType } = part
      return version === 'v2'
        ? { type: 'media', data, mediaType }
        : { type: 'file', mediaType, data: { type: 'data', data } }
    }),
  }
}
