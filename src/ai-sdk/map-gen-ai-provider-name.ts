// The AI SDK names providers `<provider>.<api>` (`openai.responses`, `google.vertex.chat`); OpenTelemetry's
// GenAI conventions have their own list of well-known names. Longest prefix first.
const KNOWN_PROVIDERS: ReadonlyArray<readonly [prefix: string, name: string]> = [
  ['google.vertex', 'gcp.vertex_ai'],
  ['vertex', 'gcp.vertex_ai'],
  ['google', 'gcp.gemini'],
  ['azure', 'azure.ai.openai'],
  ['amazon-bedrock', 'aws.bedrock'],
  ['bedrock', 'aws.bedrock'],
  ['openai', 'openai'],
  ['anthropic', 'anthropic'],
  ['mistral', 'mistral_ai'],
  ['xai', 'x_ai'],
  ['deepseek', 'deepseek'],
  ['groq', 'groq'],
  ['cohere', 'cohere'],
  ['perplexity', 'perplexity'],
]

/**
 * The OpenTelemetry `gen_ai.provider.name` of an AI SDK model's `provider`: a well-known name where the
 * conventions list one, else the provider's own first segment.
 *
 * @example
 * mapGenAIProviderName('openai.responses')   // 'openai'
 * mapGenAIProviderName('google.vertex.chat') // 'gcp.vertex_ai'
 * mapGenAIProviderName('ollama.chat')        // 'ollama'
 */
export function mapGenAIProviderName(provider: string): string {
  for (const [prefix, name] of KNOWN_PROVIDERS) {
    if (provider === prefix || provider.startsWith(`${prefix}.`) || provider.startsWith(`${prefix}-`)) {
      return name
    }
  }
  return provider.split('.')[0] || 'unknown'
}
