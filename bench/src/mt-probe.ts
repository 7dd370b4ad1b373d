import { createOpenAI } from '@ai-sdk/openai'
import type { LanguageModelV4 } from '@mastra/core/_types/@ai-sdk_provider-v7/dist/index.js'
const m = createOpenAI({ apiKey: 'x' }).chat('x')
const v: LanguageModelV4 = m
