// The `@google/genai` shapes toolnexus's public API speaks, written out here so that its declaration files
// never import the optional `@google/genai`: an app without it type-checks, with `skipLibCheck: false`.
// Each is structural, and both ways compatible with the SDK's own type where a value crosses: the SDK's
// `Content` is a `GenAIContent` and a `GenAIContent` is a `Content`, a `GoogleGenAI` is a `GenAIClient`,
// a `GenerateContentResponse` is a `GenAIResponse`.

/**
 * A function call the model made: the SDK's `FunctionCall`.
 *
 * @example
 * const call: GenAIFunctionCall = { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } }
 */
export interface GenAIFunctionCall {
  id?: string
  name?: string
  args?: Record<string, unknown>
}

/**
 * The answer to one function call: the SDK's `FunctionResponse`. `parts` carries a tool's images, for the
 * models that take them there (Gemini 3 and later).
 *
 * @example
 * const answer: GenAIFunctionResponse = { id: 'call_1', name: 'get_weather', response: { output: 'sunny' } }
 */
export interface GenAIFunctionResponse {
  id?: string
  name?: string
  response?: Record<string, unknown>
  parts?: { inlineData?: GenAIBlob }[]
}

/**
 * Inline bytes (base64) with their media type: the SDK's `Blob`.
 *
 * @example
 * const image: GenAIBlob = { mimeType: 'image/png', data: 'iVBORw0KGgo…' }
 */
export interface GenAIBlob {
  data?: string
  mimeType?: string
  displayName?: string
}

/**
 * A file the model reads by its URI: the SDK's `FileData`.
 *
 * @example
 * const file: GenAIFileData = { fileUri: 'https://example.com/report.pdf', mimeType: 'application/pdf' }
 */
export interface GenAIFileData {
  fileUri?: string
  mimeType?: string
  displayName?: string
}

/**
 * One part of a Gemini message: the fields of the SDK's `Part` that toolnexus reads and writes. A part of
 * another kind (code execution, file data, …) is kept as it came; its fields are just not named here.
 *
 * @example
 * const part: GenAIPart = { text: 'Paris is sunny.' }
 */
export interface GenAIPart {
  text?: string
  /** True for a part that holds the model's thinking. */
  thought?: boolean
  /** Gemini 3 signs parts; the signature must go back on the exact part it came on. */
  thoughtSignature?: string
  functionCall?: GenAIFunctionCall
  functionResponse?: GenAIFunctionResponse
  inlineData?: GenAIBlob
  fileData?: GenAIFileData
}

/**
 * A Gemini message (the SDK's `Content`): the genai client's transcript type, `RunResult.messages` and
 * `history`.
 *
 * @example
 * const history: GenAIContent[] = [{ role: 'user', parts: [{ text: 'Hi' }] }]
 */
export interface GenAIContent {
  /** `'user'` or `'model'`. */
  role?: string
  parts?: GenAIPart[]
}

/**
 * Token counts of a response: the fields of the SDK's `GenerateContentResponseUsageMetadata` toolnexus reads.
 *
 * @example
 * const usage: GenAIUsageMetadata = { promptTokenCount: 12, candidatesTokenCount: 5, totalTokenCount: 17 }
 */
export interface GenAIUsageMetadata {
  promptTokenCount?: number
  toolUsePromptTokenCount?: number
  candidatesTokenCount?: number
  thoughtsTokenCount?: number
  cachedContentTokenCount?: number
  totalTokenCount?: number
}

/**
 * A `generateContent` response (the SDK's `GenerateContentResponse`), as far as toolnexus reads it.
 *
 * @example
 * const response: GenAIResponse = { candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] } }] }
 */
export interface GenAIResponse {
  candidates?: { content?: GenAIContent; finishReason?: string }[]
  usageMetadata?: GenAIUsageMetadata
  responseId?: string
  modelVersion?: string
}

/**
 * A `GoogleGenAI` instance from `@google/genai` (Gemini API or Vertex AI): the client the genai
 * transport calls, through `models.generateContent` and `models.generateContentStream`.
 *
 * @example
 * const genai: GenAIClient = new GoogleGenAI({ apiKey, httpOptions: { apiVersion: 'v1beta' } })
 */
export interface GenAIClient {
  models: {
    // The request is the SDK's own `GenerateContentParameters`, built by the transport; `never` lets any
    // version of the SDK's method signature fit without naming that type here.
    generateContent(request: never): Promise<GenAIResponse>
    generateContentStream(request: never): Promise<AsyncIterable<GenAIResponse>>
  }
}

/**
 * Generation settings sent with every call: the SDK's `GenerateContentConfig` without `tools`,
 * `systemInstruction` and `abortSignal`, which the loop owns. The settings of enum or object type are
 * passed on as given (see the SDK for their shapes).
 *
 * @example
 * const config: GenAIGenerationConfig = { temperature: 0, thinkingConfig: { thinkingBudget: 1024 } }
 */
export interface GenAIGenerationConfig {
  temperature?: number
  topP?: number
  topK?: number
  candidateCount?: number
  maxOutputTokens?: number
  stopSequences?: string[]
  responseLogprobs?: boolean
  logprobs?: number
  presencePenalty?: number
  frequencyPenalty?: number
  seed?: number
  responseMimeType?: string
  responseSchema?: unknown
  responseJsonSchema?: unknown
  responseModalities?: string[]
  thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number; thinkingLevel?: unknown }
  safetySettings?: unknown[]
  toolConfig?: unknown
  labels?: Record<string, string>
  cachedContent?: string
  httpOptions?: unknown
  serviceTier?: unknown
  routingConfig?: unknown
  modelSelectionConfig?: unknown
  mediaResolution?: unknown
  speechConfig?: unknown
  audioTimestamp?: boolean
  automaticFunctionCalling?: unknown
  audioTranscriptionConfig?: unknown
  imageConfig?: unknown
  enableEnhancedCivicAnswers?: boolean
  modelArmorConfig?: unknown
  continuationToken?: string
  automaticContinuation?: boolean
  generationOutputConfig?: unknown
  store?: boolean
}
